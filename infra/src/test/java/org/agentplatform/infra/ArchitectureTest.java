package org.agentplatform.infra;

import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of DESIGN §3, kept true on every build: the kernel depends on nothing of ours;
 * the command side, query side and webhook saga only on the kernel; the API on the kernel and the
 * query side's read interfaces; only infra sees everything. (ArchUnit's own JUnit engine does not run
 * on JUnit 6, so the rules are checked from plain Jupiter tests.)
 */
class ArchitectureTest {

    private static final String KERNEL = "org.agentplatform.kernel..";
    private static final String COMMAND = "org.agentplatform.command..";
    private static final String QUERY = "org.agentplatform.query..";
    private static final String WEBHOOK = "org.agentplatform.webhook..";
    private static final String API = "org.agentplatform.api..";
    private static final String INFRA = "org.agentplatform.infra..";

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.agentplatform");

    @Test
    void kernelDependsOnNoOtherModuleAndNoFramework() {
        noClasses().that().resideInAPackage(KERNEL)
                .should().dependOnClassesThat().resideInAnyPackage(COMMAND, QUERY, WEBHOOK, API, INFRA,
                        "org.springframework..", "reactor..", "tools.jackson..", "java.sql..")
                .check(PRODUCTION);
    }

    @Test
    void commandSideDependsOnlyOnTheKernelAndDoesNoIo() {
        noClasses().that().resideInAPackage(COMMAND)
                .should().dependOnClassesThat().resideInAnyPackage(QUERY, WEBHOOK, API, INFRA,
                        "java.sql..", "javax.sql..", "java.net.http..", "org.springframework.web..", "org.springframework.http..",
                        "org.springframework.jdbc..", "org.springframework.r2dbc..", "io.r2dbc..")
                .allowEmptyShould(true)
                .check(PRODUCTION);
    }

    @Test
    void querySideDependsOnlyOnTheKernel() {
        noClasses().that().resideInAPackage(QUERY)
                .should().dependOnClassesThat().resideInAnyPackage(COMMAND, WEBHOOK, API, INFRA)
                .allowEmptyShould(true)
                .check(PRODUCTION);
    }

    @Test
    void webhookSagaDependsOnlyOnTheKernel() {
        noClasses().that().resideInAPackage(WEBHOOK)
                .should().dependOnClassesThat().resideInAnyPackage(COMMAND, QUERY, API, INFRA)
                .allowEmptyShould(true)
                .check(PRODUCTION);
    }

    @Test
    void apiReachesTheWriteSideOnlyThroughCommandsAndSpeaksNoSql() {
        noClasses().that().resideInAPackage(API)
                .should().dependOnClassesThat().resideInAnyPackage(COMMAND, WEBHOOK, INFRA,
                        "java.sql..", "javax.sql..", "org.springframework.jdbc..", "org.springframework.r2dbc..", "io.r2dbc..")
                .check(PRODUCTION);
    }

    @Test
    void aggregatesAndTheirHandlersStayPackagePrivate() {
        classes().that().resideInAPackage(COMMAND).and().haveSimpleNameNotEndingWith("AggregateRegistrar")
                .and().containAnyMethodsThat(annotatedWith(CommandHandler.class))
                .should().notBePublic()
                .check(PRODUCTION);
        methods().that().areAnnotatedWith(CommandHandler.class).or().areAnnotatedWith(EventSourcingHandler.class)
                .should().notBePublic()
                .check(PRODUCTION);
    }

    /**
     * Infra by audience (its packages; the README's Layout names them): the application's wiring per feature ({@code app}),
     * the built-in {@code local} provider, the adapters behind the ports, the event store and its processors
     * ({@code eventstore}), {@code audit}, {@code replay}, {@code observability}, {@code database}, the command line, and
     * the ground they stand on ({@code platform}: settings, pools, periodic jobs). Each may use only what stands below it,
     * and what nobody should know (the wiring, the local provider behind its ports, the command line) nobody uses.
     */
    static LayeredArchitecture infraLayers() {
        return layeredArchitecture().consideringOnlyDependenciesInAnyPackage(INFRA)
                .layer("Application").definedBy("org.agentplatform.infra")
                .layer("Cli").definedBy("org.agentplatform.infra.cli..")
                .layer("Wiring").definedBy("org.agentplatform.infra.app..")
                .layer("LocalProvider").definedBy("org.agentplatform.infra.local..")
                .layer("Audit").definedBy("org.agentplatform.infra.audit..")
                .layer("Observability").definedBy("org.agentplatform.infra.observability..")
                .layer("Adapters").definedBy("org.agentplatform.infra.adapter..")
                .layer("EventStore").definedBy("org.agentplatform.infra.eventstore..")
                .layer("Replay").definedBy("org.agentplatform.infra.replay..")
                .layer("Database").definedBy("org.agentplatform.infra.database..")
                .layer("Platform").definedBy("org.agentplatform.infra.platform..")
                .whereLayer("Cli").mayOnlyBeAccessedByLayers("Application")
                .whereLayer("Wiring").mayNotBeAccessedByAnyLayer()
                .whereLayer("LocalProvider").mayNotBeAccessedByAnyLayer()
                .whereLayer("Observability").mayNotBeAccessedByAnyLayer()
                .whereLayer("Audit").mayOnlyBeAccessedByLayers("Cli")
                .whereLayer("Adapters").mayOnlyBeAccessedByLayers("Cli", "Wiring", "LocalProvider", "Audit")
                .whereLayer("EventStore").mayOnlyBeAccessedByLayers("Cli", "Wiring", "Audit", "Observability")
                .whereLayer("Replay").mayOnlyBeAccessedByLayers("Cli", "Wiring", "Audit")
                .whereLayer("Database").mayOnlyBeAccessedByLayers("Cli", "Wiring", "LocalProvider", "Observability")
                .whereLayer("Platform").mayOnlyBeAccessedByLayers("Application", "Cli", "Wiring", "LocalProvider", "Audit", "Observability",
                        "Adapters", "EventStore", "Database");
    }

    @Test
    void infraStandsInLayersByAudience() {
        infraLayers().check(PRODUCTION);
    }

    /** The features' wiring knows no other feature's, and an adapter no other adapter (but the vault, which seals their secrets). */
    @Test
    void featuresAndAdaptersStandApart() {
        slices().matching("org.agentplatform.infra.app.(*)..").should().notDependOnEachOther().check(PRODUCTION);
        slices().matching("org.agentplatform.infra.adapter.(*)..").should().notDependOnEachOther()
                .ignoreDependency(resideInAPackage("org.agentplatform.infra.adapter.."), resideInAPackage("org.agentplatform.infra.adapter.secret.."))
                .check(PRODUCTION);
    }

    @Test
    void theInfraRulesCanFail() {
        assertThatThrownBy(() -> infraLayers().whereLayer("Platform").mayNotBeAccessedByAnyLayer().check(PRODUCTION))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> slices().matching("org.agentplatform.infra.(*)..").should().notDependOnEachOther().check(PRODUCTION))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void theRulesCanFail() {
        assertThatThrownBy(() -> noClasses().that().resideInAPackage(INFRA)
                        .should().dependOnClassesThat().resideInAnyPackage(API)
                        .check(PRODUCTION))
                .isInstanceOf(AssertionError.class);
    }
}
