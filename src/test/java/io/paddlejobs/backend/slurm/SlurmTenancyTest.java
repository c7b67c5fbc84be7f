package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.backend.SecretStore;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** Tenants' jobs on Slurm share one Unix user and directory: modes with tenants start only when the operator accepts that. */
class SlurmTenancyTest {

    @ParameterizedTest
    @ValueSource(strings = {"token", "kubernetes"})
    void modesWithTenantsRefuseToStartUnlessSharedFilesAreAccepted(String mode) {
        assertThatThrownBy(() -> properties(false).requireSharedFilesAccepted(mode))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("paddlejobs.security.mode=" + mode)
                .hasMessageContaining("could read and change the others' files")
                .hasMessageContaining("paddlejobs.allow-shared-files=true");

        assertThatCode(() -> properties(true).requireSharedFilesAccepted(mode)).doesNotThrowAnyException();
    }

    /**
     * The Slurm red team's M1: under one Slurm user nothing of Slurm's keeps tenants apart, and the start-up
     * says so, naming that user, rather than present the allow-lists as enforced.
     */
    @ParameterizedTest
    @ValueSource(strings = {"token", "kubernetes"})
    @Tag("redteam")
    void withTenantsTheStartUpSaysAnyJobCanStopAnyOtherAndTheAllowListsAreAdvisory(String mode) {
        SlurmProperties rest = rest("paddle");

        assertThat(rest.sharedUserNotice(mode)).hasValueSatisfying(notice -> assertThat(notice)
                .contains("the one Slurm user paddle").contains("can cancel, hold or change any other tenant's Slurm jobs")
                .contains("advisory"));
        assertThat(rest.sharedUserNotice("none")).isEmpty();
    }

    /**
     * Red team, 7 Dec, U1 and P1: in token mode a service run as root with {@code client=cli}, or one with
     * {@code rest-user} root or {@code slurm} (the default, and Slurm's usual SlurmUser), submitted every
     * tenant's job as that user: a job ran {@code id -u} as 0 on the node, or read the cluster's JWT key.
     * It now refuses to start; an ordinary user is accepted, and mode none is the operator's own.
     */
    @ParameterizedTest
    @ValueSource(strings = {"token", "kubernetes"})
    @Tag("redteam")
    void withTenantsJobsAreNeverSubmittedAsRootOrAsSlurmsOwnUser(String mode) {
        for (String user : List.of("root", "slurm")) {
            assertThatThrownBy(() -> rest(user).requireUnprivilegedSubmitter(mode))
                    .hasMessageContaining("submitted as " + user).hasMessageContaining("paddlejobs.slurm.rest-user");
        }
        assertThatCode(() -> rest("paddle").requireUnprivilegedSubmitter(mode)).doesNotThrowAnyException();
        assertThatCode(() -> rest("root").requireUnprivilegedSubmitter("none")).doesNotThrowAnyException();

        SlurmProperties cli = properties(true);
        String serviceUser = System.getProperty("user.name");
        if (serviceUser.equals("root")) {
            assertThatThrownBy(() -> cli.requireUnprivilegedSubmitter(mode))
                    .hasMessageContaining("submitted as root").hasMessageContaining("client=cli");
        } else {
            assertThatCode(() -> cli.requireUnprivilegedSubmitter(mode)).doesNotThrowAnyException();
        }
    }

