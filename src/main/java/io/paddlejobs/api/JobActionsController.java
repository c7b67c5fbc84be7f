package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the caller may do to a job, so that the pages show only the buttons that would work.
 * Permissions are per namespace, so the answer holds for every job in the job's namespace.
 */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class JobActionsController {


    private final JobService jobs;
    private final NamespaceAccess access;

    JobActionsController(JobService jobs, NamespaceAccess access) {
        this.jobs = jobs;
        this.access = access;
    }

    @Schema(description = "Whether the caller may cancel, delete and run again this job (and so any job of its "
            + "namespace); cancelling a finished job changes nothing, and running one again submits a new job")
    record ActionsView(boolean cancel, boolean delete, boolean rerun) {
    }

    @Operation(summary = "What the caller may do to a job: cancel, delete, run again", description = """
            Whether this caller may cancel, delete and run the job again, as the pages' buttons need it: each true or \
            false by the caller's rights and the job's phase; nothing is changed.""")
    @GetMapping(path = "/{name}/actions", produces = MediaType.APPLICATION_JSON_VALUE)
    ActionsView actions(@PathVariable String name, @InNamespace(Action.READ) String namespace) {
        jobs.get(new JobKey(namespace, name)); // a 404 for a job that is not there, as the other job endpoints answer
        return new ActionsView(access.resolveQuietly(namespace, Action.CANCEL).isPresent(),
                access.resolveQuietly(namespace, Action.DELETE).isPresent(),
                access.resolveQuietly(namespace, Action.SUBMIT).isPresent());
    }
}
