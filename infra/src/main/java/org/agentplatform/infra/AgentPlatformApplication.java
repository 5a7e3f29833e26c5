package org.agentplatform.infra;

import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.ThreadFactory;
import org.agentplatform.api.ApiConfiguration;
import org.agentplatform.api.web.CorsSettings;
import org.agentplatform.infra.cli.AuditCommand;
import org.agentplatform.infra.cli.DeadLettersCommand;
import org.agentplatform.infra.cli.Help;
import org.agentplatform.infra.cli.OwnersCommand;
import org.agentplatform.infra.cli.ProjectionsCommand;
import org.agentplatform.infra.cli.TrainCommand;
import org.agentplatform.infra.cli.UsersCommand;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PlatformProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The one executable: {@code java -jar agent-platform.jar} serves the API; {@code ... users create}
 * manages users of the built-in identity; {@code ... deadletters list|retry} shows and retries parked events;
 * {@code ... audit verify} checks the audit chain; {@code ... owners erase} erases an owner's personal content; {@code ... projections status|rebuild} shows the processors and
 * rebuilds read models from the event store; {@code ... train} is the training run of the ahead-of-time cache.
 */
@SpringBootApplication
@EnableConfigurationProperties(PlatformProperties.class)
@Import(ApiConfiguration.class)
public class AgentPlatformApplication {

    public static void main(String[] args) {
        // Axon 4.13 would phone home; only a system property set before Spring starts stops it
        System.setProperty("axoniq.update-checker.disabled", "true");
        System.setProperty("disable-axoniq-console-message", "true");
        if (Help.asked(args)) {
            System.out.print(Help.text());
            System.exit(0);
        }
        if (args.length > 0 && args[0].equals(UsersCommand.NAME)) {
            System.exit(UsersCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals(AuditCommand.NAME)) {
            System.exit(AuditCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals(ProjectionsCommand.NAME)) {
            System.exit(ProjectionsCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals(DeadLettersCommand.NAME)) {
            System.exit(DeadLettersCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals(OwnersCommand.NAME)) {
            System.exit(OwnersCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals(TrainCommand.NAME)) {
            System.exit(TrainCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        if (Help.unknownCommand(args)) {
            System.err.println("No command " + args[0] + "\n\n" + Help.text());
            System.exit(2);
        }
        SpringApplication.run(AgentPlatformApplication.class, args);
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The browser origins whose pages may call the API. */
    @Bean
    CorsSettings corsSettings(PlatformProperties properties) {
        return new CorsSettings(properties.cors().allowedOrigins());
    }

    @Bean
    BackgroundPriority backgroundPriority(PlatformProperties properties) {
        // Reactor's timers (request timeouts, stream keep-alives) run on its parallel scheduler, whose threads start with
        // their first task: start them now, at this thread's priority, before a background thread makes them with its own
        Scheduler timers = Schedulers.parallel();
        for (int worker = 0; worker < Schedulers.DEFAULT_POOL_SIZE; worker++) {
            timers.schedule(() -> { });
        }
        return new BackgroundPriority(properties.backgroundNiceness());
    }

    /** The API's command threads, at their priority ({@link BackgroundPriority#commandThreads}). */
    @Bean
    ThreadFactory commandThreads(BackgroundPriority priority) {
        return priority.commandThreads("command-sender");
    }
}
