package org.agentplatform.infra.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.agentplatform.command.turn.TurnOutcome;
import org.agentplatform.infra.adapter.model.ModelBackends.ChatMessage;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskMessage;
import org.junit.jupiter.api.Test;

class EchoAgentTest {

    @Test
    void itEchoesTheMessageOneDeltaPerWord() {
        EchoAgent.Plan plan = EchoAgent.plan(TaskMessage.user("hello big world", List.of()), List::of);
        assertThat(plan.outcome()).isEqualTo(new TurnOutcome.Replied("echo: hello big world"));
        assertThat(plan.chunks()).hasSize(4).allMatch(chunk -> chunk.kind().equals("agent_reply_delta"));
        assertThat(String.join("", plan.chunks().stream().map(EchoAgent.Chunk::text).toList())).isEqualTo("echo: hello big world");
        assertThat(plan.stepDelayMs()).isZero();
    }

    @Test
    void directivesScriptTheTurnAndAreNotEchoed() {
        EchoAgent.Plan plan = EchoAgent.plan(TaskMessage.user("pick one\n/echo then=input deltas=2 think=3 progress=1 take_ms=700",
                List.of()), List::of);
        assertThat(plan.outcome()).isEqualTo(new TurnOutcome.NeedsInput("echo needs more input: pick one"));
        assertThat(plan.chunks()).extracting(EchoAgent.Chunk::kind).containsExactly("agent_thought_chunk", "agent_thought_chunk",
                "agent_thought_chunk", "agent_message_chunk", "agent_reply_delta", "agent_reply_delta");
        assertThat(plan.stepDelayMs()).isEqualTo(100);
    }

    @Test
    void everyOutcomeCanBeAskedFor() {
        assertThat(outcome("auth")).isInstanceOf(TurnOutcome.NeedsAuth.class);
        assertThat(outcome("fail")).isEqualTo(new TurnOutcome.AgentFailed("echo failed: x",
                "The echo agent reported a failure, as the message asked"));
        assertThat(outcome("reject")).isInstanceOf(TurnOutcome.Rejected.class);
        assertThat(outcome("unavailable")).isEqualTo(new TurnOutcome.Unavailable("agent_service_unavailable",
                "The echo agent's model service is unreachable, as the message asked"));
        assertThat(((TurnOutcome.Unavailable) outcome("error")).code()).isEqualTo("internal_error");
        assertThat(outcome("hang")).isNull();
        assertThat(outcome("something-else")).isEqualTo(new TurnOutcome.Replied("echo: x"));
    }

    @Test
    void numbersAreClampedAndNonsenseIgnored() {
        EchoAgent.Plan plan = EchoAgent.plan(TaskMessage.user("a b\n/echo deltas=-4 think=lots colour=red", List.of()), List::of);
        assertThat(plan.chunks()).hasSize(1);
        assertThat(plan.outcome()).isEqualTo(new TurnOutcome.Replied("echo: a b"));
    }

    @Test
    void attachmentsAreMentioned() {
        EchoAgent.Plan plan = EchoAgent.plan(TaskMessage.user("see",
                List.of(new Attachment("f-1", "report.pdf", "application/pdf", 1234, "ab".repeat(32)))), List::of);
        assertThat(plan.outcome()).isEqualTo(new TurnOutcome.Replied("echo: see [attached: report.pdf (1234 bytes)]"));
    }

    @Test
    void historyRecountsTheEarlierTurns() {
        List<ChatMessage> earlier = List.of(new ChatMessage("user", "hello there my agent\n/echo deltas=2"), new ChatMessage("assistant", "echo: hello"),
                new ChatMessage("user", "  second"), new ChatMessage("assistant", "echo: second"));
        assertThat(EchoAgent.plan(TaskMessage.user("third\n/echo history", List.of()), () -> earlier).outcome())
                .isEqualTo(new TurnOutcome.Replied("echo: third (2 earlier turns: \"hello there my\", \"second\")"));
        assertThat(EchoAgent.plan(TaskMessage.user("first\n/echo history", List.of()), List::of).outcome())
                .isEqualTo(new TurnOutcome.Replied("echo: first (0 earlier turns)"));
    }

    @Test
    void splittingKeepsEveryCharacterInOrder() {
        assertThat(EchoAgent.split("abcdefg", 3)).containsExactly("ab", "cd", "efg");
        assertThat(EchoAgent.split("ab", 5)).containsExactly("a", "b");
        assertThat(EchoAgent.split("", 3)).containsExactly("");
    }

    private static TurnOutcome outcome(String then) {
        return EchoAgent.plan(TaskMessage.user("x\n/echo then=" + then, List.of()), List::of).outcome();
    }
}
