package org.agentplatform.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.agentplatform.kernel.error.CommandRefused;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;

class ProcessCommandsTest {

    private final SimpleCommandBus bus = SimpleCommandBus.builder().build();
    private final CommandGateway gateway = DefaultCommandGateway.builder().commandBus(bus).build();
    private final AtomicInteger handled = new AtomicInteger();

    @Test
    void aCommandThatLostARaceIsSentAgainUntilItIsTaken() {
        bus.subscribe(String.class.getName(), command -> {
            if (handled.incrementAndGet() < 3) {
                throw new ConcurrencyException("another node appended first");
            }
            return null;
        });

        ProcessCommands.send(gateway, "start");

        assertThat(handled).hasValue(3);
    }

    @Test
    void racesAreRetriedAFewTimesOnly() {
        bus.subscribe(String.class.getName(), command -> {
            handled.incrementAndGet();
            throw new ConcurrencyException("always behind");
        });

        ProcessCommands.send(gateway, "start");

        assertThat(handled).hasValue(4);
    }

    @Test
    void aRefusalIsNotSentAgain() {
        bus.subscribe(String.class.getName(), command -> {
            handled.incrementAndGet();
            throw CommandRefused.conflict("already started");
        });

        ProcessCommands.send(gateway, "start");

        assertThat(handled).hasValue(1);
    }
}
