package io.paddlejobs.backend;

import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobPlan;
import java.time.Duration;

/**
 * Where a collective job's trainers meet: trainer 0's master port ({@code PADDLE_MASTER}), served by its
 * store ({@code init_parallel_env()}) or its launcher's rendezvous. The local and Slurm backends start the
 * other trainers once it accepts connections, so that none of them waits out Paddle's fixed 3 s connect
 * retry, and fail the job in words when it does not listen in time, where the others would wait for good.
 */
public final class Rendezvous {

    /** The job's reason when trainer 0 did not listen in time. */
    public static final String NOT_LISTENING = "RendezvousNotListening";

    private Rendezvous() {
    }

    /** Whether a plan's trainers meet at trainer 0: a collective job of two trainers or more. */
    public static boolean applies(JobPlan plan) {
        return plan.mode() == JobMode.COLLECTIVE && plan.trainers().count() > 1;
    }

    /**
     * Why the job failed, with what to change: a program that prepares its data before it calls
     * {@code init_parallel_env()} listens only then.
     *
     * @param setting the operator's setting that gave {@code timeout}
     */
    public static String notListening(String host, int port, Duration timeout, String setting) {
        return ("trainer-0 did not accept connections on its master port %s:%d (PADDLE_MASTER) within %ds (%s); "
                + "the other trainers were not started, as they would wait for it forever. A program under "
                + "paddle.distributed.launch listens from its launcher at once, one calling init_parallel_env() from "
                + "its store when it calls it: a program that prepares its data first must call it within that time "
                + "(call it first, or ask the operator for a longer %s). See its log: role=trainer&index=0")
                .formatted(host, port, timeout.toSeconds(), setting, setting);
    }
}
