package io.paddlejobs.backend.slurm.client;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Commands run beside a running job's replicas, on one of its nodes, as a step of the job's own that shares its
 * resources ({@code srun --overlap}): what a user does by hand to look inside a replica (py-spy). The step runs as
 * the job's user and with none of the service's environment ({@code --export=NONE}); it needs the Slurm commands on
 * the service's host (the {@code cli} client's).
 */
public final class OverlapSteps {

    private final String slurmConf;
    private final String binDir;

    /** As {@link SlurmCli} takes them: the {@code slurm.conf} srun reads and its directory, each empty for the default. */
    public OverlapSteps(String slurmConf, String binDir) {
        this.slurmConf = slurmConf;
        this.binDir = binDir;
    }

    /**
     * The command line that runs a program (added to it) on {@code node} in job {@code jobId}.
     *
     * @param hetGroup the job's component the node belongs to, where the job is heterogeneous (pservers and trainers);
     *                 -1 where it is not
     */
    public List<String> on(long jobId, int hetGroup, String node) {
        List<String> line = new ArrayList<>();
        if (!slurmConf.isEmpty()) {
            line.addAll(List.of("env", "SLURM_CONF=" + slurmConf));
        }
        line.add(binDir.isEmpty() ? "srun" : Path.of(binDir, "srun").toString());
        line.addAll(List.of("--overlap", "--jobid=" + jobId));
        if (hetGroup >= 0) {
            line.add("--het-group=" + hetGroup);
        }
        line.addAll(List.of("--nodelist=" + node, "--nodes=1", "--ntasks=1", "--quiet", "--export=NONE"));
        return line;
    }

    /**
     * Runs a command line of {@link #on} to its end.
     *
     * @return what it printed
     * @throws SlurmException when it could not be run, failed, or did not end within {@code timeout}
     */
    public String run(List<String> command, Duration timeout) {
        String action = "run a step beside the replicas";
        try {
            BoundedRun.Result result = BoundedRun.run(new ProcessBuilder(command), null, timeout);
            if (result.timedOut()) {
                throw new SlurmException(action, "srun did not end within " + timeout.toSeconds() + " s; it was killed", null);
            }
            if (result.exitCode() != 0) {
                String err = result.err().strip();
                throw new SlurmException(action, err.isEmpty() ? "srun exited " + result.exitCode() : err, null);
            }
            return result.out();
        } catch (IOException e) {
            throw new SlurmException(action, "cannot run srun: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException(action, "interrupted", e);
        }
    }
}
