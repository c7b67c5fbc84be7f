package io.paddlejobs.api;

import io.paddlejobs.api.openapi.ContractSchemas;
import io.paddlejobs.api.openapi.RequestExamples;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPage;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.AuditLog;
import io.paddlejobs.security.AuditOutcome;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.paddlejobs.security.SubmissionRateLimit;
import io.paddlejobs.security.Tenant;
import io.paddlejobs.webhooks.Webhooks;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The jobs API: submit, look, list, cancel, delete (a replica's log: api/stream's JobLogsController).
 * Every endpoint acts in the namespace its {@link InNamespace} argument was resolved and authorized
 * to; submits, cancels and deletes are written to the audit log.
 */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class JobController {

    private final JobService jobs;
    private final StatusUrls statusUrls;
    private final NamespaceAccess access;
    private final SubmissionRateLimit rate;
    private final AuditLog audit;
    private final SubmitAnswers answers;
    private final SerializedJobs serialized;
    private final RerunRequests reruns;
    private final Webhooks webhooks;
    private final PaddleJobManifests manifests;
    private final JobSubmits submits;

    JobController(JobService jobs, StatusUrls statusUrls, NamespaceAccess access, SubmissionRateLimit rate,
                  AuditLog audit, SubmitAnswers answers, SerializedJobs serialized, RerunRequests reruns,
                  Webhooks webhooks, PaddleJobManifests manifests, JobSubmits submits) {
        this.manifests = manifests;
        this.submits = submits;
        this.serialized = serialized;
        this.reruns = reruns;
        this.webhooks = webhooks;
        this.jobs = jobs;
        this.statusUrls = statusUrls;
        this.access = access;
        this.rate = rate;
        this.audit = audit;
        this.answers = answers;
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
                             @InNamespace(Action.SUBMIT) String namespace,
                             // Last, so that clients generated with positional arguments keep theirs.
                             @Parameter(description = "With dry_run=true: ask the cluster nothing (it may be away); the "
                                     + "answer has the exact objects and says what a submit would check besides")
                             @RequestParam(name = "offline", defaultValue = "false") boolean offline) {
        if (offline && !dryRun) {
            throw new InvalidParameterException("offline", "is only for a dry run: add dry_run=true", "true");
        }
        if (offline) {
            try (var permit = rate.take(access.tenant().orElseThrow())) {
                var planned = jobs.offlineDryRun(body.toRequest(), namespace);
                permit.spend();
                return answers.planned(planned);
            }
        }
        if (dryRun) {
            return dryRun(body.toRequest(), namespace);
        }
        JobRequest request = jobs.withGeneratedName(body.toRequest());
        return submitAudited(request, namespace);
    }

    @Operation(summary = "Run a job again", description = """
            Submits a new job with the request of this one (finished or not), changed by the body's fields: any \
            request field, a field given null is taken out. The new job is named by the body's name, else the first \
            free one of <name>-2, <name>-3, ... (a trailing -N of the name counts on). The same checks, limits and \
            answers as a submit, dry_run included.""")
    @ApiResponse(responseCode = "201", description = "Created; started, or queued as Pending",
            headers = @Header(name = HttpHeaders.LOCATION, description = "The new job",
                    schema = @Schema(type = "string", format = "uri-reference")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = JobView.class)))
    @ApiResponse(responseCode = "200", description = "With dry_run: the plan (kind DryRun). Else: the existing job "
            + "with this name and the identical spec (kind Job)",
            headers = @Header(name = HttpHeaders.WARNING, description = "One per warning: 299 - \"text\"",
                    schema = @Schema(type = "string")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(ref = "#/components/schemas/" + ContractSchemas.SUBMIT_RESULT)))
    @PostMapping(path = "/{name}/rerun", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> rerun(@PathVariable String name,
                            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false, content = @Content(
                                    mediaType = MediaType.APPLICATION_JSON_VALUE,
                                    schema = @Schema(ref = "#/components/schemas/" + ContractSchemas.RERUN_REQUEST),
                                    examples = @ExampleObject(name = "more trainers", summary = "Four trainers, a new name",
                                            value = "{\"name\": \"fit-a-line-wide\", \"trainers\": 4}")))
                            @RequestBody(required = false) tools.jackson.databind.JsonNode overrides,
                            @Parameter(description = "Plan only; start nothing")
                            @RequestParam(name = "dry_run", defaultValue = "false") boolean dryRun,
                            @InNamespace(Action.SUBMIT) String namespace) {
        JobKey earlier = new JobKey(namespace, name);
        JobRequest merged = reruns.merge(jobs.get(earlier).plan().spec(), overrides);
        JobRequest request = merged.name() != null ? merged : merged.withName(jobs.rerunName(earlier));
        if (dryRun) {
            return dryRun(request, namespace);
        }
        return submitAudited(request, namespace);
    }

    @Operation(summary = "Import a Kubeflow PaddleJob", description = """
            Reads a kubeflow.org/v1 PaddleJob manifest as it is (YAML or JSON) into a request, then submits it as \
            POST /jobs does (dry_run and namespace alike). The answer lists each manifest field carried (and the \
            request field it went to) and each dropped (and why dropping it is safe); each dropped field is also a \
            Warning header. A field the service cannot honour is a 400 naming it, and nothing is created \
            (docs/kubeflow.md).""")
    @ApiResponse(responseCode = "201", description = "Imported and created; result is the job (kind Job)",
            headers = @Header(name = HttpHeaders.LOCATION, description = "The job",
                    schema = @Schema(type = "string", format = "uri-reference")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ImportView.class)))
    @ApiResponse(responseCode = "200", description = "With dry_run: result is the plan (kind DryRun). Else: result is the"
            + " existing job with this identical spec (kind Job)",
            headers = @Header(name = HttpHeaders.WARNING, description = "One per warning and dropped field: 299 - \"text\"",
                    schema = @Schema(type = "string")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ImportView.class)))
    @PostMapping(path = "/import", consumes = {PaddleJobManifests.YAML, MediaType.APPLICATION_JSON_VALUE},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ImportView> importPaddleJob(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = {
                                                   @Content(mediaType = PaddleJobManifests.YAML,
                                                           schema = @Schema(type = "string",
                                                                   description = "A kubeflow.org/v1 PaddleJob manifest")),
                                                   @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                                                           schema = @Schema(type = "object",
                                                                   description = "A kubeflow.org/v1 PaddleJob manifest"))})
                                               @RequestBody String manifest,
                                               @Parameter(description = "Import and plan only; start nothing")
                                               @RequestParam(name = "dry_run", defaultValue = "false") boolean dryRun,
                                               @InNamespace(Action.SUBMIT) String namespace) {
        var imported = manifests.read(manifest);
        JobRequest request = dryRun ? imported.request() : jobs.withGeneratedName(imported.request());
        ResponseEntity<?> answer = dryRun ? dryRun(request, namespace) : submitAudited(request, namespace);
        HttpHeaders headers = new HttpHeaders();
        headers.putAll(answer.getHeaders());
        imported.report().dropped().forEach(note -> headers.add(HttpHeaders.WARNING,
                "299 - \"" + (note.field() + " dropped: " + note.reason()).replace("\"", "'") + "\""));
        return ResponseEntity.status(answer.getStatusCode()).headers(headers)
                .body(ImportView.of(JobRequestBody.of(request), imported.report(), answer.getBody()));
    }

    /** Submits within the caller's limits, with an audit line either way; the answer a submit gives. */
    private ResponseEntity<JobView> submitAudited(JobRequest request, String namespace) {
        var submitted = audit.record(Action.SUBMIT, namespace, request.name(),
                () -> submitWithinLimits(request, namespace),
                done -> done.submission().created() ? AuditOutcome.CREATED : AuditOutcome.EXISTING);
        return answers.submitted(submitted.submission(), submitted.webhookSecret());
    }

    private JobSubmits.Submitted submitWithinLimits(JobRequest request, String namespace) {
        return submits.submit(request, namespace, access.tenant().orElseThrow(),
                statusUrls.of(new JobKey(namespace, request.name())));
    }

    /** A dry run plans as much as a submit does, so it counts against the same rate. */
    private ResponseEntity<DryRunView> dryRun(JobRequest request, String namespace) {
        try (var permit = rate.take(access.tenant().orElseThrow())) {
            webhooks.check(request);
            var planned = jobs.dryRun(request, namespace);
            permit.spend();
            return answers.planned(planned);
        }
    }

    @Operation(summary = "List jobs, newest first", description = """
            With watch=true (and Accept: text/event-stream), a stream of Server-Sent Events instead: a job event \
            (this list's item) at every change of a job the filters match, deleted ({"name", "namespace"}) when one \
            went or stopped matching, end when timeout_seconds (optional) have passed; the same access rules.""")
    @Parameter(name = "watch", in = ParameterIn.QUERY,
            description = "Stream changes (text/event-stream) instead of listing", schema = @Schema(type = "boolean"))
    @Parameter(name = "timeout_seconds", in = ParameterIn.QUERY,
            description = "With watch=true: end the stream after this many seconds (1..86400)",
            schema = @Schema(type = "integer", minimum = "1", maximum = "86400"))
    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    JobListView list(@InNamespace(Action.LIST) String namespace,
                     @Parameter(description = "Only jobs in this phase", schema = @Schema(type = "string",
                             allowableValues = {"Pending", "Running", "Succeeded", "Failed", "Cancelled"}))
                     @RequestParam(required = false) String phase,
                     @Parameter(description = "Only jobs with these labels: key=value[,key=value]",
                             schema = @Schema(type = "string", pattern = LabelSelector.SYNTAX))
                     @RequestParam(name = "label_selector", required = false) String labelSelector,
                     @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit,
                     @Parameter(description = "The continue token of the previous page; empty or omitted: the first page",
                             schema = @Schema(type = "string", pattern = "[A-Za-z0-9_-]*"))
                     @RequestParam(name = "continue", required = false) String continueToken,
                     // Read so that watch=null is refused rather than ignored; watch=true is JobWatchController's.
                     @Parameter(hidden = true) @RequestParam(required = false) Boolean watch,
                     // Only a watch ends after it, but out of range it is refused here too, as the contract says.
                     @Parameter(hidden = true) @RequestParam(name = "timeout_seconds", required = false)
                     @Min(1) @Max(86_400) Integer timeoutSeconds,
                     // Last, so that clients generated with positional arguments keep theirs.
                     @Parameter(description = "Only jobs created at or after this time: " + ListFilters.TIME_SYNTAX,
                             schema = @Schema(type = "string", format = "date-time"))
                     @RequestParam(name = "created_since", required = false) String createdSince,
                     @Parameter(description = "Only jobs created before this time: " + ListFilters.TIME_SYNTAX,
                             schema = @Schema(type = "string", format = "date-time"))
                     @RequestParam(name = "created_before", required = false) String createdBefore) {
        JobQuery query = ListFilters.parse(phase, labelSelector, createdSince, createdBefore).query(namespace, limit,
                continueToken == null || continueToken.isEmpty() ? null : continueToken);
        JobPage page = jobs.list(query);
        return new JobListView(page.items().stream().map(job -> JobSummary.of(serialized.withProgress(job), statusUrls)).toList(),
                page.continueToken());
    }

    @Operation(summary = "A job: its resolved spec, plan and status", description = """
            The job as submitted (the plan's spec), the plan with every replica's environment and the rule behind each \
            number, and its status; a finished job the backend forgot is read from the history (archived: true).""")
    @GetMapping(path = "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
    JobView get(@PathVariable String name, @InNamespace(Action.READ) String namespace) {
        return JobView.of(serialized.withProgress(jobs.get(new JobKey(namespace, name))), statusUrls);
    }

    @Operation(summary = "A job's status (the status URL)", description = """
            With Accept: text/event-stream, a stream of Server-Sent Events instead: status at once and at every \
            change, metrics with the points added since the last one, then end (or gone when it was deleted).""")
    @ApiResponse(responseCode = "200", description = "OK", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
            schema = @Schema(implementation = JobStatus.class)))
    @GetMapping(path = "/{name}/status", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> status(@PathVariable String name, @InNamespace(Action.READ) String namespace) {
        // Written once per change of the status, however many pages read it (SerializedJobs).
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(serialized.status(jobs.get(new JobKey(namespace, name))));
    }

    @Operation(summary = "Cancel a job: stop every replica, keep the record as Cancelled", description = """
            Every replica is stopped gracefully (SIGTERM, then SIGKILL after the backend's grace period); the job stays \
            listed with phase Cancelled, its logs and metrics kept. A job that already ended is answered as it is.""")
    @PostMapping(path = "/{name}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    JobView cancel(@PathVariable String name, @InNamespace(Action.CANCEL) String namespace) {
        return audit.record(Action.CANCEL, namespace, name,
                () -> JobView.of(jobs.cancel(new JobKey(namespace, name)), statusUrls),
                view -> AuditOutcome.CANCELLED);
    }

    @Operation(summary = "Delete a job and everything it created", description = """
            Stops it if it runs, then removes its replicas, files, logs and history: 204. Its checkpoints on the \
            namespace's storage are kept, so that a new job of the same name resumes from them.""")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @DeleteMapping("/{name}")
    ResponseEntity<Void> delete(@PathVariable String name, @InNamespace(Action.DELETE) String namespace) {
        return audit.record(Action.DELETE, namespace, name, () -> {
            jobs.delete(new JobKey(namespace, name));
            return ResponseEntity.noContent().<Void>build();
        }, response -> AuditOutcome.DELETED);
    }
}
