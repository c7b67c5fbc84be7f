package io.paddlejobs.backend.slurm.script;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What a job's replicas wrote into its {@code state/} directory. Slurm keeps no per-task exit
 * codes without accounting, so each replica's launcher records its own.
 *
 * @param stopping  the batch step had decided the outcome and was stopping the other replicas
 * @param placement where each replica runs, once the batch step has computed it; else {@code null}
 * @param rendezvousTimeout how long a trainer waited for trainer 0 to listen on its master port before it
 *                  gave up and failed the job (launch.sh); {@code null} when none did
 */
public record ReplicaMarks(Map<String, Mark> replicas, boolean stopping, Placement placement, Duration rendezvousTimeout) {

    /** A job whose replicas have written nothing yet. */
    public static final ReplicaMarks NONE = new ReplicaMarks(Map.of(), false, null);

    public ReplicaMarks {
        replicas = Map.copyOf(replicas);
    }

    public ReplicaMarks(Map<String, Mark> replicas, boolean stopping, Placement placement) {
        this(replicas, stopping, placement, null);
    }

    public Mark of(String replicaId) {
        return replicas.getOrDefault(replicaId, Mark.NOT_STARTED);
    }

    /**
     * @param exitCode   the replica's exit code (128 + n for signal n), or {@code null} while it runs
     * @param stopped    it ended after the job's outcome was decided: it was stopped, it did not fail
     * @param startedAt  when its launcher started it, if known
     * @param finishedAt when it ended, if known
     */
    public record Mark(boolean started, Integer exitCode, boolean stopped, Instant startedAt, Instant finishedAt,
                String lastWords) {

        static final Mark NOT_STARTED = new Mark(false, null, false);

        public Mark(boolean started, Integer exitCode, boolean stopped) {
            this(started, exitCode, stopped, null, null, null);
        }

        public Mark(boolean started, Integer exitCode, boolean stopped, Instant startedAt, Instant finishedAt) {
            this(started, exitCode, stopped, startedAt, finishedAt, null);
        }

        /** A replica that failed on its own: its log's last words go into its reason ({@code LastWords}). */
        boolean failedOnItsOwn() {
            return exitCode != null && exitCode != 0 && !stopped;
        }

        public Mark withLastWords(String words) {
            return new Mark(started, exitCode, stopped, startedAt, finishedAt, words);
        }

        Mark merge(Mark other) {
            return new Mark(started || other.started, exitCode != null ? exitCode : other.exitCode,
                    stopped || other.stopped, startedAt != null ? startedAt : other.startedAt,
                    finishedAt != null ? finishedAt : other.finishedAt, lastWords != null ? lastWords : other.lastWords);
        }
    }
}
