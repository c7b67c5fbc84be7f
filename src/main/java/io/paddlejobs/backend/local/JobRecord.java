package io.paddlejobs.backend.local;

import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import java.util.Map;

/** What is kept on disk of a job: enough to show it after a restart and to stop its leftovers. */
record JobRecord(JobPlan plan, JobStatus status, Map<String, ReplicaProcess.ProcessRef> processes) {
}
