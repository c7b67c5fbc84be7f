package io.paddlejobs.job;

/**
 * How far a job's training is, from the steps its trainers report: the slowest trainer's, since a
 * distributed job is done when its last trainer is.
 *
 * @param step           the slowest reporting trainer's last step
 * @param totalSteps     the steps it will take in all, when the trainers report {@code total_steps}; else {@code null}
 * @param fraction       {@code step / totalSteps}, at most 1; {@code null} without a total
 * @param stepsPerSecond the slowest trainer's recent rate; {@code null} until it is known (two reports a second
 *                       or more apart) and once the job has finished
 * @param etaSeconds     the time left at that rate; {@code null} without a total or a rate
 * @param trainer        the slowest trainer ({@code trainer-1})
 */
public record Progress(long step, Long totalSteps, Double fraction, Double stepsPerSecond, Long etaSeconds,
                       String trainer) {

    /** The same progress without what only a running job has: its rate and time left. */
    public Progress settled() {
        return new Progress(step, totalSteps, fraction, null, null, trainer);
    }
}
