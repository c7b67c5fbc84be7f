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
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
            exec 2>&1   # the command's output, both streams, is srun's standard output; srun's own words are apart
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
        Path srunsOwn = null;
        try {
            srunsOwn = Files.createTempFile("exec-srun-", ".err");
            return new Srun(new ProcessBuilder(line).redirectError(srunsOwn.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start(), srunsOwn);
        } catch (IOException e) {
            deleteQuietly(srunsOwn);
            throw new UncheckedIOException("the command could not be started in " + id + ": srun did not start", e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a temporary file: the system's cleaning takes it
        }
    }

    /**
     * The srun that runs the command: its standard output is the command's output, and its exit code the command's.
     * What srun says itself (it could not run the step; its report of the command's exit code, left out) follows
     * the command's output once srun has ended.
     */
    private record Srun(Process srun, Path srunsOwn) implements ExecProcess {

        private static final Pattern EXIT_REPORT =
                Pattern.compile("srun: error: \\S+: task \\d+: Exited with exit code \\d+");

        @Override
        public InputStream output() {
            return new SequenceInputStream(new Enumeration<InputStream>() {
                private int next;

                @Override
                public boolean hasMoreElements() {
                    return next < 2;
                }

                @Override
                public InputStream nextElement() {
                    return next++ == 0 ? srun.getInputStream() : srunsOwnWords();
                }
            });
        }

        private InputStream srunsOwnWords() {
            srun.onExit().join();
            try {
                String words = Files.readAllLines(srunsOwn).stream().filter(l -> !EXIT_REPORT.matcher(l).matches())
                        .map(l -> l + "\n").collect(Collectors.joining());
                return new ByteArrayInputStream(words.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                return InputStream.nullInputStream();
            } finally {
                deleteQuietly(srunsOwn);
            }
        }

        @Override
        public CompletableFuture<Integer> exit() {
            return srun.onExit().thenApply(Process::exitValue);
        }

        /** srun passes the TERM on to the step's command and ends with it. */
        @Override
        public void stop() {
            srun.destroy();
            deleteQuietly(srunsOwn);
        }
    }
}
