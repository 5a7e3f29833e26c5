package org.agentplatform.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A key's pieces run in the order they were handed on, whatever order the pool takes its work in; other keys do not wait. */
class OrderedWorkTest {

    private final NewestFirstPool pool = new NewestFirstPool();
    private final OrderedWork<String> work = new OrderedWork<>(pool);
    private final List<String> ran = new ArrayList<>();

    @Test
    void aKeysPiecesRunInTheOrderTheyWereHandedOn() {
        work.run("a", () -> ran.add("a1"));
        work.run("a", () -> ran.add("a2"));
        work.run("a", () -> ran.add("a3"));
        pool.runAll();

        assertThat(ran).containsExactly("a1", "a2", "a3");
    }

    @Test
    void anotherKeyDoesNotWaitForTheFirstKeysPieces() {
        work.run("a", () -> ran.add("a1"));
        work.run("a", () -> ran.add("a2"));
        work.run("b", () -> ran.add("b1"));
        pool.runNewest();

        assertThat(ran).as("b's piece, handed on last, runs while a's first has not").containsExactly("b1");
        pool.runAll();
        assertThat(ran).containsExactly("b1", "a1", "a2");
    }

    @Test
    void aPieceThatFailedDoesNotHoldBackTheNext() {
        work.run("a", () -> {
            throw new IllegalStateException("the runtime went away");
        });
        work.run("a", () -> ran.add("a2"));
        pool.runAll();

        assertThat(ran).containsExactly("a2");
    }

    @Test
    void aKeyWhosePiecesEndedStartsAfresh() {
        work.run("a", () -> ran.add("a1"));
        pool.runAll();
        work.run("a", () -> ran.add("a2"));
        pool.runAll();

        assertThat(ran).containsExactly("a1", "a2");
    }

    @Test
    void aCallRunsAfterThePiecesHandedOnBeforeItAndAnswersWhatItSaw() {
        work.run("a", () -> ran.add("stop"));
        CompletableFuture<List<String>> seen = work.call("a", () -> List.copyOf(ran));
        work.run("a", () -> ran.add("later"));
        assertThat(seen).isNotDone();

        pool.runAll();
        assertThat(seen).as("what the call read when it ran").isCompletedWithValue(List.of("stop"));
        assertThat(ran).containsExactly("stop", "later");
    }

    @Test
    void aCallThatFailedAnswersItsFailureAndDoesNotHoldBackTheNext() {
        CompletableFuture<Object> failed = work.call("a", () -> {
            throw new IllegalStateException("the event store went away");
        });
        work.run("a", () -> ran.add("a2"));
        pool.runAll();

        assertThat(failed).isCompletedExceptionally();
        assertThat(ran).containsExactly("a2");
    }
}
