package io.paddlejobs.api.stream;

import io.paddlejobs.api.ListFilters;
import io.paddlejobs.api.ProblemAdvice;
import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.api.StatusUrls;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.job.JobService;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Set;
import java.util.stream.Collectors;
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
    private final EventStreams streams;
    private final SerializedJobs serialized;
    private final StatusUrls statusUrls;
    private final JobService jobs;

    JobWatchController(NamespaceAccess access, EventStreams streams, SerializedJobs serialized, StatusUrls statusUrls,
                       JobService jobs) {
        this.access = access;
        this.jobs = jobs;
        this.streams = streams;
        this.serialized = serialized;
        this.statusUrls = statusUrls;
    }

    @GetMapping(params = "watch=true")
    SseEmitter watch(@InNamespace(Action.LIST) String namespace,
                     @RequestParam(required = false) String phase,
                     @RequestParam(name = "label_selector", required = false) String labelSelector,
                     @RequestParam(name = "created_since", required = false) String createdSince,
                     @RequestParam(name = "created_before", required = false) String createdBefore,
                     @RequestParam(name = "timeout_seconds", required = false) @Min(1) @Max(86_400) Integer timeoutSeconds,
                     // A page size means nothing to a stream, but the contract has one set of parameters for the
                     // list and its stream: a limit the list refuses is refused here too, not silently ignored.
                     @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit) {
        JobQuery query = ListFilters.parse(phase, labelSelector, createdSince, createdBefore).query(namespace, 1, null);
        // Taken before the response starts: a client that lists once its watch is open misses no job stopping to match.
        Set<String> matchingNow = jobs.live(namespace).stream().filter(query::matches).map(job -> job.key().name())
                .collect(Collectors.toSet());
        return streams.open(access.userName(), "poll the list instead",
                emitter -> new NamespaceStream(query, matchingNow, emitter, serialized, statusUrls.forLater(), timeoutSeconds));
    }
}
