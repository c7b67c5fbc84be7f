package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.BatchJob;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.client.SlurmRest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The REST client agreeing on a data parser with the test cluster's real slurmrestd, of either generation. */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
class SlurmRestVersionsOnClusterTest {

    /** Each generation's newest data parser, and one it offers besides (22.05 has only one of ours). */
    private static final Map<String, List<String>> SPOKEN = Map.of(
            "22.05", List.of("v0.0.38", "v0.0.38"),
            "26.05", List.of("v0.0.45", "v0.0.42"));

    @Test
    void theNewestDataParserTheServerOffersIsSpoken() {
        assertThat(client("").version()).isEqualTo(SPOKEN.get(SlurmCluster.GENERATION).get(0));
    }

    @Test
    void aPinnedOlderDataParserSubmitsAndListsJobs(@TempDir Path dir) throws Exception {
        String older = SPOKEN.get(SlurmCluster.GENERATION).get(1);
        SlurmRest rest = client(older);
        Path work = Files.createDirectories(dir.resolve("work"));
        BatchJob job = new BatchJob("pinned-" + older, work, work.resolve("out"),
                List.of(new BatchJob.Component(1, 1, 256, 0), new BatchJob.Component(1, 1, 256, 0)), 1, 0, SlurmChoices.DEFAULTS, "exit 3\n");

        long id = rest.submit(job);

        assertThat(rest.version()).isEqualTo(older);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(rest.jobs())
                .filteredOn(j -> j.submittedId() == id).extracting(SlurmJobInfo::state, SlurmJobInfo::exitCode)
                .containsExactly(tuple("FAILED", 3), tuple("FAILED", 3)));
    }

    @Test
    void aPinTheServerDoesNotOfferIsAStartUpErrorNamingWhatItOffers() {
        String notOffered = SlurmCluster.GENERATION.equals("22.05") ? "v0.0.45" : "v0.0.38";

        assertThatThrownBy(() -> client(notOffered)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("paddlejobs.slurm.rest-version=" + notOffered + ", but slurmrestd at "
                        + SlurmCluster.current().restUrl())
                .hasMessageContaining(" offers " + SPOKEN.get(SlurmCluster.GENERATION).get(1));
    }

    private static SlurmRest client(String version) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "paddlejobs.slurm.rest-url", SlurmCluster.current().restUrl(),
                "paddlejobs.slurm.jwt-key", SlurmCluster.current().jwtKey(),
                "paddlejobs.slurm.rest-user", "root",
                "paddlejobs.slurm.rest-version", version));
        return SlurmRest.of(new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("paddlejobs.slurm", SlurmProperties.class));
    }
}
