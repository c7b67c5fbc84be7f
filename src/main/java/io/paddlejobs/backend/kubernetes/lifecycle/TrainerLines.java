package io.paddlejobs.backend.kubernetes.lifecycle;

import io.paddlejobs.job.JobKey;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each trainer pod last printed, as the service's own reads of its log have seen it: the
 * metrics follower reads every running trainer's log from its start and follows it, so the times
 * cost no API call of their own. A pod's log read again from its start (the follower's stream broke,
 * a user followed it too) brings back bytes already seen: only bytes past the furthest offset any read
 * has reached count as new. A service that has just started sees every pod's log as new once; what
 * it heard then is as much a sign of life as anything after. Held in memory, per replica of the
 * service, and forgotten with the job.
 */
public final class TrainerLines {

    private final Clock clock;
    private final Map<Trainer, Heard> heard = new ConcurrentHashMap<>();

    private record Trainer(JobKey job, int index) {
    }

    /** How far into the pod's log the reads have got, and when they last got further. */
    private record Heard(String pod, long offset, Instant at) {
    }

    public TrainerLines(Clock clock) {
        this.clock = clock;
    }

    /** {@code out} as it notes what it passes on of this trainer pod's log, read from its start. */
    public OutputStream noting(JobKey job, int index, String pod, OutputStream out) {
        Trainer trainer = new Trainer(job, index);
        return new FilterOutputStream(out) {
            private long offset;

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                reached(trainer, pod, ++offset);
            }

            @Override
            public void write(byte[] bytes, int from, int length) throws IOException {
                out.write(bytes, from, length);
                offset += length;
                reached(trainer, pod, offset);
            }
        };
    }

    private void reached(Trainer trainer, String pod, long offset) {
        heard.compute(trainer, (key, before) -> before != null && before.pod().equals(pod) && before.offset() >= offset
                ? before : new Heard(pod, offset, clock.instant()));
    }

    /** When the pod last printed something a read saw, or {@code null} if none has (or it is another pod's). */
    Instant lastPrinted(JobKey job, int index, String pod) {
        Heard last = heard.get(new Trainer(job, index));
        return last != null && last.pod().equals(pod) ? last.at() : null;
    }

    void forget(JobKey job) {
        heard.keySet().removeIf(trainer -> trainer.job().equals(job));
    }
}
