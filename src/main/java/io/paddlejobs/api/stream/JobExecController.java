package io.paddlejobs.api.stream;

import io.paddlejobs.job.ExecProcess;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.Role;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.AuditLog;
import io.paddlejobs.security.AuditOutcome;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * A command run in a replica of a held job ({@code debug_hold}): as the replica ran, its output streamed back as it
 * comes, then its exit code. It can do what the job's replicas can, so it needs the right to cancel the job, and
 * each is audited ({@code action=exec}).
 */
@Tag(name = "jobs")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/jobs")
class JobExecController {

    private final JobService jobs;
    private final NamespaceAccess access;
    private final LogStreams streams;
    private final AuditLog audit;

    JobExecController(JobService jobs, NamespaceAccess access, LogStreams streams, AuditLog audit) {
        this.jobs = jobs;
        this.access = access;
        this.streams = streams;
        this.audit = audit;
    }

    @Schema(description = "The command to run, as its words (no shell unless it names one: [\"sh\", \"-c\", \"ls; env\"])")
    record ExecRequest(
            @NotNull @Size(min = 1, max = 256)
            List<@NotNull @Size(max = 65536) @Pattern(regexp = "[^\\x00]*", message = "must not hold a NUL character") String> command) {
    }

    @Operation(summary = "Run a command in a replica of a held job", description = """
            Only while the job is held (phase Running, reason Held: a failed attempt kept for its debug_hold); else a \
            409. The command runs as the replica ran: its environment (PADDLE_TRAINER_ID, ...), working directory, \
            user, GPUs and sandbox, in the replica that failed as in one that still runs; on the local backend a \
            sandbox of its own made as the replica's was, so the replica's processes are not in its PID namespace; on \
            Slurm a step of the job's own on the replica's node (srun --overlap), with no sandbox. \
            Nothing reaches its standard input. The answer streams one JSON object per line: {"output": "..."} with \
            what it printed (standard output and error together) as it comes, then {"exit_code": N} once it ended \
            (128 + n when a signal n ended it). It is stopped when the hold ends (its time is over, a cancel). Needs \
            the right to cancel the job; audited as action=exec.""")
    @ApiResponse(responseCode = "200", description = "Its output, then its exit code, one JSON object per line",
            content = @Content(mediaType = "application/x-ndjson", schema = @Schema(type = "string")))
    @PostMapping(path = "/{name}/exec", consumes = MediaType.APPLICATION_JSON_VALUE, produces = "application/x-ndjson")
    ResponseEntity<ResponseBodyEmitter> exec(@PathVariable String name,
                                             @InNamespace(Action.CANCEL) String namespace,
                                             @Parameter(schema = @Schema(type = "string", defaultValue = "trainer",
                                                     allowableValues = {"pserver", "trainer"}))
                                             @RequestParam(required = false) @Pattern(regexp = "pserver|trainer") String role,
                                             @RequestParam(defaultValue = "0") @Min(0) int index,
                                             @Valid @RequestBody ExecRequest body) {
        JobKey key = new JobKey(namespace, name);
        Role replicaRole = Role.fromLabel(role == null ? "trainer" : role);
        ExecProcess process = audit.recordAs(AuditLog.EXEC, namespace, name,
                () -> jobs.exec(key, replicaRole, index, body.command()), started -> AuditOutcome.STARTED);
        return streams.stream(access.userName(), out -> ExecOutput.copy(process, out), ExecOutput.TYPE, process::stop);
    }
}
