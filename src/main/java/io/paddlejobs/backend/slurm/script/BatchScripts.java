package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.backend.slurm.SlurmChoices;
import io.paddlejobs.backend.slurm.SlurmProperties;
import io.paddlejobs.backend.slurm.client.BatchJob;
import static io.paddlejobs.backend.ShellScripts.quote;

import io.paddlejobs.backend.Rendezvous;
import io.paddlejobs.backend.ShellScripts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Resources;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.RolePlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * A plan as one Slurm batch job: a component per role that has replicas (pservers, then
 * trainers; trainers alone when there are no pservers), one task per replica with its own CPUs,
 * memory and GPUs, and the batch step from {@code batch-body.sh} that places and starts them.
 */
public final class BatchScripts {

    private static final String BODY = ShellScripts.resource(BatchScripts.class, "batch-body.sh");
    static final String LAUNCHER = ShellScripts.resource(BatchScripts.class, "launch.sh");
    private static final long MIB = 1024 * 1024;

    private BatchScripts() {
    }

    /** The first attempt. */
    public static BatchJob of(JobPlan plan, JobFiles files, SlurmProperties properties) {
        return of(plan, files, properties, 0, Duration.ZERO);
    }

    /**
     * One attempt: its replicas leave their marks in the attempt's own state directory, write their logs in its own
     * log directory, and get its number as {@code PADDLE_JOB_RESTART_COUNT}.
     *
     * @param ranBefore how long the job ran before this attempt: a {@code max_run_time} counts across attempts
     */
    public static BatchJob of(JobPlan plan, JobFiles files, SlurmProperties properties, int attempt, Duration ranBefore) {
        List<RolePlan> roles = roles(plan);
        List<BatchJob.Component> components = new ArrayList<>();
        StringJoiner names = new StringJoiner(" ");
        StringBuilder vars = new StringBuilder();
        for (RolePlan role : roles) {
            BatchJob.Component component = component(role);
            components.add(component);
            names.add(role.role().label());
            String prefix = role.role().name();
            vars.append(prefix).append("_TASKS=").append(component.tasks()).append('\n');
            vars.append(prefix).append("_CPUS=").append(component.cpusPerTask()).append('\n');
            vars.append(prefix).append("_GPUS=").append(component.gpusPerTask()).append('\n');
        }
        String body = "JOB_DIR=" + quote(files.dir().toAbsolutePath().toString()) + "\n"
                + "FIRST_PORT=" + plan.ports().first() + "\n"
                + "PORT_STEP=" + plan.ports().count() + "\n"
                + "REPLICA_PATH=" + quote(properties.replicaPath()) + "\n"
                + "ROLES=" + quote(names.toString()) + "\n"
                + "STATE_DIR=" + quote(files.stateDir(attempt).toAbsolutePath().toString()) + "\n"
                + "LOG_DIR=" + quote(files.logDir(attempt).toAbsolutePath().toString()) + "\n"
                + "RESTART_COUNT=" + attempt + "\n"
                + "RENDEZVOUS_TIMEOUT=" + (Rendezvous.applies(plan) ? properties.rendezvousListenTimeout().toSeconds() : 0)
                + "\n"
                + "DEBUG_HOLD=" + debugHoldSeconds(plan) + "\n"
                + vars
                + container(plan, files, properties)
                + "export JOB_DIR FIRST_PORT REPLICA_PATH STATE_DIR LOG_DIR RESTART_COUNT RENDEZVOUS_TIMEOUT DEBUG_HOLD\n"
                + BODY;
        Duration maxRunTime = plan.spec().lifecycle().maxRunTime();
        Duration left = maxRunTime == null ? null : max(maxRunTime.minus(ranBefore), Duration.ofMinutes(1));
        long minutes = timeLimitMinutes(left, properties.timeLimitMinutes());
        return new BatchJob(jobName(plan), files.workDir().toAbsolutePath(), files.batchLog().toAbsolutePath(),
                components, minutes, termBeforeLimit(minutes, properties.stopGracePeriod()),
                SlurmChoices.of(plan, properties), body);
    }

    /**
     * With Pyxis, each role's image (the request's {@code image}, the pservers' {@code pserver_image} where
     * given) as its step's container, with the job's directory and its namespace's storage mounted at the
     * same paths (the launcher, the environments, the logs and the checkpoints are there). On the steps,
     * not on the batch job: Pyxis runs an sbatch script given an image inside it, where there is no
     * {@code srun} to start the steps with.
     */
    static String container(JobPlan plan, JobFiles files, SlurmProperties properties) {
        if (properties.containers() != SlurmProperties.Containers.PYXIS) {
            return "";
        }
        StringBuilder images = new StringBuilder();
        for (RolePlan role : roles(plan)) {
            String image = requestedImage(plan, role.role());
            if (image != null) {
                images.append(role.role().name()).append("_IMAGE=").append(quote(image)).append('\n');
            }
        }
        if (images.isEmpty()) {
            return "";
        }
        String jobDir = files.dir().toAbsolutePath().toString();
        String storage = properties.directories().storageDir(plan.namespace()).toAbsolutePath().normalize().toString();
        return images + "CONTAINER_MOUNTS=" + quote(jobDir + ":" + jobDir + "," + storage + ":" + storage) + "\n";
    }

