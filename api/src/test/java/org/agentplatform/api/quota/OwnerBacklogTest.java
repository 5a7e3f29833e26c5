package org.agentplatform.api.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.quota.OwnerBacklog.Work;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.task.TaskBacklog;
import org.agentplatform.query.task.TaskReads;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The admission's arithmetic against a read model the test sets (its counts are the database's in OwnerBacklogHttpTest):
 * admitted tasks count until the view shows them, a failed create gives its place back, a refusal rests on a fresh count,
 * and Retry-After follows the rate at which the owner's tasks settled.
 */
class OwnerBacklogTest {

    private static final OwnerId OWNER = OwnerId.random();

    private final View view = new View();
    private final MovingClock clock = new MovingClock();
    private final OwnerBacklog backlog = new OwnerBacklog(view.reads(), new BacklogSettings(3, 1, 1), clock);

    @Test
    void admittedTasksCountUntilTheViewShowsThemAndAFailedCreateGivesItsPlaceBack() {
        TaskId first = admit(Work.TASKS);
        admit(Work.TASKS);
        OwnerBacklog.Ticket third = backlog.admit(OWNER, Work.TASKS, TaskId.random()).block();
        assertRefused(Work.TASKS, "3");

        third.release();
        admit(Work.TASKS);
        // the view shows the first one (still running): it counts once, not twice
        view.show(first, 1);
        clock.advance(OwnerBacklog.FRESH_MS);
        assertRefused(Work.TASKS, "3");
        assertThat(view.asked.getLast()).contains(first);
    }

    @Test
    void invokesAndOtherOwnersHaveTheirOwnCounts() {
        admit(Work.TASKS);
        admit(Work.TASKS);
        admit(Work.TASKS);
        admit(Work.INVOKES);
        assertRefused(Work.INVOKES, "1");
        assertThat(backlog.admit(OwnerId.random(), Work.TASKS, TaskId.random()).block()).isNotNull();
    }

    @Test
    void aRefusalRestsOnACountNoOlderThanTheRecheckAndFollowsTheSettleRate() {
        view.unfinished = 3;
        assertThat(retryAfter()).as("nothing measured yet").isEqualTo(OwnerBacklog.IDLE_RETRY_AFTER_SECONDS);
        // ten seconds later four tasks settled and the owner has one place free, which a create takes
        clock.advance(10_000);
        view.unfinished = 2;
        view.settled = 4;
        admit(Work.TASKS);
        view.settled = 0;
        // none settled in the next 100 ms: the rate is the mean of 0.4 and 0 a second, at which one task settles in 5 s
        clock.advance(OwnerBacklog.RECHECK_MS);
        assertThat(retryAfter()).isEqualTo(5);
    }

    @Test
    void anAdmissionTheViewNeverShowsStopsCountingAfterItsPatience() {
        admit(Work.TASKS);
        admit(Work.TASKS);
        admit(Work.TASKS);
        assertRefused(Work.TASKS, "3");
        clock.advance(OwnerBacklog.PENDING_PATIENCE_MS);
        admit(Work.TASKS);
    }

    @Test
    void onlyTheAdmissionsPastTheirPatienceStopCounting() {
        admit(Work.TASKS);
        admit(Work.TASKS);
        clock.advance(OwnerBacklog.PENDING_PATIENCE_MS / 2);
        admit(Work.TASKS);
        assertRefused(Work.TASKS, "3");
        clock.advance(OwnerBacklog.PENDING_PATIENCE_MS / 2);
        // the first two are past their patience, the third is not
        admit(Work.TASKS);
        admit(Work.TASKS);
        assertRefused(Work.TASKS, "3");
    }

    private TaskId admit(Work work) {
        TaskId task = TaskId.random();
        assertThat(backlog.admit(OWNER, work, task).block()).isNotNull();
        return task;
    }

    private void assertRefused(Work work, String limit) {
        assertThatThrownBy(() -> backlog.admit(OWNER, work, TaskId.random()).block())
                .isInstanceOfSatisfying(ApiException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(ErrorCode.RATE_LIMITED);
                    assertThat(refused.metadata()).containsEntry("limit", limit);
                    assertThat(refused.retryAfterSeconds()).isPositive();
                });
    }

    private long retryAfter() {
        try {
            backlog.admit(OWNER, Work.TASKS, TaskId.random()).block();
        } catch (ApiException refused) {
            return refused.retryAfterSeconds();
        }
        throw new AssertionError("admitted");
    }

    /** The task view's answer to the backlog read, as the test sets it, and the ids each read asked about. */
    private static final class View {

        long unfinished;
        long settled;
        final Set<TaskId> shown = new HashSet<>();
        final List<Set<TaskId>> asked = new ArrayList<>();

        void show(TaskId task, long nowUnfinished) {
            shown.add(task);
            unfinished = nowUnfinished;
        }

        TaskReads reads() {
            return (TaskReads) Proxy.newProxyInstance(TaskReads.class.getClassLoader(), new Class<?>[] {TaskReads.class},
                    (proxy, method, arguments) -> {
                        if (!method.getName().equals("backlog")) {
                            throw new UnsupportedOperationException(method.getName());
                        }
                        Set<TaskId> pending = Set.copyOf((Collection<TaskId>) arguments[3]);
                        asked.add(pending);
                        boolean invokes = (boolean) arguments[1];
                        Set<TaskId> seen = new HashSet<>(pending);
                        seen.retainAll(shown);
                        return Mono.just(new TaskBacklog(invokes ? 0 : unfinished, invokes ? 0 : settled, 1, seen));
                    });
        }
    }
}
