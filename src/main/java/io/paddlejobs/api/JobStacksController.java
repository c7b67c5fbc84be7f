package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.StackDump;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Stack dumps of a running job's trainers: where each rank is, to see where a hung job waits. Taking them pauses
 * the trainers for a moment, so it needs the right to cancel the job; reading those kept needs only to read it.
 */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class JobStacksController {

    private final JobService jobs;

    JobStacksController(JobService jobs) {
        this.jobs = jobs;
    }

    @Schema(description = "The stack dumps kept of a job, newest first: those taken on request and those taken when "
            + "a stall was seen (trigger stall)")
    record StacksView(List<StackDump> dumps) {
    }

    @Operation(summary = "Take the Python stacks of every running trainer", description = """
            Dumps every Python process of each running trainer with py-spy (native frames where it can read them), \
            and keeps the dump with the job (GET answers it from then on). Each trainer is paused for the moment of its \
            dump. A job none of whose trainers runs (finished, or not started yet) is a 409; where py-spy is not \
            installed (local), a 503 naming the setting paddlejobs.stacks.py-spy; a backend that takes no stacks, a 501 \
            that says why. On Slurm py-spy runs on the trainers' nodes (srun --overlap); where it fails there, each \
            process's note says why. Needs the right to cancel the job.""")
    @PostMapping(path = "/{name}/stacks", produces = MediaType.APPLICATION_JSON_VALUE)
    StackDump takeStacks(@PathVariable String name, @InNamespace(Action.CANCEL) String namespace) {
        return jobs.takeStacks(new JobKey(namespace, name));
    }

    @Operation(summary = "The stack dumps kept of a job", description = """
            Every dump kept of the job, newest first: those taken with POST and those taken as a stall was seen, \
            before the stall's restart or failure (trigger stall). Each says its attempt.""")
    @GetMapping(path = "/{name}/stacks", produces = MediaType.APPLICATION_JSON_VALUE)
    StacksView listStacks(@PathVariable String name, @InNamespace(Action.READ) String namespace) {
        return new StacksView(jobs.stacks(new JobKey(namespace, name)));
    }
}
