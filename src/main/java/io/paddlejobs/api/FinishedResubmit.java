package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import java.util.ArrayList;
import java.util.List;

/**
 * An identical resubmit of a job that has already finished returns that job (a retry must not start
 * a second one), but says so: nothing was started, and how to run it again.
 */
final class FinishedResubmit {

    private FinishedResubmit() {
    }

    static JobView warn(JobView view, Job job) {
        List<String> warnings = new ArrayList<>(view.warnings());
        warnings.add(("job %s already exists with this spec and has finished (%s): this is that job, and nothing was "
                + "started; to run it again, delete it first, or submit it under another name")
                .formatted(view.name(), job.status().phase().wireName()));
        return new JobView(view.name(), view.namespace(), view.statusUrl(), warnings, view.plan(), view.status(), null);
    }
}
