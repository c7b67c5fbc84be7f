package io.paddlejobs.api.stream;

import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The status URL as a stream, for {@code Accept: text/event-stream} (the status page's
 * {@code EventSource}): see {@link StatusStream}. Access is checked, and the job looked up, before
 * the stream starts, so that a refusal is still a problem document; past the stream limits
 * ({@link EventStreams}) the page is refused and polls instead.
 */
@Hidden
@RestController
@RequestMapping(path = "/jobs", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
class StatusEventsController {


    private final JobService jobs;
    private final NamespaceAccess access;
    private final EventStreams streams;
    private final MetricsCollector metrics;
    private final SerializedJobs serialized;

    StatusEventsController(JobService jobs, NamespaceAccess access, EventStreams streams, MetricsCollector metrics,
                           SerializedJobs serialized) {
        this.jobs = jobs;
        this.access = access;
        this.streams = streams;
        this.metrics = metrics;
        this.serialized = serialized;
    }

    @GetMapping("/{name}/status")
    SseEmitter statusEvents(@PathVariable String name,
                            @InNamespace(Action.READ) String namespace) {
        JobKey key = new JobKey(namespace, name);
        Job job = jobs.get(key);
        return streams.open(access.userName(), "poll the status URL instead",
                emitter -> new StatusStream(job, emitter, metrics, serialized));
    }
}
