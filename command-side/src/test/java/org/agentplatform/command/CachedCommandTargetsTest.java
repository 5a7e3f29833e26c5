package org.agentplatform.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.agentplatform.kernel.task.TaskCommand.CompleteTask;
import org.agentplatform.kernel.task.TaskCommand.StartTask;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;
import org.junit.jupiter.api.Test;

class CachedCommandTargetsTest {

    private final CachedCommandTargets cached = new CachedCommandTargets();
    private final AnnotationCommandTargetResolver axons = AnnotationCommandTargetResolver.builder().build();

    record Versioned(@TargetAggregateIdentifier String id, @TargetAggregateVersion Integer version) {
    }

    record VersionAsText(@TargetAggregateIdentifier String id, @TargetAggregateVersion String version) {
    }

    static final class ByMethod {
        @SuppressWarnings("unused")
        private final String ignored = "a field that is not the target";

        @TargetAggregateIdentifier
        String target() {
            return "by-method";
        }
    }

    record Untargeted(String id) {
    }

    @Test
    void findsTheTargetAndVersionAsAxonsResolverDoes() {
        TaskId task = TaskId.random();
        List<Object> commands = List.of(new StartTask(task, 2), new CompleteTask(task, 1, TaskMessage.agent("done"), null),
                new Versioned("v", 7), new Versioned("unversioned", null), new VersionAsText("t", "12"), new ByMethod());

        for (Object command : commands) {
            // the same class twice: the second answer comes from what the first found
            for (int time = 0; time < 2; time++) {
                VersionedAggregateIdentifier expected = axons.resolveTarget(message(command));
                VersionedAggregateIdentifier resolved = cached.resolveTarget(message(command));

                assertThat(resolved).as("%s", command).isEqualTo(expected);
                assertThat(resolved.getIdentifierValue()).isEqualTo(expected.getIdentifierValue());
                assertThat(resolved.getVersion()).isEqualTo(expected.getVersion());
            }
        }
        assertThat(cached.resolveTarget(message(new StartTask(task, 2))).getIdentifier()).isEqualTo(task.toString());
        assertThat(cached.resolveTarget(message(new Versioned("v", 7))).getVersion()).isEqualTo(7L);
    }

    @Test
    void aCommandWithoutATargetIsRefusedAsAxonsResolverRefusesIt() {
        for (Object command : List.of(new Untargeted("x"), new Versioned(null, 1))) {
            assertThatThrownBy(() -> axons.resolveTarget(message(command))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> cached.resolveTarget(message(command))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not identify the target aggregate")
                    .hasMessageContaining(command.getClass().getSimpleName());
        }
    }

    @Test
    void everyAggregateOfTheCommandSideResolvesTargetsThisWay() {
        Configurer configurer = DefaultConfigurer.defaultConfiguration();
        new CommandSideModule().configureModule(configurer);
        Configuration configuration = configurer.buildConfiguration();

        assertThat(configuration.getComponent(CommandTargetResolver.class)).isInstanceOf(CachedCommandTargets.class);
    }

    private static CommandMessage<Object> message(Object command) {
        return GenericCommandMessage.asCommandMessage(command);
    }
}