    /** The image the request asks a role to run in, or {@code null} (the plan's default image is for Kubernetes). */
    private static String requestedImage(JobPlan plan, Role role) {
        var code = plan.spec().code();
        return role == Role.PSERVER && code.pserverImage() != null ? code.pserverImage() : code.image();
    }

    /** Why a request's image does not reach its replicas, where it does not. */
    public static Optional<String> imageWarning(JobPlan plan, SlurmProperties properties) {
        var code = plan.spec().code();
        if (code.image() == null && code.pserverImage() == null
                || properties.containers() == SlurmProperties.Containers.PYXIS) {
            return Optional.empty();
        }
        return Optional.of((code.image() != null ? "image" : "pserver_image")
                + " is not used on this Slurm cluster: the replicas run the software"
                + " installed on its nodes (the operator has not set paddlejobs.slurm.containers=pyxis)");
    }

    /** How long launch.sh keeps a replica that failed on its own ({@code debug_hold}); 0 for no hold. */
    private static long debugHoldSeconds(JobPlan plan) {
        Duration hold = plan.spec().lifecycle().debugHold();
        return hold == null ? 0 : hold.toSeconds();
    }

    /**
     * The component of the batch job that runs {@code role}'s replicas, for a step beside them ({@code --het-group}):
     * pservers are the first and trainers the second where the job has both; -1 where it is not heterogeneous.
     */
    public static int component(JobPlan plan, Role role) {
        if (plan.pservers().count() == 0) {
            return -1;
        }
        return role == Role.PSERVER ? 0 : 1;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * How long before the time limit Slurm sends the replicas SIGTERM, so that they can write a last
     * checkpoint: the stop grace period, within what Slurm takes ({@code --signal} counts up to 65535 s)
     * and never the whole limit. 0 without a time limit.
     */
    static long termBeforeLimit(long limitMinutes, Duration grace) {
        if (limitMinutes <= 0 || grace.isZero() || grace.isNegative()) {
            return 0;
        }
        return Math.min(Math.min(grace.toSeconds(), 65535), limitMinutes * 60 / 2);
    }

    /** A job's own {@code max_run_time} wins over the backend's limit; Slurm counts whole minutes, so it rounds up. */
    public static long timeLimitMinutes(Duration maxRunTime, long configuredMinutes) {
        return maxRunTime == null ? configuredMinutes : SlurmProperties.wholeMinutes(maxRunTime);
    }

    /** The roles that get a component: a role without replicas gets none (Slurm has no empty components). */
    static List<RolePlan> roles(JobPlan plan) {
        return plan.pservers().count() > 0 ? List.of(plan.pservers(), plan.trainers()) : List.of(plan.trainers());
    }

    /** Slurm job names carry the namespace too, so that an operator's squeue says whose job it is. */
    public static String jobName(JobPlan plan) {
        return "paddlejobs." + plan.namespace() + "." + plan.name();
    }

    static BatchJob.Component component(RolePlan role) {
        Resources each = role.perReplica();
        // Slurm allocates whole CPUs: a fractional share rounds up, and memory is asked per CPU.
        int cpus = (int) Math.max(1, (each.cpu().millis() + 999) / 1000);
        long memoryMb = Math.max(1, (each.memory().bytes() + MIB - 1) / MIB);
        return new BatchJob.Component(role.count(), cpus, (memoryMb + cpus - 1) / cpus, each.gpu());
    }

    /** The script as sbatch reads it: the components as {@code #SBATCH} lines, split by {@code hetjob}. */
    public static String withDirectives(BatchJob job) {
        StringBuilder script = new StringBuilder("#!/bin/bash\n");
        script.append("#SBATCH --job-name=").append(job.name()).append('\n');
        script.append("#SBATCH --chdir=").append(job.workDir()).append('\n');
        script.append("#SBATCH --output=").append(job.output()).append('\n');
        // Not run twice after a node failure (replicas would find half a job), nor with the service's environment.
        script.append("#SBATCH --no-requeue --export=NONE\n");
        if (job.timeLimitMinutes() > 0) {
            script.append("#SBATCH --time=").append(job.timeLimitMinutes()).append('\n');
        }
        if (job.termSecondsBeforeLimit() > 0) {
            // To every step (not the batch shell) before the limit: the replicas may checkpoint, then Slurm stops them.
            script.append("#SBATCH --signal=TERM@").append(job.termSecondsBeforeLimit()).append('\n');
        }
        // On every component's line: sbatch gives a heterogeneous job's later components none of the first's.
        StringBuilder choices = new StringBuilder();
        option(choices, "partition", job.choices().partition());
        option(choices, "account", job.choices().account());
        option(choices, "qos", job.choices().qos());
        for (int i = 0; i < job.components().size(); i++) {
            BatchJob.Component c = job.components().get(i);
            if (i > 0) {
                script.append("#SBATCH hetjob\n");
            }
            script.append("#SBATCH --ntasks=").append(c.tasks())
                    .append(" --cpus-per-task=").append(c.cpusPerTask())
                    .append(" --mem-per-cpu=").append(c.memoryPerCpuMb());
            if (c.gpusPerTask() > 0) {
                script.append(" --gpus-per-task=").append(c.gpusPerTask());
            }
            script.append(choices).append('\n');
        }
        return script.append(job.body()).toString();
    }

    private static void option(StringBuilder options, String name, String value) {
        if (!value.isEmpty()) {
            options.append(" --").append(name).append('=').append(value);
        }
    }
}
