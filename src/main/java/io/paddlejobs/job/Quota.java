package io.paddlejobs.job;

/**
 * What the jobs of one namespace may hold at once when a caller submits into it; 0 means no limit.
 * The security layer hands in the caller's quota; {@link JobService#submit} admits against it.
 *
 * @param maxUnfinishedJobs pending and running jobs the namespace may hold, the new one included
 * @param maxGpusInUse      GPUs its pending and running jobs may hold, the new one's included
 */
public record Quota(int maxUnfinishedJobs, int maxGpusInUse) {

    public static final Quota NONE = new Quota(0, 0);

    public Quota {
        if (maxUnfinishedJobs < 0 || maxGpusInUse < 0) {
            throw new IllegalArgumentException("a quota is 0 (no limit) or more");
        }
    }

    /** Whether any limit applies, so that admission has anything to count. */
    boolean limitsAnything() {
        return maxUnfinishedJobs > 0 || maxGpusInUse > 0;
    }
}
