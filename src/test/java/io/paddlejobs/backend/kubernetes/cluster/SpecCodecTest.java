package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.backend.kubernetes.Plans;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.CommittedFiles;
import io.paddlejobs.testing.RequestContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class SpecCodecTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The spec of a request that gives every field, as this service writes it onto clusters. Jobs
     * already there are read back from this text, so a change to it must be meant: then rewrite the
     * file with {@code -Dspec.update=true}.
     */
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "paddlejobs", "backend",
            "kubernetes", "full-spec.json");

    @Test
    void aFullRequestIsWrittenAsTheGoldenFile() throws IOException {
        String written = SpecCodec.write(JobRequests.full());
        CommittedFiles.assertCurrent(GOLDEN, written + "\n", "SpecCodec for JobRequests.full()", SpecCodecTest.class,
                "spec.update");
    }

    @Test
    void theGoldenFileReadsBackAsTheFullRequest() throws IOException {
        assertThat(SpecCodec.read(Files.readString(GOLDEN))).isEqualTo(JobRequests.full());
    }

    @Test
    void theSpecNamesEveryFieldOfTheContractsRequest() {
        assertThat(RequestContract.unset(JobRequests.full())).as("fields JobRequests.full() leaves unset").isEmpty();
        var written = JSON.readTree(SpecCodec.write(JobRequests.full())).propertyNames();
        assertThat(written).as("the spec's fields").containsExactlyInAnyOrderElementsOf(RequestContract.fields());
    }

    @Test
    void everyFieldSurvivesTheRoundTrip() {
        var full = JobRequests.full();
        assertThat(SpecCodec.read(SpecCodec.write(full))).isEqualTo(full);
        assertThat(SpecCodec.write(full)).contains("\"max_run_time\":\"5400s\"")
                .contains("\"restart_on\":[\"infrastructure\",\"stall\",137]");
    }

    @Test
    void restartOnAsOneWordSurvivesTheRoundTrip() {
        var word = JobRequests.named("word", "true").spec("max_restarts=1 restart_on=any").build();
        assertThat(SpecCodec.write(word)).contains("\"restart_on\":\"any\"");
        assertThat(SpecCodec.read(SpecCodec.write(word))).isEqualTo(word);
    }

    @Test
    void fieldsNotGivenStayNotGiven() {
        var sparse = Plans.request("sparse", 1);
        assertThat(SpecCodec.write(sparse)).doesNotContain("trainers").contains("\"entry_point\"");
        assertThat(SpecCodec.read(SpecCodec.write(sparse))).isEqualTo(sparse);
    }

    @Test
    void textThatIsNoSpecIsRejected() {
        assertThatThrownBy(() -> SpecCodec.read("[1]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SpecCodec.read("{oops")).isInstanceOf(IllegalArgumentException.class);
    }
}
