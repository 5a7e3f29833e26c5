package org.agentplatform.command.turn;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A runtime that takes turns in and stops them by writing down what it was asked, in order. */
public final class RecordingRuntime implements AgentRuntime {

    private final List<String> asked = new ArrayList<>();

    /** What it was asked, in order: {@code start <channel> <turn>}, {@code stop <channel>}, {@code stop <channel> <turn>}. */
    public List<String> asked() {
        return asked;
    }

    @Override
    public void startTurn(AgentTurn turn) {
        asked.add("start " + turn.channel() + " " + turn.turn());
    }

    @Override
    public void stopTurns(UUID channel) {
        asked.add("stop " + channel);
    }

    @Override
    public void stopTurn(UUID channel, int turn) {
        asked.add("stop " + channel + " " + turn);
    }
}
