package io.paddlejobs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** STYLE "Layout": the boundaries that keep the planner pure and fabric8 in one place. */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.paddlejobs");

    @Test
    void planningDependsOnNothingButJavaAndItself() {
        classes().that().resideInAPackage("io.paddlejobs.planning..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.paddlejobs.planning..")
                .check(PRODUCTION);
    }

    @Test
    void onlyTheKubernetesBackendAndKubernetesSecurityUseFabric8() {
        noClasses().that().resideOutsideOfPackages("io.paddlejobs.backend.kubernetes..", "io.paddlejobs.security.kubernetes..")
                .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
                .allowEmptyShould(true)
                .check(PRODUCTION);
    }

    /**
     * Backends serve no requests: no controllers, filters or servlets. Like the job package they
     * may raise problem documents (STYLE, "Problem details"), such as a 503 when the cluster is away.
     */
    @Test
    void backendsServeNoRequests() {
        noClasses().that().resideInAnyPackage("io.paddlejobs.backend..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web.servlet..",
                        "org.springframework.web.bind..", "org.springframework.web.filter..", "jakarta.servlet..")
                .check(PRODUCTION);
    }
}
