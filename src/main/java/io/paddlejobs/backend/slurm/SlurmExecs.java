package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.OverlapSteps;
import io.paddlejobs.backend.slurm.script.BatchScripts;
import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.job.ExecProcess;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.attempt.DebugHold;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Commands run in a replica of a held Slurm job ({@code debug_hold}, {@code exec}): a step of the job's own on the
 * replica's node ({@link OverlapSteps}, {@code srun --overlap}) that starts the command in the replica's working
 * directory with the environment its launcher gave it (which {@code launch.sh} keeps in the attempt's state
 * directory) and the job's secrets, as the user the job runs as. It is no PID namespace of the replica's own; Slurm
 * ends it with the job, once the hold is over. Needs the Slurm commands on the service's host ({@code client=cli}).
 */
final class SlurmExecs {

    /**
     * Run in the step: {@code $1} the replica's environment (NUL-separated), {@code $2} its working directory,
     * {@code $3} the job's secrets (maybe absent), then the command's words, run without a shell of ours between.
     */
    private static final String AS_THE_REPLICA = """
            vars_file=$1 work=$2 secrets=$3; shift 3
            if [ ! -r "$vars_file" ]; then echo "exec: the replica's environment is not on $(hostname)" >&2; exit 127; fi
            vars=(); while IFS= read -r -d '' pair; do vars+=("$pair"); done < "$vars_file"
            cd "$work" || exit 127
            exec env -i "${vars[@]}" /bin/bash -c \
                'if [ -f "$0" ]; then while IFS= read -r -d "" pair; do export "$pair"; done < "$0"; fi; exec "$@"' \
                "$secrets" "$@"
            """;

    private final SlurmRecords records;
    private final OverlapSteps steps;

    SlurmExecs(SlurmProperties properties, SlurmRecords records) {
        this.records = records;
        this.steps = new OverlapSteps(properties.slurmConf(), properties.binDir());
    }

    /**
     * Starts {@code command} in replica {@code index} of {@code role} of the job's held attempt.
     *
     * @throws JobConflictException when the job is not held, or the replica never started in its attempt
     */
    ExecProcess start(SlurmJob job, Role role, int index, List<String> command) {
        if (job.isFinished() || !DebugHold.HELD.equals(job.status().reason())) {
            throw JobConflictException.notHeld(job.key());
        }
        String id = Replica.idOf(role, index);
        var files = records.files(job.key());
        Placement placement = files.marks(job.plan(), job.attempt()).placement();
        Placement.Slot slot = placement == null ? null : placement.slots().get(id);
        if (slot == null) {
            throw new JobConflictException("Replica never started", "exec runs a command as a replica ran, and "
                    + id + " of job '" + job.key().name() + "' was not placed in its held attempt.");
        }
        List<String> line = new ArrayList<>(steps.on(job.slurmId(), BatchScripts.component(job.plan(), role), slot.node()));
        line.addAll(List.of("/bin/bash", "-c", AS_THE_REPLICA, "exec"));
        line.addAll(files.execArguments(id, job.attempt()));
        line.addAll(command);
        try {
            return new Srun(new ProcessBuilder(line).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start());
        } catch (IOException e) {
            throw new UncheckedIOException("the command could not be started in " + id + ": srun did not start", e);
        }
    }

    /** The srun that runs the command: its output is the command's, and so is its exit code. */
    private record Srun(Process srun) implements ExecProcess {

        @Override
        public InputStream output() {
            return srun.getInputStream();
        }

        @Override
        public CompletableFuture<Integer> exit() {
            return srun.onExit().thenApply(Process::exitValue);
        }

        /** srun passes the TERM on to the step's command and ends with it. */
        @Override
        public void stop() {
            srun.destroy();
        }
    }
}
