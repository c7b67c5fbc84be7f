package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.step.SharedEmpties;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parts of each object that statuses, plan recovery and the reconciler read; the rest (pod
 * templates with their environments, managed fields, the Job controller's labels, container ids) is
 * dropped before an object enters an informer store, the words many objects repeat are held once and
 * empty lists and maps are shared ({@link SharedEmpties}). A finished job's two Jobs and four pods
 * hold some 50 KiB of heap as fabric8 reads them and 12 KiB slimmed (SlimHeapBenchmark), which is what
 * lets one replica of this service watch tens of thousands of jobs.
 */
public final class Slim {

    /**
     * What the Job controller labels each pod with (its Job's name and uid, twice, and the index): read from our own
     * labels and the index annotation instead, they are some 400 bytes of every cached pod.
     */
    private static final Set<String> JOB_CONTROLLER_LABELS = Set.of("job-name", "controller-uid",
            "batch.kubernetes.io/job-name", "batch.kubernetes.io/controller-uid", JobLabels.COMPLETION_INDEX_ANNOTATION);

    private Slim() {
    }

    public static Job job(Job job) {
        var spec = job.getSpec();
        var builder = new JobBuilder().withApiVersion(shared(job.getApiVersion())).withKind(shared(job.getKind()))
                .withMetadata(metadata(job.getMetadata())).withStatus(sharedWords(job.getStatus()));
        if (spec != null) {
            PodSpec template = spec.getTemplate() == null ? null : spec.getTemplate().getSpec();
            builder.withNewSpec()
                    .withSuspend(spec.getSuspend())
                    .withCompletions(spec.getCompletions())
                    .withActiveDeadlineSeconds(spec.getActiveDeadlineSeconds())
                    .withNewTemplate().withSpec(containersOnly(template)).endTemplate()
                    .endSpec();
        }
        return SharedEmpties.in(builder.build());
    }

    public static Pod pod(Pod pod) {
        var status = pod.getStatus();
        if (status != null) {
            status = new PodStatusBuilder()
                    .withPhase(shared(status.getPhase()))
                    .withReason(shared(status.getReason()))
                    .withMessage(status.getMessage())
                    .withConditions(status.getConditions() == null ? List.of() : status.getConditions().stream()
                            .filter(c -> "PodScheduled".equals(c.getType()) || "Ready".equals(c.getType()))
                            .map(c -> new PodConditionBuilder().withType(shared(c.getType())).withStatus(shared(c.getStatus()))
                                    .withReason(shared(c.getReason())).withMessage(c.getMessage())
                                    .withLastTransitionTime(c.getLastTransitionTime()).build())
                            .toList())
                    .withContainerStatuses(containerStatuses(status.getContainerStatuses()))
                    .withInitContainerStatuses(containerStatuses(status.getInitContainerStatuses()))
                    .build();
        }
        return SharedEmpties.in(new PodBuilder().withApiVersion(shared(pod.getApiVersion())).withKind(shared(pod.getKind()))
                .withMetadata(metadata(pod.getMetadata(), JOB_CONTROLLER_LABELS)).withSpec(containersOnly(pod.getSpec()))
                .withStatus(status).build());
    }

    /**
     * The Job's status as it came, its conditions' words shared: the Job controller writes the same few types, reasons
     * and messages on every Job.
     */
    private static JobStatus sharedWords(JobStatus status) {
        if (status != null && status.getConditions() != null) {
            for (JobCondition condition : status.getConditions()) {
                condition.setType(shared(condition.getType()));
                condition.setStatus(shared(condition.getStatus()));
                condition.setReason(shared(condition.getReason()));
                condition.setMessage(shared(condition.getMessage()));
            }
        }
        return status;
    }

    /** What a container's state says: no image ids, container ids or resources. */
    private static List<ContainerStatus> containerStatuses(List<ContainerStatus> statuses) {
        return statuses == null ? List.of() : statuses.stream()
                .map(s -> new ContainerStatusBuilder().withName(shared(s.getName())).withImage(shared(s.getImage()))
                        .withRestartCount(s.getRestartCount())
                        .withState(state(s.getState())).withLastState(state(s.getLastState())).build())
                .toList();
    }

    /** A container's state without its container id (some 80 characters on a real node). */
    private static ContainerState state(ContainerState state) {
        if (state == null) {
            return null;
        }
        var slim = new ContainerStateBuilder();
        if (state.getWaiting() != null) {
            slim.withNewWaiting().withReason(shared(state.getWaiting().getReason()))
                    .withMessage(state.getWaiting().getMessage()).endWaiting();
        }
        if (state.getRunning() != null) {
            slim.withNewRunning().withStartedAt(state.getRunning().getStartedAt()).endRunning();
        }
        ContainerStateTerminated ended = state.getTerminated();
        if (ended != null) {
            slim.withNewTerminated().withExitCode(ended.getExitCode()).withSignal(ended.getSignal())
                    .withReason(shared(ended.getReason())).withMessage(ended.getMessage())
                    .withStartedAt(ended.getStartedAt()).withFinishedAt(ended.getFinishedAt()).endTerminated();
        }
        return slim.build();
    }

    /**
     * One copy of a value that is the same on many objects (a phase, a condition's type and status, a reason, an
     * image): the JSON reader makes a new string of each, on every object.
     */
    private static String shared(String value) {
        return value == null ? null : value.intern();
    }

    /**
     * Identity, labels, annotations and times: no managed fields, owners or finalizers. Label and
     * annotation names are the same few on every object, so they are interned rather than held
     * once per object.
     */
    static ObjectMeta metadata(ObjectMeta meta) {
        return metadata(meta, Set.of());
    }

    private static ObjectMeta metadata(ObjectMeta meta, Set<String> droppedLabels) {
        return new ObjectMetaBuilder()
                .withName(meta.getName())
                .withNamespace(meta.getNamespace())
                .withUid(meta.getUid())
                .withResourceVersion(meta.getResourceVersion())
                .withCreationTimestamp(meta.getCreationTimestamp())
                .withDeletionTimestamp(meta.getDeletionTimestamp())
                .withLabels(interned(meta.getLabels(), droppedLabels))
                // The earlier attempts' log ends are up to 128 KiB of a restarted job's trainer Job, read only on request.
                .withAnnotations(interned(meta.getAnnotations(), Set.of(JobLabels.EARLIER_LOGS_ANNOTATION)))
                .build();
    }

    private static Map<String, String> interned(Map<String, String> entries, Set<String> dropped) {
        if (entries == null) {
            return null;
        }
        Map<String, String> copy = new LinkedHashMap<>();
        entries.forEach((name, value) -> {
            if (!dropped.contains(name)) {
                copy.put(name.intern(), value.length() <= 16 ? value.intern() : value);
            }
        });
        return copy;
    }

    /**
     * The containers' names and images (an image-pull message names the image), and who schedules the pod (a
     * Volcano gang's jobs act differently).
     */
    private static PodSpec containersOnly(PodSpec spec) {
        List<Container> containers = spec == null ? List.of() : spec.getContainers().stream()
                .map(c -> new ContainerBuilder().withName(shared(c.getName())).withImage(shared(c.getImage())).build()).toList();
        return new PodSpecBuilder().withContainers(containers)
                .withSchedulerName(spec == null ? null : shared(spec.getSchedulerName())).build();
    }
}
