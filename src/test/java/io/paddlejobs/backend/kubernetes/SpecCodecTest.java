package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Memory;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecCodecTest {

    @Test
    void everyFieldSurvivesTheRoundTrip() {
        var full = new JobRequest("full", "python a.py", "python p.py", "img:1", 4, 8, Memory.parse("16Gi"), 4, 2, 1,
                Memory.parse("4G"), 2, 3, Memory.parse("512Mi"), 9000, 2, 3, true, Map.of("A", "1", "B", "$x"),
                Map.of("team", "nlp"), JobMode.COLLECTIVE, java.time.Duration.ofMinutes(90), null);
        assertThat(SpecCodec.read(SpecCodec.write(full))).isEqualTo(full);
        assertThat(SpecCodec.write(full)).contains("\"max_run_time\":\"5400s\"");
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
