package io.paddlejobs.webhooks;

import io.paddlejobs.job.JobKey;
import java.util.ArrayList;
import java.util.List;

/**
 * One job's webhooks as its outbox file keeps them: the job's secret (generated at submit, shown in
 * that answer only), how far its life was handled, and its deliveries, pending and done. Written whole
 * in one atomic step, so a delivery and the change it tells of are written together or not at all.
 *
 * @param secret    the job's own secret; {@code null} when its namespace's signs its deliveries
 * @param statusUrl the job's status URL, as its submitter reached the service
 * @param gone      the job was deleted: the file goes once nothing is pending
 */
record JobOutbox(String namespace, String name, String secret, String statusUrl, Handled handled,
                 List<Delivery> deliveries, boolean gone) {

    JobOutbox {
        deliveries = List.copyOf(deliveries);
    }

    JobKey key() {
        return new JobKey(namespace, name);
    }

    boolean pending() {
        return deliveries.stream().anyMatch(d -> d.state() == Delivery.State.PENDING);
    }

    JobOutbox handled(Handled now, List<Delivery> added, int keep) {
        List<Delivery> all = new ArrayList<>(deliveries);
        all.addAll(added);
        return new JobOutbox(namespace, name, secret, statusUrl, now, trimmed(all, keep), gone);
    }

    JobOutbox replaced(Delivery delivery) {
        List<Delivery> all = new ArrayList<>(deliveries);
        all.replaceAll(d -> d.id().equals(delivery.id()) ? delivery : d);
        return new JobOutbox(namespace, name, secret, statusUrl, handled, all, gone);
    }

    JobOutbox deleted() {
        return new JobOutbox(namespace, name, secret, statusUrl, handled, deliveries, true);
    }

    /** The oldest deliveries that are done go first; a pending one is never dropped. */
    private static List<Delivery> trimmed(List<Delivery> all, int keep) {
        List<Delivery> kept = new ArrayList<>(all);
        for (int i = 0; kept.size() > keep && i < kept.size(); ) {
            if (kept.get(i).state() != Delivery.State.PENDING) {
                kept.remove(i);
            } else {
                i++;
            }
        }
        return kept;
    }
}
