package io.paddlejobs.webhooks;

import io.paddlejobs.job.JobKey;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which due deliveries start now, fairly between the namespaces that share the senders: namespaces take
 * turns, one delivery each, starting after the one that went first last time; each has at most
 * {@code perNamespace} in flight, so one tenant's receivers that hang hold only its own share of the
 * senders; each receiver has at most one in flight and none while it rests ({@link ReceiverHealth}); and
 * within a job, each webhook's deliveries go in order. Only the webhooks thread uses it.
 */
final class FairDispatch {

    /** A delivery to send now, its receiver and job taken until {@link #ended}. */
    record Start(JobKey job, Delivery delivery, String receiver) {
    }

    private final int senders;
    private final int perNamespace;
    private final ReceiverHealth receivers;
    private final Retries retries;
    private final Set<String> inFlight = new HashSet<>();
    private final Set<String> busyReceivers = new HashSet<>();
    private final Map<String, Integer> byNamespace = new HashMap<>();
    /** The namespace that went first last time; the next turn begins after it. */
    private String wentFirst = "";

    /** A pending delivery that is given up now, without another attempt, and why. */
    record GiveUp(JobKey job, Delivery delivery, String why) {
    }

    FairDispatch(int senders, int perNamespace, ReceiverHealth receivers, Retries retries) {
        this.senders = senders;
        this.perNamespace = Math.min(perNamespace, senders);
        this.receivers = receivers;
        this.retries = retries;
    }

    /**
     * The pending deliveries not in flight that are given up without another attempt: those past
     * {@code give-up-after} (a resting receiver's may never have been tried), and a deleted job's whose
     * receiver is failing (a deleted job's delivery gets one more attempt, and none to a receiver that
     * is not answering anyway).
     */
    List<GiveUp> givenUp(Collection<JobOutbox> outboxes, Instant now) {
        List<GiveUp> given = new ArrayList<>();
        for (JobOutbox job : outboxes) {
            for (Delivery delivery : job.deliveries()) {
                if (delivery.state() != Delivery.State.PENDING || inFlight.contains(delivery.id())) {
                    continue;
                }
                boolean failing = receivers.failing(Subscriptions.receiver(delivery.url()));
                if (retries.expired(delivery, now)) {
                    given.add(new GiveUp(job.key(), delivery, "not sent: paddlejobs.webhooks.give-up-after passed"
                            + (failing ? " while its receiver kept failing" : "")));
                } else if (job.gone() && failing) {
                    given.add(new GiveUp(job.key(), delivery, "not sent: the job was deleted and its receiver is failing"));
                }
            }
        }
        return given;
    }

    /** The deliveries of {@code outboxes} to start now, each marked in flight. */
    List<Start> due(Collection<JobOutbox> outboxes, Instant now) {
        TreeMap<String, Deque<Start>> waiting = waitingByNamespace(outboxes, now);
        List<Start> started = new ArrayList<>();
        List<String> order = new ArrayList<>(waiting.tailMap(wentFirst, false).keySet());
        order.addAll(waiting.headMap(wentFirst, true).keySet());
        boolean any = true;
        while (any && inFlight.size() < senders) {
            any = false;
            for (String namespace : order) {
                if (inFlight.size() >= senders) {
                    break;
                }
                Start next = nextFor(namespace, waiting.get(namespace));
                if (next != null) {
                    if (started.isEmpty()) {
                        wentFirst = namespace;
                    }
                    take(next);
                    started.add(next);
                    any = true;
                }
            }
        }
        return started;
    }

    /** The delivery's attempt is over: its sender, receiver and namespace's share are free again. */
    void ended(Start start, boolean delivered, Instant at) {
        inFlight.remove(start.delivery().id());
        busyReceivers.remove(start.receiver());
        byNamespace.merge(start.job().namespace(), -1, Integer::sum);
        byNamespace.remove(start.job().namespace(), 0);
        receivers.attempted(start.receiver(), delivered, at);
    }

    boolean inFlight(Delivery delivery) {
        return inFlight.contains(delivery.id());
    }

    /** The namespace's next delivery whose receiver is free, if it may have another in flight. */
    private Start nextFor(String namespace, Deque<Start> candidates) {
        if (byNamespace.getOrDefault(namespace, 0) >= perNamespace) {
            return null;
        }
        while (!candidates.isEmpty()) {
            Start candidate = candidates.poll();
            if (!busyReceivers.contains(candidate.receiver())) {
                return candidate;
            }
        }
        return null;
    }

    private void take(Start start) {
        inFlight.add(start.delivery().id());
        busyReceivers.add(start.receiver());
        byNamespace.merge(start.job().namespace(), 1, Integer::sum);
    }

    /** Each namespace's deliveries that could go now, oldest first: the first pending one of each job's webhook. */
    private TreeMap<String, Deque<Start>> waitingByNamespace(Collection<JobOutbox> outboxes, Instant now) {
        Map<String, List<Start>> byNs = new HashMap<>();
        for (JobOutbox job : outboxes) {
            Set<String> urlsSeen = new HashSet<>();
            for (Delivery delivery : job.deliveries()) {
                if (delivery.state() != Delivery.State.PENDING || !urlsSeen.add(delivery.url())) {
                    continue; // a later event waits for the earlier one to the same webhook
                }
                String receiver = Subscriptions.receiver(delivery.url());
                if (!inFlight.contains(delivery.id()) && !delivery.nextAttemptAt().isAfter(now)
                        && !busyReceivers.contains(receiver) && receivers.ready(receiver, now)) {
                    byNs.computeIfAbsent(job.namespace(), ns -> new ArrayList<>())
                            .add(new Start(job.key(), delivery, receiver));
                }
            }
        }
        TreeMap<String, Deque<Start>> waiting = new TreeMap<>();
        byNs.forEach((namespace, starts) -> {
            starts.sort(Comparator.comparing((Start s) -> s.delivery().nextAttemptAt())
                    .thenComparing(s -> s.delivery().createdAt()));
            waiting.put(namespace, new ArrayDeque<>(starts));
        });
        return waiting;
    }
}
