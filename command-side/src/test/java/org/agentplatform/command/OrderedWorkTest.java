package org.agentplatform.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
}
