package org.agentplatform.kernel.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalStateTest {

    @Test
    void connectionsComeAndGoAndALaterOneReplacesTheAttachedOne() {
        assertThat(TerminalState.DETACHED.canBecome(TerminalState.ATTACHED)).isTrue();
        assertThat(TerminalState.ATTACHED.canBecome(TerminalState.DETACHED)).isTrue();
        assertThat(TerminalState.ATTACHED.canBecome(TerminalState.ATTACHED)).isTrue();
        assertThat(TerminalState.DETACHED.canBecome(TerminalState.DETACHED)).isFalse();
    }

    @Test
    void itEndsFromEitherAndAnEndedOneIsFinal() {
        assertThat(TerminalState.DETACHED.canBecome(TerminalState.ENDED)).isTrue();
        assertThat(TerminalState.ATTACHED.canBecome(TerminalState.ENDED)).isTrue();
        for (TerminalState next : TerminalState.values()) {
            assertThat(TerminalState.ENDED.canBecome(next)).isFalse();
        }
        assertThat(TerminalState.ENDED.isLive()).isFalse();
    }
}
