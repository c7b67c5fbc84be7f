package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of each object that statuses, plan recovery and the reconciler read; the rest (pod
 * templates with their environments, managed fields) is dropped before an object enters an
 * informer store. A full trainer Job, pserver Job and two pods hold some 90 KiB of heap per
 * job; what is kept here is a small fraction of that, which is what lets one replica of this
 * service watch tens of thousands of jobs.
 */
final class Slim {

    private Slim() {
    }

    static Job job(Job job) {
        var spec = job.getSpec();
        var builder = new JobBuilder().withApiVersion(job.getApiVersion()).withKind(job.getKind())
                .withMetadata(metadata(job.getMetadata())).withStatus(job.getStatus());
        if (spec != null) {
            PodSpec template = spec.getTemplate() == null ? null : spec.getTemplate().getSpec();
            builder.withNewSpec()
                    .withSuspend(spec.getSuspend())
                    .withCompletions(spec.getCompletions())
                    .withActiveDeadlineSeconds(spec.getActiveDeadlineSeconds())
                    .withNewTemplate().withSpec(containersOnly(template)).endTemplate()
                    .endSpec();
        }
        return builder.build();
    }

    static Pod pod(Pod pod) {
        var status = pod.getStatus();
        if (status != null) {
            status = new PodStatusBuilder()
                    .withPhase(status.getPhase())
                    .withReason(status.getReason())
                    .withMessage(status.getMessage())
                    .withConditions(status.getConditions() == null ? List.of() : status.getConditions().stream()
                            .filter(c -> "PodScheduled".equals(c.getType()) || "Ready".equals(c.getType())).toList())
                    .withContainerStatuses(containerStatuses(status.getContainerStatuses()))
                    .withInitContainerStatuses(containerStatuses(status.getInitContainerStatuses()))
                    .build();
        }
        return new PodBuilder().withApiVersion(pod.getApiVersion()).withKind(pod.getKind())
                .withMetadata(metadata(pod.getMetadata())).withSpec(containersOnly(pod.getSpec()))
                .withStatus(status).build();
    }

    /** What a container's state says: no image ids, container ids or resources. */
    private static List<ContainerStatus> containerStatuses(List<ContainerStatus> statuses) {
        return statuses == null ? List.of() : statuses.stream()
                .map(s -> new ContainerStatusBuilder().withName(s.getName()).withImage(s.getImage())
                        .withRestartCount(s.getRestartCount())
                        .withState(s.getState()).withLastState(s.getLastState()).build())
                .toList();
    }

    /**
     * Identity, labels, annotations and times: no managed fields, owners or finalizers. Label and
     * annotation names are the same few on every object, so they are interned rather than held
     * once per object.
     */
    static ObjectMeta metadata(ObjectMeta meta) {
        return new ObjectMetaBuilder()
                .withName(meta.getName())
                .withNamespace(meta.getNamespace())
                .withUid(meta.getUid())
                .withResourceVersion(meta.getResourceVersion())
                .withCreationTimestamp(meta.getCreationTimestamp())
                .withDeletionTimestamp(meta.getDeletionTimestamp())
                .withLabels(interned(meta.getLabels()))
                .withAnnotations(interned(meta.getAnnotations()))
                .build();
    }

    private static Map<String, String> interned(Map<String, String> entries) {
        if (entries == null) {
            return null;
        }
        Map<String, String> copy = new LinkedHashMap<>();
        entries.forEach((name, value) -> copy.put(name.intern(), value.length() <= 16 ? value.intern() : value));
        return copy;
    }

    /**
     * The containers' names and images (an image-pull message names the image), and who schedules the pod (a
     * Volcano gang's jobs act differently).
     */
    private static PodSpec containersOnly(PodSpec spec) {
        List<Container> containers = spec == null ? List.of() : spec.getContainers().stream()
                .map(c -> new ContainerBuilder().withName(c.getName()).withImage(c.getImage()).build()).toList();
        return new PodSpecBuilder().withContainers(containers).withSchedulerName(spec == null ? null : spec.getSchedulerName())
                .build();
    }
}
