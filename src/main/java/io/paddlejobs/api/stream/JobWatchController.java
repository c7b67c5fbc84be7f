package io.paddlejobs.api.stream;

import io.paddlejobs.api.InvalidParameterException;
import io.paddlejobs.api.LabelSelector;
import io.paddlejobs.api.ProblemAdvice;
import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.api.StatusUrls;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.paddlejobs.security.SecurityProperties;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /jobs?watch=true}: the namespace's job changes as Server-Sent Events (see
 * {@link NamespaceStream}), with the list's access rules and filters. Documented on the list
 * operation, which it shares a path with. Its parameters are checked by Spring MVC's own method
 * validation, as every controller's are (no {@code @Validated}: that is a second way, whose
 * violations would reach {@link ProblemAdvice} as an unexpected error).
 */
@Hidden
@RestController
@RequestMapping(path = "/jobs", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
class JobWatchController {

    private final NamespaceAccess access;
    private final JobFeed feed;
    private final SerializedJobs serialized;
    private final StatusUrls statusUrls;
    private final StreamSlots slots;

    JobWatchController(NamespaceAccess access, JobFeed feed, SerializedJobs serialized, StatusUrls statusUrls,
                       SecurityProperties security) {
        this.access = access;
        this.feed = feed;
        this.serialized = serialized;
        this.statusUrls = statusUrls;
        this.slots = new StreamSlots("watches", "poll the list instead", security.streams().maxPerUser(),
                security.streams().maxTotal());
    }

    @GetMapping(params = "watch=true")
    SseEmitter watch(@InNamespace(Action.LIST) String namespace,
                     @RequestParam(required = false) String phase,
                     @RequestParam(name = "label_selector", required = false) String labelSelector,
                     @RequestParam(name = "timeout_seconds", required = false) @Min(1) @Max(86_400) Integer timeoutSeconds,
                     // A page size means nothing to a stream, but the contract has one set of parameters for the
                     // list and its stream: a limit the list refuses is refused here too, not silently ignored.
                     @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit) {
        JobQuery query = new JobQuery(namespace,
                phase == null ? null : InvalidParameterException.parse("phase", phase, JobPhase::parse),
                InvalidParameterException.parse("label_selector", labelSelector, LabelSelector::parse), 1, null);
        String user = access.userName();
        Runnable release = slots.take(user);
        SseEmitter emitter = new SseEmitter(0L);
        NamespaceStream stream = new NamespaceStream(query, emitter, serialized, statusUrls.forLater(), timeoutSeconds,
                ended -> {
                    feed.unwatchNamespace(query.namespace(), ended);
                    release.run();
                });
        emitter.onCompletion(stream::stop);
        emitter.onError(error -> stream.stop());
        emitter.onTimeout(stream::stop);
        try {
            // Without a first write the response, and so the client's open, would wait for the first
            // change. Written here, on the request's thread, before any other thread may send (see StatusEvents).
            emitter.send(SseEmitter.event().comment("watching"));
        } catch (IOException e) {
            stream.stop(); // the client went already
            return emitter;
        }
        // The container calls back (stop) only once this method has returned: never before the watch.
        feed.watchNamespace(query.namespace(), stream, user);
        return emitter;
    }
}
