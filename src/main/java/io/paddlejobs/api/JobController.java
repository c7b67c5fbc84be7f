package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPage;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Role;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.AuditLog;
import io.paddlejobs.security.NamespaceAccess;
import io.paddlejobs.security.SubmissionLimits;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * The jobs API: submit, look, list, follow logs, cancel, delete. Every endpoint first resolves
 * the namespace it acts in through {@link NamespaceAccess} (the caller's default, or the one
 * named that the caller may use); submits, cancels and deletes are written to the audit log.
 */
@Tag(name = "jobs")
@Validated
@SecurityScheme(name = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "With paddlejobs.security.mode=token: a token from the operator's token file; "
                + "with paddlejobs.security.mode=kubernetes: a token the cluster accepts (a service account's, an OIDC one)")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class JobController {

    private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

    private final JobService jobs;
    private final StatusUrls statusUrls;
    private final NamespaceAccess access;
    private final SubmissionLimits limits;
    private final AuditLog audit;
    private final LogStreams logStreams;
    private final MetricsCollector metrics;
    private final SerializedJobs serialized;

    JobController(JobService jobs, StatusUrls statusUrls, NamespaceAccess access, SubmissionLimits limits,
                  AuditLog audit, LogStreams logStreams, MetricsCollector metrics, SerializedJobs serialized) {
        this.serialized = serialized;
        this.logStreams = logStreams;
        this.jobs = jobs;
        this.statusUrls = statusUrls;
        this.access = access;
        this.limits = limits;
        this.audit = audit;
        this.metrics = metrics;
    }

    @Operation(summary = "Submit a job", description = """
            Plans the job and starts it. 201 with Location and status_url; 200 with the existing job when the \
            same name is resubmitted with an identical spec; 409 when the name is taken by a different spec. \
            With dry_run=true, 200 with the plan (and the objects that would be created) and nothing started.""")
    @ApiResponse(responseCode = "201", description = "Created; started, or queued as Pending",
            headers = @Header(name = HttpHeaders.LOCATION, description = "The job",
                    schema = @Schema(type = "string", format = "uri-reference")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = JobView.class)))
    @ApiResponse(responseCode = "200", description = "With dry_run: the plan (kind DryRun). Else: the existing job with "
            + "this identical spec (kind Job)",
            headers = @Header(name = HttpHeaders.WARNING, description = "One per warning: 299 - \"text\"",
                    schema = @Schema(type = "string")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(ref = "#/components/schemas/" + ContractSchemas.SUBMIT_RESULT)))
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> submit(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
                                     mediaType = MediaType.APPLICATION_JSON_VALUE,
                                     schema = @Schema(implementation = JobRequestBody.class),
                                     examples = {
                                         @ExampleObject(name = "beginner", summary = "An entry point and a few numbers",
                                                 value = RequestExamples.BEGINNER),
                                         @ExampleObject(name = "advanced", summary = "Every number given",
                                                 value = RequestExamples.ADVANCED),
                                         @ExampleObject(name = "collective", summary = "Trainers only (Paddle 3)",
                                                 value = RequestExamples.COLLECTIVE)}))
                             @Valid @RequestBody JobRequestBody body,
                             @Parameter(description = "Plan only; start nothing")
                             @RequestParam(name = "dry_run", defaultValue = "false") boolean dryRun,
                             @RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace) {
        if (dryRun) {
            String ns = access.resolve(namespace, Action.SUBMIT);
            var plan = limits.dryRun(access.tenant().orElseThrow(), () -> jobs.dryRun(body.toRequest(), ns));
            return ResponseEntity.ok().headers(warnings(plan.plan().warnings())).body(DryRunView.of(plan));
        }
        JobRequest request = jobs.named(body.toRequest());
        return audit.record(Action.SUBMIT, namespace, request.name(), () -> {
            String ns = access.resolve(namespace, Action.SUBMIT);
            var tenant = access.tenant().orElseThrow();
            var retry = jobs.retryOf(request, ns);
            if (retry.isPresent()) {
                return submitted(retry.get());
            }
            return submitted(limits.submit(tenant, ns, () -> jobs.gpusAskedFor(request, ns),
                    () -> jobs.submit(request, ns), JobService.Submission::created));
        }, response -> response.getStatusCode().value() == 201 ? "created" : "existing");
    }

    private ResponseEntity<JobView> submitted(JobService.Submission submission) {
        JobView view = JobView.of(submission.job(), statusUrls);
        if (!submission.created() && submission.job().status().phase().isFinished()) {
            view = FinishedResubmit.warn(view, submission.job());
        }
        HttpHeaders headers = warnings(view.warnings());
        if (!submission.created()) {
            return ResponseEntity.ok().headers(headers).body(view);
        }
        metrics.watch(submission.job()); // from its first line: a capped log may lose the oldest
        URI location = URI.create(view.statusUrl().replace("/status?", "?"));
        return ResponseEntity.created(location).headers(headers).body(view);
    }

    @Operation(summary = "List jobs, newest first", description = """
            With watch=true (and Accept: text/event-stream), a stream of Server-Sent Events instead: a job event \
            (this list's item) at every change of a job the filters match, deleted ({"name", "namespace"}) when one \
            went or stopped matching, end when timeout_seconds (optional) have passed; the same access rules.""")
    @Parameter(name = "watch", in = io.swagger.v3.oas.annotations.enums.ParameterIn.QUERY,
            description = "Stream changes (text/event-stream) instead of listing", schema = @Schema(type = "boolean"))
    @Parameter(name = "timeout_seconds", in = io.swagger.v3.oas.annotations.enums.ParameterIn.QUERY,
            description = "With watch=true: end the stream after this many seconds (1..86400)",
            schema = @Schema(type = "integer", minimum = "1", maximum = "86400"))
    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    JobListView list(@RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace,
                     @Parameter(description = "Only jobs in this phase", schema = @Schema(type = "string",
                             allowableValues = {"Pending", "Running", "Succeeded", "Failed", "Cancelled"}))
                     @RequestParam(required = false) String phase,
                     @Parameter(description = "Only jobs with these labels: key=value[,key=value]")
                     @RequestParam(name = "label_selector", required = false) String labelSelector,
                     @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit,
                     @RequestParam(name = "continue", required = false) String continueToken) {
        JobQuery query = new JobQuery(access.resolve(namespace, Action.LIST),
                phase == null ? null : InvalidParameterException.parse("phase", phase, JobPhase::parse),
                InvalidParameterException.parse("label_selector", labelSelector, LabelSelector::parse), limit,
                continueToken);
        JobPage page = jobs.list(query);
        return new JobListView(page.items().stream().map(job -> JobSummary.of(job, statusUrls)).toList(),
                page.continueToken());
    }

    @Operation(summary = "A job: its resolved spec, plan and status")
    @GetMapping(path = "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
    JobView get(@PathVariable String name, @RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace) {
        return JobView.of(jobs.get(key(name, namespace, Action.READ)), statusUrls);
    }

    @Operation(summary = "A job's status (the status URL)", description = """
            With Accept: text/event-stream, a stream of Server-Sent Events instead: status at once and at every \
            change, metrics with the points added since the last one, then end (or gone when it was deleted).""")
    @ApiResponse(responseCode = "200", description = "OK", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
            schema = @Schema(implementation = JobStatus.class)))
    @GetMapping(path = "/{name}/status", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> status(@PathVariable String name,
                                  @RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace) {
        // Written once per change of the status, however many pages read it (SerializedJobs).
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(serialized.status(jobs.get(key(name, namespace, Action.READ))));
    }

    @Operation(summary = "One replica's log", description = "tail: last lines only; follow: stream until the replica ends")
    @ApiResponse(responseCode = "200", description = "The log, as the replica wrote it",
            content = @Content(mediaType = MediaType.TEXT_PLAIN_VALUE, schema = @Schema(type = "string")))
    @GetMapping(path = "/{name}/logs", produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<ResponseBodyEmitter> logs(@PathVariable String name,
                                               @RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace,
                                               @Parameter(schema = @Schema(type = "string", defaultValue = "trainer",
                                                       allowableValues = {"pserver", "trainer"}))
                                               @RequestParam(defaultValue = "trainer") @Pattern(regexp = "pserver|trainer") String role,
                                               @RequestParam(defaultValue = "0") @Min(0) int index,
                                               @RequestParam(required = false) @Min(0) Integer tail,
                                               @RequestParam(defaultValue = "false") boolean follow) {
        JobKey key = key(name, namespace, Action.READ);
        Role replicaRole = Role.fromLabel(role);
        jobs.requireReplica(key, replicaRole, index);
        StreamingResponseBody body = out -> jobs.writeLogs(key, replicaRole, index, tail, follow, out);
        return logStreams.stream(access.userName(), body);
    }

    @Operation(summary = "Cancel a job: stop every replica, keep the record as Cancelled")
    @PostMapping(path = "/{name}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    JobView cancel(@PathVariable String name, @RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace) {
        return audit.record(Action.CANCEL, namespace, name,
                () -> JobView.of(jobs.cancel(key(name, namespace, Action.CANCEL)), statusUrls), view -> "cancelled");
    }

    @Operation(summary = "Delete a job and everything it created")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @DeleteMapping("/{name}")
    ResponseEntity<Void> delete(@PathVariable String name,
                                @RequestParam(required = false) @Pattern(regexp = DNS_LABEL) String namespace) {
        return audit.record(Action.DELETE, namespace, name, () -> {
            jobs.delete(key(name, namespace, Action.DELETE));
            return ResponseEntity.noContent().<Void>build();
        }, response -> "deleted");
    }

    private JobKey key(String name, String namespace, Action action) {
        return new JobKey(access.resolve(namespace, action), name);
    }

    /** Warnings as Kubernetes sends them: {@code Warning: 299 - "text"}, one header each. */
    private static HttpHeaders warnings(List<String> warnings) {
        HttpHeaders headers = new HttpHeaders();
        warnings.forEach(w -> headers.add(HttpHeaders.WARNING, "299 - \"" + w.replace("\"", "'") + "\""));
        return headers;
    }
}
