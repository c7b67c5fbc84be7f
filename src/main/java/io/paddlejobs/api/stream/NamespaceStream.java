package io.paddlejobs.api.stream;

import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobQuery;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One {@code GET /jobs?watch=true} stream: a {@code job} event (the list's line for it) for every
 * change of a job the query matches, {@code deleted} when a job went or stopped matching, and
 * {@code end} when its time is up. Which jobs matched is known from when the watch was opened (the
 * backend's jobs then) and from what it has sent since: a job that never matched is not said to have
 * stopped at each of its changes. A client that opens the watch first and lists after (as the job
 * list page does) misses nothing. A job removed is always said to be gone (the client may have
 * listed it from the history).
 */
final class NamespaceStream extends EventStream {

    private final JobQuery query;
    private final SerializedJobs serialized;
    private final Function<JobKey, String> statusUrls;
    private final Integer timeoutSeconds;
    /** The names of the jobs that match as far as the client knows; only the feed's calls, one at a time, touch it. */
    private final Set<String> matching;

    /**
     * @param matchingNow    the names of the jobs that match as the watch opens
     * @param timeoutSeconds when the stream ends by itself; null: when the client goes
     */
    NamespaceStream(JobQuery query, Set<String> matchingNow, SseEmitter emitter, SerializedJobs serialized,
                    Function<JobKey, String> statusUrls, Integer timeoutSeconds) {
        super(emitter);
        this.matching = new HashSet<>(matchingNow);
        this.query = query;
        this.serialized = serialized;
        this.statusUrls = statusUrls;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Without a first write the response, and so the client's open, would wait for the first change. */
    @Override
    void sendFirst() throws IOException {
        emitter.send(SseEmitter.event().comment("watching"));
    }

    @Override
    void watch(JobFeed feed, String user) {
        feed.watchNamespace(query.namespace(), this, user);
    }

    @Override
    void unwatch(JobFeed feed) {
        feed.unwatchNamespace(query.namespace(), this);
    }

    @Override
    public void changed(JobKey key, Job job) {
        writing(() -> {
            if (job != null && query.matches(job)) {
                matching.add(key.name());
                String line = serialized.summary(job, statusUrls);
                emitter.send(SseEmitter.event().name("job").id(key.name()).data(line, MediaType.APPLICATION_JSON));
            } else if (matching.remove(key.name()) || job == null) {
                emitter.send(SseEmitter.event().name("deleted").id(key.name())
                        .data(Map.of("name", key.name(), "namespace", key.namespace()), MediaType.APPLICATION_JSON));
            }
        });
    }

    @Override
    boolean everySecond(int seconds) throws IOException {
        if (timeoutSeconds != null && seconds >= timeoutSeconds) {
            emitter.send(SseEmitter.event().name("end").data("timeout"));
            end();
            return true;
        }
        return false;
    }
}
