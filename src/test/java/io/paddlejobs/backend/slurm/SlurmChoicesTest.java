package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.script.PlacementTest;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.testing.Settings;
import org.junit.jupiter.api.Test;

class SlurmChoicesTest {

    private static final SlurmProperties SITE = Settings.of(SlurmProperties.class, "shared-dir", "/shared",
            "partition", "batch", "account", "general",
            "partitions.default", "gpu,long", "accounts.default", "ml", "qos.default", "high");

    @Test
    void whatTheOperatorAllowsTheNamespaceIsWhatTheJobIsSubmittedWith() {
        JobPlan plan = plan("default", "partition=long account=ml qos=high");

        assertThat(SlurmChoices.violations(plan, SITE)).isEmpty();
        assertThat(SlurmChoices.of(plan, SITE)).isEqualTo(new SlurmChoices("long", "ml", "high"));
    }

    @Test
    void aJobThatNamesNoneGetsTheBackendsOwn() {
        JobPlan plan = plan("default", "");

        assertThat(SlurmChoices.violations(plan, SITE)).isEmpty();
        assertThat(SlurmChoices.of(plan, SITE)).isEqualTo(new SlurmChoices("batch", "general", ""));
    }

    @Test
    void namingTheBackendsOwnIsAllowedWithoutBeingListed() {
        assertThat(SlurmChoices.violations(plan("other", "partition=batch account=general"), SITE)).isEmpty();
    }

    @Test
    void aValueTheNamespaceIsNotAllowedIsRefusedNamingTheFieldTheSettingAndWhatIsAllowed() {
        var violations = SlurmChoices.violations(plan("default", "partition=debug account=ml qos=low"), SITE);

        assertThat(violations).extracting(v -> v.fields().get(0)).containsExactly("partition", "qos");
        Violation partition = violations.get(0);
        assertThat(partition.rejected()).isEqualTo("debug");
        assertThat(partition.message()).isEqualTo("must be one the operator allows namespace default"
                + " (paddlejobs.slurm.partitions): gpu, long; or leave partition out for batch");
        assertThat(violations.get(1).message()).endsWith("or leave qos out for the cluster's default");
    }

    @Test
    void aNamespaceTheOperatorListsNothingForMayNameNothingOfItsOwn() {
        var violations = SlurmChoices.violations(plan("other", "account=ml"), SITE);

        assertThat(violations).singleElement().satisfies(v -> assertThat(v.message()).isEqualTo(
                "the operator allows namespace other no account of its own (paddlejobs.slurm.accounts):"
                        + " leave account out for general"));
    }

    private static JobPlan plan(String namespace, String fields) {
        JobPlan plan = PlacementTest.plan();
        var spec = JobRequests.Builder.from(plan.spec()).spec(fields).build();
        return new JobPlan(plan.name(), namespace, plan.image(), spec, plan.pservers(), plan.trainers(), plan.ports(),
                plan.useGpu(), plan.totals(), plan.replicas(), plan.derivations(), plan.warnings());
    }
}
