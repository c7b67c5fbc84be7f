package io.paddlejobs.api.stream;

import io.paddlejobs.api.InvalidParameterException;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.Role;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/** A replica's log, whole, its last lines, or followed as the replica writes it. */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class JobLogsController {

    private final JobService jobs;
    private final NamespaceAccess access;
    private final LogStreams logStreams;

    JobLogsController(JobService jobs, NamespaceAccess access, LogStreams logStreams) {
        this.jobs = jobs;
        this.access = access;
        this.logStreams = logStreams;
    }

    @Operation(summary = "One replica's log", description = "tail: last lines only; follow: stream until the replica "
            + "ends; attempt: an earlier attempt's log (from 0, as PADDLE_JOB_RESTART_COUNT counts; the current one by "
            + "default), where the backend keeps them (local, Slurm: whole; Kubernetes: their ends), and, once the "
            + "backend forgot the job, the end of it the history kept (paddlejobs.history.max-earlier-log-size)")
    @ApiResponse(responseCode = "200", description = "The log, as the replica wrote it",
            content = @Content(mediaType = MediaType.TEXT_PLAIN_VALUE, schema = @Schema(type = "string")))
    @GetMapping(path = "/{name}/logs", produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<ResponseBodyEmitter> logs(@PathVariable String name,
                                               @InNamespace(Action.READ) String namespace,
                                               @Parameter(schema = @Schema(type = "string", defaultValue = "trainer",
                                                       allowableValues = {"pserver", "trainer"}))
                                               // No defaultValue: Spring would give it for role= too, which the contract's pattern refuses.
                                               @RequestParam(required = false) @Pattern(regexp = "pserver|trainer") String role,
                                               @RequestParam(defaultValue = "0") @Min(0) int index,
                                               @RequestParam(required = false) @Min(0) Integer tail,
                                               @RequestParam(defaultValue = "false") boolean follow,
                                               @RequestParam(required = false) @Min(0) Integer attempt) {
        JobKey key = new JobKey(namespace, name);
        Role replicaRole = Role.fromLabel(role == null ? "trainer" : role);
        jobs.requireReplica(key, replicaRole, index);
        StreamingResponseBody body = isEarlier(key, replicaRole, index, attempt)
                ? out -> jobs.writeEarlierLog(key, replicaRole, index, attempt, tail, out)
                : out -> jobs.writeLogs(key, replicaRole, index, tail, follow, out);
        return logStreams.stream(access.userName(), body);
    }

    /**
     * Whether {@code attempt} names an earlier attempt than the job's current one (the one served by
     * default); refused, naming it, when it is past the current one, or when neither the backend (a live
     * job) nor the history (an archived one) kept that attempt's log.
     */
    private boolean isEarlier(JobKey key, Role role, int index, Integer attempt) {
        if (attempt == null) {
            return false;
        }
        Job job = jobs.get(key);
        int current = job.status().restarts();
        if (attempt > current) {
            throw new InvalidParameterException("attempt", "must be at most " + current
                    + ", the job's " + (job.status().phase().isFinished() ? "last" : "current")
                    + " attempt (attempts count from 0)", attempt.toString());
        }
        if (attempt == current) {
            return false;
        }
        boolean archived = job.status().archived();
        boolean kept = archived ? jobs.keptEarlierLog(key, role, index, attempt) : jobs.keepsEarlierAttemptLogs();
        if (!kept) {
            throw new InvalidParameterException("attempt", archived
                    ? "the history kept no log of attempt " + attempt + " of this replica (it keeps the ends of earlier"
                    + " attempts' logs where the backend kept them apart)"
                    : "only the current attempt's log is kept on this backend; it holds " + current
                    + " earlier attempt(s)' output before or beside it", attempt.toString());
        }
        return true;
    }
}
