package io.paddlejobs.job;

import java.util.Collection;

/**
 * How the replicas of one role stand: each replica in exactly one of the five states, so that they add
 * up to {@code desired} once every replica exists ({@code stopped}: stopped by the service, as a job's
 * pservers are once its trainers succeeded, or every replica by a cancel).
 */
public record RoleCounts(int desired, int pending, int running, int succeeded, int failed, int stopped) {

    /** Counts with none stopped (records written before {@code stopped} was counted read as these). */
    public RoleCounts(int desired, int pending, int running, int succeeded, int failed) {
        this(desired, pending, running, succeeded, failed, 0);
    }

    public static RoleCounts of(int desired, Collection<ReplicaStatus> replicas) {
        int pending = 0;
        int running = 0;
        int succeeded = 0;
        int failed = 0;
        int stopped = 0;
        for (ReplicaStatus replica : replicas) {
            switch (replica.state()) {
                case PENDING -> pending++;
                case RUNNING -> running++;
                case SUCCEEDED -> succeeded++;
                case FAILED -> failed++;
                case STOPPED -> stopped++;
            }
        }
        return new RoleCounts(desired, pending, running, succeeded, failed, stopped);
    }
}
