package io.paddlejobs.backend.slurm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SlurmRestVersionsTest {

    private static final String SERVER = "slurmrestd at http://127.0.0.1:6820 (Slurm 26.05.5)";

    /** The paths and info of Slurm 26.05's GET /openapi/v3, shortened (its order, not sorted). */
    private static final JsonNode SLURM_26_05 = JsonMapper.builder().build().readTree("""
            {"info": {"x-slurm": {"release": "26.05.5"}, "version": "Slurm-26.05.5"},
             "paths": {"/slurm/v0.0.43/job/submit": {}, "/slurm/v0.0.42/job/submit": {}, "/slurm/v0.0.45/job/submit": {},
                       "/slurm/v0.0.44/job/submit": {}, "/slurm/v0.0.45/jobs/": {}, "/slurm/v0.0.45/diag/": {}}}
            """);

    @Test
    void theServersVersionsAreTheOnesItCanSubmitThroughOldestFirst() {
        assertThat(SlurmRestVersions.offered(SLURM_26_05)).containsExactly("v0.0.42", "v0.0.43", "v0.0.44", "v0.0.45");
        assertThat(SlurmRestVersions.release(SLURM_26_05)).isEqualTo("Slurm 26.05.5");
    }

    @Test
    void withoutAPinTheNewestBothSidesKnowIsSpoken() {
        assertThat(SlurmRestVersions.choose(List.of("v0.0.42", "v0.0.45"), "", SERVER)).isEqualTo("v0.0.45");
        assertThat(SlurmRestVersions.choose(List.of("v0.0.37", "v0.0.38"), "", SERVER)).isEqualTo("v0.0.38");
        assertThat(SlurmRestVersions.choose(List.of("v0.0.44", "v0.0.45", "v0.0.46"), "", SERVER))
                .as("a parser newer than ours is skipped, not guessed at").isEqualTo("v0.0.45");
    }

    @Test
    void aPinnedVersionIsSpokenWhenTheServerOffersIt() {
        assertThat(SlurmRestVersions.choose(List.of("v0.0.42", "v0.0.45"), "v0.0.42", SERVER)).isEqualTo("v0.0.42");
    }

    @Test
    void aServerWithNoneOfOursIsRefusedNamingWhatItOffersAndWhatWeSpeak() {
        assertThatThrownBy(() -> SlurmRestVersions.choose(List.of("v0.0.39", "v0.0.46"), "", SERVER))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(SERVER + " offers v0.0.39, v0.0.46")
                .hasMessageContaining("this service speaks v0.0.38, v0.0.40, v0.0.41, v0.0.42, v0.0.43, v0.0.44, v0.0.45");
    }

    @Test
    void aPinTheServerDoesNotOfferIsRefusedNamingWhatItOffers() {
        assertThatThrownBy(() -> SlurmRestVersions.choose(List.of("v0.0.42", "v0.0.45"), "v0.0.38", SERVER))
                .hasMessage("paddlejobs.slurm.rest-version=v0.0.38, but " + SERVER + " offers v0.0.42, v0.0.45");
    }

    @Test
    void aPinWeDoNotSpeakIsRefusedBeforeTheServerIsAsked() {
        assertThatThrownBy(() -> SlurmRestVersions.requireSpoken("v0.0.39"))
                .hasMessageStartingWith("paddlejobs.slurm.rest-version=v0.0.39 is not one this service speaks (v0.0.38, ");
    }
}
