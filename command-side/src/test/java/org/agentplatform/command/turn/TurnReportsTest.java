package org.agentplatform.command.turn;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.agentplatform.command.turn.TurnOutcome.Replied;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.task.TaskCommand.CompleteTask;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A runtime's report of a turn's outcome: a refusal (the turn was over) is an answer, quietly; other failures are retried. */
class TurnReportsTest {

    private final SimpleCommandBus bus = SimpleCommandBus.builder().build();
    private final TurnReports reports = new TurnReports(DefaultCommandGateway.builder().commandBus(bus).build());
    private final Logger gatewayLog = (Logger) LoggerFactory.getLogger(DefaultCommandGateway.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void listen() {
        logged.start();
        gatewayLog.addAppender(logged);
    }

    @AfterEach
    void stopListening() {
        gatewayLog.detachAppender(logged);
    }

    @Test
    void anOutcomeReportedAgainIsRefusedAsOverWithoutAWarning() throws Exception {
        bus.subscribe(CompleteTask.class.getName(), command -> {
            throw CommandRefused.conflict("Cannot complete task while it is completed");
        });

        CompletableFuture<Void> report = reports.report(AgentTurn.Kind.TASK, UUID.randomUUID(), 1, new Replied("done"), null);

        assertThat(report.get()).as("the report counts as taken").isNull();
        assertThat(logged.list).as("what the command gateway logged").noneMatch(event -> event.getLevel().isGreaterOrEqual(Level.WARN));
    }

    @Test
    void anOutcomeWhoseFateIsUnknownFailsTheReportSoItIsMadeAgain() {
        bus.subscribe(CompleteTask.class.getName(), command -> {
            throw new IllegalStateException("the database went away");
        });

        CompletableFuture<Void> report = reports.report(AgentTurn.Kind.TASK, UUID.randomUUID(), 1, new Replied("done"), null);

        assertThat(report).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(ExecutionException.class)
                .withMessageContaining("did not take the turn's outcome");
    }
}
