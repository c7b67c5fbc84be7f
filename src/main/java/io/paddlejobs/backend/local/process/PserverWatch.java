package io.paddlejobs.backend.local.process;

import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Watches that every running pserver of a job starts listening on its first port in time.
 * Paddle's trainers wait for their pservers without any deadline (fleet's wait_server_ready
 * loops forever), so a pserver that never listens would otherwise hang its job for good; the
 * Kubernetes backend's wait-for-pservers init container keeps the same promise there.
 *
 * <p>A pserver that has ended is no longer watched (ending is judged by its exit code), and
 * only the first port is probed: a Paddle 2.x fleet pserver listens on that one alone.
 */
public final class PserverWatch {

    private static final int CONNECT_TIMEOUT_MILLIS = 200;

    private final Map<String, InetSocketAddress> waitingFor = new LinkedHashMap<>();
    private final Instant deadline;
    private final Duration timeout;
    private final Clock clock;

    public PserverWatch(JobPlan plan, Duration timeout, Clock clock) {
        for (Replica pserver : plan.replicasOf(Role.PSERVER)) {
            waitingFor.put(pserver.id(), new InetSocketAddress(pserver.host(), plan.ports().first()));
        }
        this.timeout = timeout;
        this.clock = clock;
        this.deadline = clock.instant().plus(timeout);
    }

    /** Whether there is nothing (left) to watch. */
    public boolean isDone() {
        return waitingFor.isEmpty();
    }

    /**
     * One look: forgets the pservers that listen or have ended, and returns why the job must fail
     * when one is still silent at the deadline.
     */
    public Optional<String> check(Map<String, ReplicaStatus> replicas) {
        waitingFor.entrySet().removeIf(entry -> {
            ReplicaStatus status = replicas.get(entry.getKey());
            return status == null || status.state() != ReplicaState.RUNNING || accepts(entry.getValue());
        });
        if (waitingFor.isEmpty() || clock.instant().isBefore(deadline)) {
            return Optional.empty();
        }
        var silent = waitingFor.entrySet().iterator().next();
        String id = silent.getKey();
        InetSocketAddress address = silent.getValue();
        return Optional.of(("%s did not accept connections on %s:%d within %ds (paddlejobs.local.pserver-listen-timeout); "
                + "its trainers would wait for it forever. See its log: role=pserver&index=%s").formatted(
                id, address.getHostString(), address.getPort(), timeout.toSeconds(), id.substring(id.indexOf('-') + 1)));
    }

    /** Whether something listens at the address: a connect that is made, then closed at once. */
    static boolean accepts(InetSocketAddress address) {
        try (Socket socket = new Socket()) {
            socket.connect(address, CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
