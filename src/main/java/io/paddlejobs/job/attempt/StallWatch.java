package io.paddlejobs.job.attempt;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One attempt's {@code stall_timeout}: the attempt is stalled once no running trainer has printed a
 * line for that long, or, for a trainer that reports steps, reported a new one. A metrics line is a line of the log, so it counts as a sign of life; what a
 * trainer printed before this attempt began does not. A hung all-reduce looks like this: every
 * trainer alive and silent. The local and Slurm backends both judge their replicas' log files so; the
 * Kubernetes backend judges what its log reads have seen of each trainer pod.
 */
public final class StallWatch {

    /** The reason a stalled job shows: a warning while it runs, or its attempt's failure under {@code restart_on: stall}. */
    public static final String STALLED = "Stalled";

    private final Duration timeout;
    private final Instant began;

    public StallWatch(Duration timeout, Instant began) {
        this.timeout = timeout;
        this.began = began;
    }

    /** How often to look: often enough that a stall is seen within a second or a quarter of the timeout. */
    public Duration interval() {
        Duration quarter = timeout.dividedBy(4);
        return quarter.compareTo(Duration.ofSeconds(1)) < 0 ? quarter : Duration.ofSeconds(1);
    }

    /**
     * Which trainers were silent since when, when every running one has been for the timeout; else empty.
     *
     * @param lastWritten when a replica last wrote to its log ({@code null} if it never has)
     */
    public Optional<String> silence(List<ReplicaStatus> replicas, Function<String, Instant> lastWritten, Instant now) {
        return silence(replicas, lastWritten, id -> null, now);
    }

    /**
     * As above, for a job whose trainers may report steps: a trainer that reported a new step in this attempt
     * shows life only by reporting another; lines it prints meanwhile (a hung all-reduce's warnings, a
     * launcher's "master not ready") are no progress.
     *
     * @param lastNewStep when a replica last reported a step above its earlier ones ({@code null} if never)
     */
    public Optional<String> silence(List<ReplicaStatus> replicas, Function<String, Instant> lastWritten,
                                    Function<String, Instant> lastNewStep, Instant now) {
        List<ReplicaStatus> running = replicas.stream()
                .filter(r -> r.role() == Role.TRAINER && r.state() == ReplicaState.RUNNING).toList();
        if (running.isEmpty()) {
            return Optional.empty();
        }
        Instant cutoff = now.minus(timeout);
        List<String> silent = running.stream()
                .map(r -> heard(r.id(), lastWritten.apply(r.id()), lastNewStep.apply(r.id())))
                .filter(heard -> !heard.at().isAfter(cutoff))
                .map(heard -> heard.id() + " since " + heard.at().truncatedTo(ChronoUnit.SECONDS)
                        + (heard.byStep() ? " (its last new step)" : ""))
                .toList();
        if (silent.size() < running.size()) {
            return Optional.empty();
        }
        return Optional.of("no trainer printed a line or reported a metric for %s (stall_timeout): %s"
                .formatted(RestartDecision.words(timeout), silent.stream().collect(Collectors.joining(", "))));
    }

    private Heard heard(String id, Instant written, Instant newStep) {
        if (newStep != null && !newStep.isBefore(began)) {
            return new Heard(id, newStep, true);
        }
        return new Heard(id, lastHeard(written), false);
    }

    /**
     * When a backend that sees its replicas from outside (Slurm, Kubernetes) takes the attempt to have
     * begun: when its last trainer started. The job's own start comes before the trainers are placed and
     * launched, which on a busy cluster can take longer than a short timeout.
     */
    public static Instant began(JobStatus mapped) {
        return mapped.replicas().stream().filter(r -> r.role() == Role.TRAINER).map(ReplicaStatus::startedAt)
                .filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(mapped.startedAt());
    }

    /** The running attempt's status as it shows a stall: a warning, unless the status has a reason of its own. */
    public static JobStatus warned(JobStatus shown, String silence) {
        if (shown.reason() != null) {
            return shown;
        }
        return shown.with(shown.phase(), STALLED, silence);
    }

    /** The attempt failed by its stall ({@code restart_on} names {@code stall}), as a failed attempt's status. */
    public static JobStatus failed(JobStatus mapped, String silence, Instant now) {
        return mapped.endedAs(JobPhase.FAILED, STALLED, silence, now);
    }

    private Instant lastHeard(Instant written) {
        return written == null || written.isBefore(began) ? began : written;
    }

    private record Heard(String id, Instant at, boolean byStep) {
    }
}
