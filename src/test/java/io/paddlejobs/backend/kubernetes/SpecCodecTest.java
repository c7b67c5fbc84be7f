package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.planning.JobRequests;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecCodecTest {

    @Test
    void everyFieldSurvivesTheRoundTrip() {
        var full = JobRequests.named("full", "python a.py").pserverEntryPoint("python p.py")
                .spec("image=img:1 num_gpus=4 num_cpus=8 memory=16Gi trainers=4 trainer_cpu=2 trainer_gpu=1 trainer_mem=4G"
                        + " pservers=2 pserver_cpu=3 pserver_mem=512Mi port=9000 ports_num=2 ports_num_for_sparse=3"
                        + " use_gpu=true mode=collective max_run_time=90m max_restarts=3 restart_on=infrastructure,137,stall"
                        + " stall_timeout=30m")
                .env(Map.of("A", "1", "B", "$x")).labels(Map.of("team", "nlp")).build();
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
