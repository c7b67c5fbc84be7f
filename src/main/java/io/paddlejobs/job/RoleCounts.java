package io.paddlejobs.job;

import java.util.Collection;

/** How the replicas of one role stand. {@code stopped} replicas count in none of the four states. */
public record RoleCounts(int desired, int pending, int running, int succeeded, int failed) {

    public static RoleCounts of(int desired, Collection<ReplicaStatus> replicas) {
        int pending = 0;
        int running = 0;
        int succeeded = 0;
        int failed = 0;
        for (ReplicaStatus replica : replicas) {
            switch (replica.state()) {
                case PENDING -> pending++;
                case RUNNING -> running++;
                case SUCCEEDED -> succeeded++;
                case FAILED -> failed++;
                case STOPPED -> { }
            }
        }
        return new RoleCounts(desired, pending, running, succeeded, failed);
    }
}
