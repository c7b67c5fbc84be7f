package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.PlanRecovery;
import io.paddlejobs.backend.kubernetes.cluster.Slim;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.bench.Figures;
import io.paddlejobs.bench.HeapHistogram;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the informer stores hold per job (a trainer Job and a pserver Job, two pods each, as the API server sends
 * them once they finished: cached-job.json), slimmed, beside the same objects as a plain fabric8 informer keeps
 * them, in one run, and the plan a replica recovers for each job: this JVM's live heap by class histograms after full collections, over
 * {@code -Dbench.jobs=} jobs (4,000 by default). Run with
 * {@code ./mvnw -B test -Dtest=SlimHeapBenchmark -DexcludedGroups=none}.
 */
@Tag("benchmark")
class SlimHeapBenchmark {

    static final int JOBS = Integer.getInteger("bench.jobs", 4000);
    private static final int HOLDERS = 12;

    @Test
    void measure() throws Exception {
        Map<String, String> json = sample();
        Figures figures = new Figures("Informer stores, heap per job (" + JOBS + " jobs: 2 Jobs, 4 pods each)");
        double full = perJob(figures, "as fabric8's own store keeps them", json, UnaryOperator.identity(), UnaryOperator.identity());
        double slim = perJob(figures, "slimmed (Slim)", json, Slim::job, Slim::pod);
        double plans = plansPerJob(figures);
        figures.ratio("slimmed / as fabric8 keeps them", slim / full, "");
        figures.value("a replica's caches: slimmed objects and plan, per job", slim + plans, "KiB", "<= 16");
        figures.print();
        assertThat(slim).isLessThan(full);
    }

    private static double perJob(Figures figures, String what, Map<String, String> json, UnaryOperator<Job> jobs,
                                 UnaryOperator<Pod> pods) throws Exception {
        List<HasMetadata> held = new ArrayList<>();
        double perJob = measured(figures, what, () -> {
            for (int i = 0; i < JOBS; i++) {
                for (String role : List.of("trainer", "pserver")) {
                    String uid = UUID.randomUUID().toString();
                    held.add(jobs.apply(Serialization.unmarshal(fill(json.get("trainerJob"), i, role, uid, 0), Job.class)));
                    for (int index = 0; index < 2; index++) {
                        held.add(pods.apply(Serialization.unmarshal(fill(json.get("trainerPod"), i, role, uid, index), Pod.class)));
                    }
                }
            }
        });
        assertThat(held).hasSize(JOBS * 6);
        return perJob;
    }

    /** The plan a replica recovers and keeps for each job (PlanRecovery), from its slimmed trainer Job. */
    private static double plansPerJob(Figures figures) throws Exception {
        KubernetesProperties settings = Settings.defaults(KubernetesProperties.class);
        List<Job> trainerJobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            trainerJobs.add(Slim.job(Manifests.desired(Plans.plan(Plans.request("job-" + i, 2), "team-a"), settings).trainerJob()));
        }
        PlanRecovery recovery = new PlanRecovery(Plans.PLANNER);
        double perJob = measured(figures, "plans kept (PlanRecovery)", () -> trainerJobs.forEach(recovery::planOf));
        assertThat(recovery.planOf(trainerJobs.get(0)).replicas()).hasSize(4);
        return perJob;
    }

    /** The live heap {@code keep} adds, in KiB per job, with the classes that hold it. */
    private static double measured(Figures figures, String what, Runnable keep) throws Exception {
        long pid = ProcessHandle.current().pid();
        HeapHistogram before = HeapHistogram.of(pid);
        keep.run();
        HeapHistogram after = HeapHistogram.of(pid);
        double perJob = (after.totalBytes() - before.totalBytes()) / (double) JOBS / 1024;
        figures.value(what + ", per job", perJob, "KiB", "");
        figures.heldBy(before, after, HOLDERS, JOBS, "job");
        return perJob;
    }

    /** One job's objects as text: its own name and uids, the role's. */
    private static String fill(String template, int job, String role, String jobUid, int index) {
        return template.replace("NAME", "job-" + job).replace("trainer", role).replace("JOB_UID", jobUid)
                .replace("POD_UID", UUID.randomUUID().toString()).replace("INDEX", Integer.toString(index));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> sample() throws IOException {
        try (InputStream in = SlimHeapBenchmark.class.getResourceAsStream("cached-job.json")) {
            Map<String, Object> objects = Serialization.unmarshal(new String(in.readAllBytes(), StandardCharsets.UTF_8), Map.class);
            return Map.of("trainerJob", Serialization.asJson(objects.get("trainerJob")),
                    "trainerPod", Serialization.asJson(objects.get("trainerPod")));
        }
    }
}
