package org.agentplatform.kernel.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConversationStateTest {

    @Test
    void turnsAlternateWithIdleness() {
        assertThat(ConversationState.IDLE.canBecome(ConversationState.ANSWERING)).isTrue();
        assertThat(ConversationState.ANSWERING.canBecome(ConversationState.IDLE)).isTrue();
        assertThat(ConversationState.ANSWERING.canBecome(ConversationState.ANSWERING)).as("one turn at a time").isFalse();
    }

    @Test
    void onlyAnIdleConversationClosesAndAClosedOneIsFinal() {
        assertThat(ConversationState.IDLE.canBecome(ConversationState.CLOSED)).isTrue();
        assertThat(ConversationState.ANSWERING.canBecome(ConversationState.CLOSED)).as("its turn is canceled first").isFalse();
        for (ConversationState next : ConversationState.values()) {
            assertThat(ConversationState.CLOSED.canBecome(next)).isFalse();
        }
    }

    @Test
    void onTheWireItIsOpenOrClosed() {
        assertThat(ConversationState.IDLE.wireStatus()).isEqualTo("open");
        assertThat(ConversationState.ANSWERING.wireStatus()).isEqualTo("open");
        assertThat(ConversationState.CLOSED.wireStatus()).isEqualTo("closed");
    }
}
