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
    void onlyTheKubernetesBackendUsesFabric8() {
        noClasses().that().resideOutsideOfPackage("io.paddlejobs.backend.kubernetes..")
                .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
                .allowEmptyShould(true)
                .check(PRODUCTION);
    }

    /** The job package may know HTTP statuses: its exceptions are problem documents (STYLE, "Problem details"). */
    @Test
    void backendsKnowNothingOfHttp() {
        noClasses().that().resideInAnyPackage("io.paddlejobs.backend..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..", "org.springframework.http..",
                        "jakarta.servlet..")
                .check(PRODUCTION);
    }
}
