package io.paddlejobs.webhooks;

import io.paddlejobs.job.JobPhase;

/**
 * What of a job's life its webhooks have been given deliveries for: what the next status is
 * compared with. Kept in the job's outbox file with the deliveries it led to, so a restart of the
 * service neither repeats an event nor misses one that happened while it was down.
 *
 * @param started  whether {@code started} was handled
 * @param restarts the restarts whose {@code restarting} was handled (the job's restart count then)
 * @param stalled  the attempt whose {@code stalled} was handled while it is still stalled; -1 when it is not
 * @param phase    the phase last looked at; {@code null} before the first look
 */
record Handled(boolean started, int restarts, int stalled, JobPhase phase) {

    static final Handled NOTHING = new Handled(false, 0, -1, null);

    boolean finished() {
        return phase != null && phase.isFinished();
    }
}
