package io.paddlejobs.sweeps;

import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.paddlejobs.security.SubmissionRateLimit;
import io.paddlejobs.security.Tenant;
import io.swagger.v3.oas.annotations.Operation;
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
import java.net.URI;
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
 * Sweeps: trials of one job request over a space of settings (docs/experiments.md). Each trial is an
 * ordinary job, submitted as {@code POST /jobs} submits one, in the sweep owner's name.
 */
@Tag(name = "sweeps")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/sweeps")
class SweepController {

    static final String EXAMPLE = """
            {"name": "lr-grid",
             "template": {"mode": "collective", "entry_point": "python3 train.py", "num_cpus": 1},
             "parameters": [{"name": "lr", "arg": "--lr", "values": [0.1, 0.01, 0.001]},
                            {"name": "seed", "env": "SEED", "values": [1, 2]}],
             "parallel": 2,
             "objective": {"metric": "loss", "goal": "minimize"},
             "early_stopping": {"rule": "median", "min_step": 5}}""";

    private final Sweeps sweeps;
    private final NamespaceAccess access;
    private final SubmissionRateLimit rate;
    private final JobRequests requests;

    SweepController(Sweeps sweeps, NamespaceAccess access, SubmissionRateLimit rate, JobRequests requests) {
        this.sweeps = sweeps;
        this.access = access;
        this.rate = rate;
        this.requests = requests;
    }

    @Operation(operationId = "createSweep", summary = "Start a sweep", description = """
            Plans every trial as a dry run plans a job (a value out of bounds is a 400 naming the parameter and the \
            value; nothing is created), then keeps the sweep; a replica of the service starts its trials, at most \
            parallel at once, in the submitter's name and against their limits. 201 with Location; 200 with the \
            existing sweep when the same name is sent again with the same request; 409 when it has another.""")
    @ApiResponse(responseCode = "201", description = "Created: its trials start shortly",
            headers = @Header(name = HttpHeaders.LOCATION, description = "The sweep",
                    schema = @Schema(type = "string", format = "uri-reference")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepView.class)))
    @ApiResponse(responseCode = "200", description = "The existing sweep of this name and request",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepView.class)))
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<SweepView> create(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
                                             mediaType = MediaType.APPLICATION_JSON_VALUE,
                                             schema = @Schema(implementation = SweepRequest.class),
                                             examples = @ExampleObject(name = "grid", value = EXAMPLE)))
                                     @Valid @RequestBody SweepRequest body,
                                     @InNamespace(Action.SUBMIT) String namespace) {
        Tenant owner = access.tenant().orElseThrow();
        try (var permit = rate.take(owner)) {
            Sweeps.Created created = sweeps.create(body, namespace, owner);
            SweepView view = view(created.sweep());
            HttpHeaders headers = new HttpHeaders();
            view.warnings().forEach(w -> headers.add(HttpHeaders.WARNING, "299 - \"" + w.replace("\"", "'") + "\""));
            if (!created.created()) {
                return ResponseEntity.ok().headers(headers).body(view);
            }
            permit.spend();
            return ResponseEntity.created(URI.create(view.statusUrl())).headers(headers).body(view);
        }
    }

    @Operation(operationId = "listSweeps", summary = "List sweeps, newest first",
            description = "The namespace's sweeps, each with its phase, how many trials it has and its best trial so far; at most limit.")
    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    SweepListView list(@InNamespace(Action.LIST) String namespace,
                       @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit) {
        SweepUrls urls = new SweepUrls(requests.baseUrl());
        return new SweepListView(sweeps.list(namespace, limit).stream().map(s -> SweepListView.Item.of(s, urls)).toList());
    }

    @Operation(operationId = "getSweep", summary = "A sweep: its request, each trial and how it stands, and the best so far",
            description = "Each trial's phase and reason are its job's, read afresh for trials this replica runs; a trial stopped early is Cancelled with reason EarlyStopped.")
    @GetMapping(path = "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
    SweepView get(@PathVariable String name, @InNamespace(Action.READ) String namespace) {
        return view(sweeps.get(new SweepKey(namespace, name)));
    }

    @Operation(operationId = "cancelSweep", summary = "Cancel a sweep: start no more trials, cancel its running ones", description = """
            Its unfinished trials are cancelled as POST /jobs/{name}/cancel cancels a job; the sweep and its trials \
            are kept. A sweep that already ended is answered as it is.""")
    @PostMapping(path = "/{name}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    SweepView cancel(@PathVariable String name, @InNamespace(Action.CANCEL) String namespace) {
        return view(sweeps.cancel(new SweepKey(namespace, name)));
    }

    @Operation(operationId = "deleteSweep", summary = "Delete a sweep and its trials", description = """
            Cancels it, then deletes every trial's job as DELETE /jobs/{name} does, and the sweep: 204.""")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @DeleteMapping("/{name}")
    ResponseEntity<Void> delete(@PathVariable String name, @InNamespace(Action.DELETE) String namespace) {
        sweeps.delete(new SweepKey(namespace, name));
        return ResponseEntity.noContent().build();
    }

    private SweepView view(SweepRecord sweep) {
        return SweepView.of(sweep, new SweepUrls(requests.baseUrl()), trial -> sweeps.live(sweep, trial));
    }
}