    /**
     * Red team, 7 Dec, P2: with {@code client=cli} every tenant's job runs as the service's own user, so one that lands
     * on the service's host, or plants files in a home the nodes mount, takes the service. Seen, it refuses to start,
     * saying how and what to do instead; unseen, with {@code client=rest}, or without tenants, it starts.
     */
    @ParameterizedTest
    @ValueSource(strings = {"token", "kubernetes"})
    @Tag("redteam")
    void withTenantsACliServiceThatJobsCanReachRefusesToStart(String mode) {
        SlurmProperties cli = properties(true);
        Optional<String> reach = Optional.of("this host is the cluster's node n1, so a job that lands on it can stop it");

        assertThatThrownBy(() -> cli.requireJobsApartFromTheService(mode, reach))
                .hasMessageContaining("paddlejobs.security.mode=" + mode).hasMessageContaining("client=cli")
                .hasMessageContaining("this host is the cluster's node n1").hasMessageContaining("paddlejobs.slurm.client=rest");
        assertThatCode(() -> cli.requireJobsApartFromTheService(mode, Optional.empty())).doesNotThrowAnyException();
        assertThatCode(() -> cli.requireJobsApartFromTheService("none", reach)).doesNotThrowAnyException();
        assertThatCode(() -> rest("paddle").requireJobsApartFromTheService(mode, reach)).doesNotThrowAnyException();
    }

    /**
     * Issue 48: where tenants share the Slurm backend (one Unix user on one directory), a request naming a secret is
     * refused by field, even one the store holds for the job's namespace, before anything is written; without
     * tenants the same plan fits.
     */
    @Test
    @Tag("redteam")
    void withTenantsASecretIsRefusedByNameEvenOneTheStoreHoldsAndNothingIsWritten(@TempDir Path tmp) throws IOException {
        Path file = Files.createDirectories(tmp.resolve("store/team-a/s3")).resolve("key");
        Files.writeString(file, "s3cret\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        SlurmProperties properties = Settings.of(SlurmProperties.class, "shared-dir", tmp.resolve("shared"))
                .withShared(Settings.of(BackendProperties.class, "allow-shared-files", true));
        JobRequest request = JobRequests.named("with-secret", "true").trainers(1).pservers(0)
                .envFromSecrets(Map.of("S3_KEY", new JobRequest.SecretKey("s3", "key"))).build();

        SlurmJobBackend shared = backend(properties, SecretStore.at(tmp.resolve("store")), true);
        JobPlan plan = new JobPlanner(Settings.planningPolicy()).plan(request, "team-a", shared.site());
        List<Path> before = filesUnder(tmp.resolve("shared"));
        assertThatThrownBy(() -> shared.requireFits(plan)).isInstanceOfSatisfying(InvalidJobRequestException.class,
                refused -> assertThat(refused.violations()).singleElement().satisfies(violation -> {
                    assertThat(violation.fields()).containsExactly("env_from_secrets");
                    assertThat(violation.message()).contains("one Unix user", "takes no secrets");
                }));
        assertThat(filesUnder(tmp.resolve("shared"))).as("nothing written").isEqualTo(before);

        assertThatCode(() -> backend(properties, SecretStore.at(tmp.resolve("store")), false).requireFits(plan))
                .doesNotThrowAnyException();
    }

    private static List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.sorted().toList();
        }
    }

    private static SlurmJobBackend backend(SlurmProperties properties, SecretStore secrets, boolean tenants) {
        JsonMapper json = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new PlanningJsonModule()).build();
        return new SlurmJobBackend(properties, SlurmClient.of(properties), new SlurmRecords(properties.directories(), json),
                Clock.systemUTC(), new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)), secrets, tenants);
    }

    private static SlurmProperties rest(String user) {
        return Settings.of(SlurmProperties.class, "shared-dir", "/shared", "client", "rest", "rest-user", user)
                .withShared(Settings.of(BackendProperties.class, "allow-shared-files", true));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void withoutTenantsThereIsNothingToAccept(boolean allowSharedFiles) {
        assertThatCode(() -> properties(allowSharedFiles).requireSharedFilesAccepted("none")).doesNotThrowAnyException();
    }

    private static SlurmProperties properties(boolean allowSharedFiles) {
        return Settings.of(SlurmProperties.class, "shared-dir", "/shared")
                .withShared(Settings.of(BackendProperties.class, "allow-shared-files", allowSharedFiles));
    }
}
