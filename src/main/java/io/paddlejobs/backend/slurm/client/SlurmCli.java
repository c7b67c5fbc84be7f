package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.backend.slurm.script.BatchScripts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Slurm through its command-line tools ({@code sbatch --parsable}, {@code scontrol -o show job},
 * {@code scancel}). This is the default: every host users submit from has them, they need no
 * daemon or key besides what {@code sbatch} already needs, and their text formats have stayed the
 * same across releases, where slurmrestd's API versions come and go with Slurm's.
 */
public final class SlurmCli implements SlurmClient {

    /** What one call of a tool may take, its output read to the end included. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String slurmConf;
    private final String binDir;
    private final Duration timeout;

    /**
     * @param slurmConf the {@code slurm.conf} the tools read; empty for their default
     * @param binDir    the tools' directory; empty for the {@code PATH}
     */
    public SlurmCli(String slurmConf, String binDir) {
        this(slurmConf, binDir, TIMEOUT);
    }

    /** @param timeout what one call of a tool may take, from its start until its output is read: then it is killed */
    public SlurmCli(String slurmConf, String binDir, Duration timeout) {
        this.slurmConf = slurmConf;
        this.binDir = binDir;
        this.timeout = timeout;
    }

    @Override
    public long submit(BatchJob job) {
        String out = run("submit the job", BatchScripts.withDirectives(job), "sbatch", "--parsable");
        try {
            // "<id>" or "<id>;<cluster>"
            return Long.parseLong(out.strip().split(";")[0]);
        } catch (NumberFormatException e) {
            throw new SlurmException("submit the job", "sbatch answered '" + out.strip() + "'", e);
        }
    }

    @Override
    public List<SlurmJobInfo> jobs() {
        String out = run("list its jobs", null, "scontrol", "-o", "show", "job");
        List<SlurmJobInfo> jobs = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("JobId=")) {
                jobs.add(ScontrolJobs.parse(line));
            }
        }
        return jobs;
    }

    /** The cluster's nodes as {@code scontrol -o show node} lists them, one a line. */
    public String nodes() {
        return run("list the cluster's nodes", null, "scontrol", "-o", "show", "node");
    }

    @Override
    public void cancel(long jobId) {
        run("cancel job " + jobId, null, "scancel", Long.toString(jobId));
    }

    /**
     * A pending job is cancelled ({@code --state=PENDING} leaves a running one alone), then a running one
     * gets SIGTERM ({@code --state=RUNNING} leaves any other alone: {@code scancel --signal} retries for
     * minutes on a job that has not started, "Job is in transitional state, retrying"). A job that starts
     * between the two calls gets the signal; each call answers at once.
     */
    @Override
    public void terminate(long jobId) {
        run("cancel pending job " + jobId, null, "scancel", "--state=PENDING", Long.toString(jobId));
        run("send SIGTERM to job " + jobId, null, "scancel", "--signal=TERM", "--state=RUNNING", Long.toString(jobId));
    }

    private String run(String action, String stdin, String... command) {
        List<String> line = new ArrayList<>(List.of(command));
        if (!binDir.isEmpty()) {
            line.set(0, Path.of(binDir, command[0]).toString());
        }
        ProcessBuilder builder = new ProcessBuilder(line);
        if (!slurmConf.isEmpty()) {
            builder.environment().put("SLURM_CONF", slurmConf);
        }
        try {
            BoundedRun.Result result = BoundedRun.run(builder, stdin, timeout);
            if (result.timedOut()) {
                throw new SlurmException(action, command[0] + " did not answer within " + timeout.toSeconds()
                        + " s; it was killed", null);
            }
            if (result.exitCode() != 0) {
                String err = result.err().strip();
                throw new SlurmException(action, err.isEmpty() ? command[0] + " exited " + result.exitCode() : err, null);
            }
            return result.out();
        } catch (IOException e) {
            throw new SlurmException(action, "cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException(action, "interrupted", e);
        }
    }
}
