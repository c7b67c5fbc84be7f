package io.paddlejobs.backend.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Slurm through its command-line tools ({@code sbatch --parsable}, {@code scontrol -o show job},
 * {@code scancel}). This is the default: every host users submit from has them, they need no
 * daemon or key besides what {@code sbatch} already needs, and their text formats have stayed the
 * same across releases, where slurmrestd's API versions come and go with Slurm's.
 */
final class SlurmCli implements SlurmClient {

    private static final long TIMEOUT_SECONDS = 30;

    private final String slurmConf;
    private final String binDir;

    /**
     * @param slurmConf the {@code slurm.conf} the tools read; empty for their default
     * @param binDir    the tools' directory; empty for the {@code PATH}
     */
    SlurmCli(String slurmConf, String binDir) {
        this.slurmConf = slurmConf;
        this.binDir = binDir;
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

    @Override
    public void cancel(long jobId) {
        run("cancel job " + jobId, null, "scancel", Long.toString(jobId));
    }

    @Override
    public void terminate(long jobId) {
        run("send SIGTERM to job " + jobId, null, "scancel", "--signal=TERM", Long.toString(jobId));
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
            Process process = builder.start();
            if (stdin != null) {
                process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            process.getOutputStream().close();
            // Small outputs; read both before waiting so neither pipe can fill up.
            var stderr = process.getErrorStream();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(stderr.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new SlurmException(action, command[0] + " did not answer within " + TIMEOUT_SECONDS + " s", null);
            }
            if (process.exitValue() != 0) {
                throw new SlurmException(action, err.isEmpty() ? command[0] + " exited " + process.exitValue() : err, null);
            }
            return out;
        } catch (IOException e) {
            throw new SlurmException(action, "cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException(action, "interrupted", e);
        }
    }
}
