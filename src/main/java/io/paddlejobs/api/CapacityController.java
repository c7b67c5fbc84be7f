package io.paddlejobs.api;

import io.paddlejobs.api.openapi.ProblemSchema;
import io.paddlejobs.job.Capacity;
import io.paddlejobs.job.JobService;
import io.paddlejobs.problem.ProblemType;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the machine may hand out and who holds it, for the backends that schedule on their own
 * machine (local). Under the list rules of a namespace: GPUs held by jobs of other namespaces are
 * shown as held, not by whom.
 */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
class CapacityController {

    private final JobService jobs;
    private final NamespaceAccess access;

    CapacityController(JobService jobs, NamespaceAccess access) {
        this.jobs = jobs;
        this.access = access;
    }

    @Operation(summary = "What this machine may hand out to jobs, and who holds it", description = """
            The local backend's GPUs, memory and CPUs: total, in use and free, and per GPU the job and replica \
            holding it (named for jobs of the namespace asked about). CPUs are counted with the oversubscription \
            factor the notes give. Other backends leave this to their cluster's scheduler: 404.""")
    @ApiResponse(responseCode = "200", description = "OK", content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = Capacity.class)))
    @ApiResponse(responseCode = "404", description = "This backend does not schedule on its own machine", content = @Content(
            mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, schema = @Schema(implementation = ProblemSchema.class)))
    @GetMapping(path = "/capacity", produces = MediaType.APPLICATION_JSON_VALUE)
    Capacity capacity(@InNamespace(Action.LIST) String namespace) {
        String visible = namespace;
        Capacity capacity = jobs.capacity().orElseThrow(NoCapacity::new);
        return new Capacity(capacity.total(), capacity.inUse(), capacity.free(), capacity.gpus().stream()
                .map(gpu -> gpu.job() == null || gpu.job().namespace().equals(visible) ? gpu : gpu.withoutHolder())
                .toList(), capacity.enforced(), capacity.notes());
    }

    /** The backend leaves placement to its cluster. */
    static final class NoCapacity extends ErrorResponseException {

        NoCapacity() {
            super(HttpStatus.NOT_FOUND);
            getBody().setType(ProblemType.NO_CAPACITY.uri());
            setTitle("No capacity to show");
            setDetail("This service's backend leaves placing jobs to its cluster's scheduler; ask the cluster what it has.");
        }
    }
}
