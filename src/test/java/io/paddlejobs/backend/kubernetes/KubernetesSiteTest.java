package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Role;
import org.junit.jupiter.api.Test;

class KubernetesSiteTest {

    private final KubernetesSite site = new KubernetesSite();

    @Test
    void pserverHostIsTheStatefulSetPodUnderTheJobsService() {
        assertThat(site.host("ml", "mnist", Role.PSERVER, 2)).isEqualTo("mnist-pserver-2.mnist");
    }

    @Test
    void trainerHostIsTheIndexedJobPodUnderTheJobsService() {
        assertThat(site.host("ml", "mnist", Role.TRAINER, 0)).isEqualTo("mnist-trainer-0.mnist");
    }

    @Test
    void dataIsMountedAtSlashData() {
        assertThat(site.dataPath("ml", "mnist")).isEqualTo("/data");
    }

    @Test
    void plannedListsUseTheSiteHosts() {
        var env = Plans.plan("mnist", 2).replicasOf(Role.TRAINER).get(1).env();
        assertThat(env.get(PaddleEnv.PSERVERS)).isEqualTo("mnist-pserver-0.mnist,mnist-pserver-1.mnist");
        assertThat(env.get(PaddleEnv.POD_IP)).isEqualTo("mnist-trainer-1.mnist");
        assertThat(env.get(PaddleEnv.JOB_DATA)).isEqualTo("/data");
    }
}
