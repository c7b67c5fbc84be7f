package io.paddlejobs.backend.kubernetes;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** fabric8 stays inside this package: the rest of the service knows jobs, not Kubernetes objects. */
class PackageBoundariesTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.paddlejobs");

    @Test
    void onlyTheConfigurationAndTheProblemTypesArePublic() {
        classes().that().resideInAPackage("io.paddlejobs.backend.kubernetes..").and().arePublic()
                .should().haveSimpleNameEndingWith("Exception")
                .orShould().beAnnotatedWith(org.springframework.boot.context.properties.ConfigurationProperties.class)
                .because("the rest of the service reaches this backend through the JobBackend port only")
                .check(classes);
    }
}
