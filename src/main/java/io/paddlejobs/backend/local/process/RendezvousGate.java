package io.paddlejobs.backend.local.process;

import io.paddlejobs.backend.Rendezvous;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Holds a collective job's trainers other than 0 until trainer 0 accepts connections on its master
 * port ({@code PADDLE_MASTER}: its store, or its launcher's rendezvous). Paddle's store client that finds
 * nobody listening waits a fixed 3 s before it tries again, and started side by side the other ranks
 * usually come a moment before rank 0 listens; started after, they connect at once. A trainer 0 that does
 * not listen in time fails its job in words, where the others would otherwise wait for it for good.
 *
 * <p>A trainer 0 that ends before it listens (a job whose ranks never meet) lets the others start.
 */
public final class RendezvousGate {

    /** What to do after one look. */
    public enum Verdict { WAIT, RELEASE, GIVE_UP, FAIL }

    private static final String TRAINER_0 = Replica.idOf(Role.TRAINER, 0);

    private final InetSocketAddress master;
    private final Instant deadline;
    private final Duration timeout;
    private final Clock clock;

    private RendezvousGate(InetSocketAddress master, Duration timeout, Clock clock) {
        this.master = master;
        this.timeout = timeout;
        this.clock = clock;
        this.deadline = clock.instant().plus(timeout);
    }

    /** Whether a plan's trainers meet at trainer 0 ({@link Rendezvous#applies}). */
    public static boolean applies(JobPlan plan) {
        return Rendezvous.applies(plan);
    }

    /** The replicas to start at once: all, or for a gated job trainer 0 alone. */
    public static List<Replica> startFirst(JobPlan plan) {
        return applies(plan) ? plan.replicas().stream().filter(r -> r.id().equals(TRAINER_0)).toList() : plan.replicas();
    }

    /** The replicas that wait for trainer 0 to listen. */
    public static List<Replica> held(JobPlan plan) {
        return applies(plan) ? plan.replicas().stream().filter(r -> !r.id().equals(TRAINER_0)).toList() : List.of();
    }

    public static RendezvousGate of(JobPlan plan, Duration timeout, Clock clock) {
        Replica first = plan.replicasOf(Role.TRAINER).get(0);
        return new RendezvousGate(new InetSocketAddress(first.host(), plan.ports().first()), timeout, clock);
    }

    public Verdict look(Map<String, ReplicaStatus> replicas) {
        ReplicaStatus first = replicas.get(TRAINER_0);
        if (first == null) {
            return Verdict.GIVE_UP;
        }
        if (first.state() == ReplicaState.SUCCEEDED) {
            return Verdict.RELEASE; // it never needed the others: they run as they would have
        }
        if (first.state() != ReplicaState.RUNNING) {
            return first.state() == ReplicaState.PENDING ? Verdict.WAIT : Verdict.GIVE_UP;
        }
        if (PserverWatch.accepts(master)) {
            return Verdict.RELEASE;
        }
        return clock.instant().isBefore(deadline) ? Verdict.WAIT : Verdict.FAIL;
    }

    /** Why the job fails when trainer 0 has not listened in time. */
    public String failure() {
        return Rendezvous.notListening(master.getHostString(), master.getPort(), timeout,
                "paddlejobs.rendezvous-listen-timeout");
    }
}
