package io.paddlejobs.webhooks;

import io.paddlejobs.job.ChangedKeys;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.Tenancy;
import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.RestartBackoff;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

/**
 * Signed webhooks of jobs' lives, at least once. A job gets an outbox file when it is submitted with
 * {@code notify} or into a namespace with subscriptions, before the backend creates it. The backend's
 * change feed ({@link JobService#onChange}, the one {@code JobFeed} reads) then tells of every change;
 * each look turns what happened since the outbox's {@link Handled} state into deliveries
 * ({@link LifeEvents}), and writes them and the new state in one step before the change counts as
 * handled. Deliveries are sent on a bounded pool shared fairly by the namespaces ({@link FairDispatch}),
 * the oldest first for each job and webhook, at most one at a time to each receiver and none to one that
 * keeps failing while it rests ({@link ReceiverHealth}), and tried again with a doubling wait until they
 * are answered with a 2xx or {@code give-up-after} has passed. A deleted job's pending deliveries get one
 * more attempt each (none to a receiver that is failing), then are given up.
 */
@Service
public class Webhooks implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Webhooks.class);

    private final JobService jobs;
    private final WebhooksProperties settings;
    private final AllowedTargets targets;
    private final Outbox outbox;
    private final Sender sender;
    private final Subscriptions subscriptions;
    private final Retries retries;
    private final Clock clock = Clock.systemUTC();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread webhooks = new Thread(task, "webhooks");
        webhooks.setDaemon(true);
        return webhooks;
    });
    private final ExecutorService senders;
    // Only the webhooks thread touches these.
    private final FairDispatch dispatch;

    @Autowired
    public Webhooks(JobService jobs, WebhooksProperties settings, Tenancy tenancy, JsonMapper json) {
        this(jobs, settings, new AllowedTargets(settings.allowedHosts(), tenancy.shared(), java.net.InetAddress::getAllByName),
                json);
    }

    Webhooks(JobService jobs, WebhooksProperties settings, AllowedTargets targets, JsonMapper json) {
        this.jobs = jobs;
        this.settings = settings;
        this.targets = targets;
        this.subscriptions = new Subscriptions(settings, json);
        this.outbox = new Outbox(settings.dir(), json);
        this.sender = new Sender(WebhooksProperties.CONNECT_TIMEOUT, settings.readTimeout(), WebhooksProperties.MAX_ANSWER,
                clock, (SSLSocketFactory) SSLSocketFactory.getDefault());
        RestartBackoff backoff = new RestartBackoff(settings.retryBackoff(), settings.maxRetryBackoff());
        this.retries = new Retries(backoff, settings.giveUpAfter());
        this.dispatch = new FairDispatch(settings.senders(), settings.sendersPerNamespace(), new ReceiverHealth(backoff),
                retries);
        this.senders = Executors.newFixedThreadPool(settings.senders(), task -> {
            Thread sending = new Thread(task, "webhooks-send");
            sending.setDaemon(true);
            return sending;
        });
        thread.execute(() -> look(outbox.all().stream().map(JobOutbox::key).toList(), true));
        jobs.onChange(new ChangedKeys(thread, keys -> look(keys, false)));
        thread.scheduleWithFixedDelay(guarded(this::dispatch), 1, 1, TimeUnit.SECONDS);
    }

    /** What a submit gets: the job's secret to show once ({@code null}: none), and how to undo it when nothing was created. */
    public record Registration(String secret, Runnable abandon) {

        static final Registration NONE = new Registration(null, () -> { });
    }

    /** @throws WebhookRefusedException naming the first {@code notify} URL this service may not send to */
    public void check(JobRequest request) {
        List<JobRequest.Notify> webhooks = request.notifications().webhooks();
        for (int i = 0; i < webhooks.size(); i++) {
            String refusal = targets.refusal(webhooks.get(i).url());
            if (refusal != null) {
                throw new WebhookRefusedException("notify[" + i + "].url", webhooks.get(i).url(), refusal);
            }
        }
    }

    /**
     * Readies the outbox of a job about to be submitted: called before the backend creates it, so no
     * change of it can come before its outbox is there. {@link Registration#abandon} when it was not created.
     */
    public Registration register(JobKey key, JobRequest request, String statusUrl) {
        check(request);
        boolean notify = !request.notifications().webhooks().isEmpty();
        if (!notify && !subscriptions.has(key.namespace())) {
            return Registration.NONE;
        }
        JobOutbox before = outbox.of(key).orElse(null);
        if (before != null && !before.gone()) {
            return Registration.NONE; // the job is there (an identical resubmit): it keeps its outbox
        }
        String secret = notify && !subscriptions.hasSecret(key.namespace()) ? Signatures.newSecret() : null;
        List<Delivery> stillPending = before == null ? List.of()
                : before.deliveries().stream().filter(d -> d.state() == Delivery.State.PENDING).toList();
        outbox.update(key, old -> new JobOutbox(key.namespace(), key.name(), secret, statusUrl, Handled.NOTHING,
                stillPending, false));
        return new Registration(secret, () -> outbox.update(key, created -> before));
    }

    /** The job's deliveries, oldest first; none when it has no webhooks. */
    public List<Delivery> deliveries(JobKey key) {
        return outbox.of(key).map(JobOutbox::deliveries).orElse(List.of());
    }

    private void look(List<JobKey> keys, boolean startUp) {
        for (JobKey key : keys) {
            JobOutbox known = outbox.of(key).orElse(null);
            if (known == null || known.gone()) {
                continue;
            }
            try {
                lookAt(known, jobs.find(key).orElse(null), startUp);
            } catch (RuntimeException e) {
                // Not handled: looked at again on the next tick, so the change is not lost.
                log.warn("Webhooks: could not handle a change of job {}/{}: {}", key.namespace(), key.name(), e.toString());
                thread.schedule(() -> look(List.of(key), false), 5, TimeUnit.SECONDS);
            }
        }
        dispatch();
    }

    private void lookAt(JobOutbox known, Job job, boolean startUp) {
        JobKey key = known.key();
        if (job == null) {
            if (known.handled().phase() == null && !startUp) {
                return; // registered, and the backend is creating it now
            }
            outbox.update(key, o -> o.pending() ? o.deleted() : null);
            return;
        }
        LifeEvents.Step step = LifeEvents.between(known.handled(), job.status());
        if (step.handled().equals(known.handled())) {
            return;
        }
        Instant now = clock.instant();
        List<Delivery> added = new ArrayList<>();
        for (JobEvent event : step.events()) {
            String body = subscriptions.body(event, job, known.statusUrl(), now);
            for (JobRequest.Notify target : job.plan().spec().notifications().webhooks()) {
                if (target.eventsOrDefault().contains(event)) {
                    added.add(Subscriptions.delivery(event, target.url(),
                            known.secret() != null ? Delivery.SecretOf.JOB : Delivery.SecretOf.NAMESPACE, body, now));
                }
            }
            for (JobRequest.Notify target : subscriptions.of(key.namespace())) {
                if (target.eventsOrDefault().contains(event)) {
                    added.add(Subscriptions.delivery(event, target.url(), Delivery.SecretOf.NAMESPACE, body, now));
                }
            }
        }
        outbox.update(key, o -> o.handled(step.handled(), added, WebhooksProperties.KEEP_DELIVERIES));
    }

    /** Gives up what may no longer be tried, then starts every delivery that is due, within the senders' bounds. */
    private void dispatch() {
        Instant now = clock.instant();
        for (FairDispatch.GiveUp given : dispatch.givenUp(outbox.all(), now)) {
            giveUp(given.job(), given.delivery().gaveUp(now, given.why()));
        }
        for (FairDispatch.Start start : dispatch.due(outbox.all(), now)) {
            senders.execute(() -> send(start));
        }
    }

    private void giveUp(JobKey key, Delivery gaveUp) {
        log.warn("Webhooks: gave up on {} of job {}/{} to {}: {}", gaveUp.event().wireName(), key.namespace(), key.name(),
                gaveUp.url(), gaveUp.attempts().get(gaveUp.attempts().size() - 1).answer());
        outbox.update(key, o -> o == null ? null : kept(o.replaced(gaveUp)));
    }

    /** A deleted job's outbox goes once nothing of it is pending. */
    private static JobOutbox kept(JobOutbox outbox) {
        return outbox.gone() && !outbox.pending() ? null : outbox;
    }

    private void send(FairDispatch.Start start) {
        JobKey key = start.job();
        Delivery delivery = start.delivery();
        Delivery.Try attempt = null;
        try {
            attempt = attempt(key, delivery);
            boolean gone = outbox.of(key).map(JobOutbox::gone).orElse(true);
            // A deleted job's delivery gets this one attempt more, no further retry.
            Delivery after = delivery.after(attempt, gone ? null : retries.next(delivery, attempt.at()));
            if (after.state() == Delivery.State.GAVE_UP) {
                log.warn("Webhooks: gave up on {} of job {}/{} to {} after {} attempts", delivery.event().wireName(),
                        key.namespace(), key.name(), delivery.url(), after.attempts().size());
            }
            outbox.update(key, o -> o == null ? null : kept(o.replaced(after)));
        } catch (RuntimeException e) {
            log.warn("Webhooks: could not record an attempt of {} to {}: {}", delivery.id(), delivery.url(), e.toString());
        } finally {
            boolean delivered = attempt != null && attempt.delivered();
            Instant ended = clock.instant();
            thread.execute(() -> {
                dispatch.ended(start, delivered, ended);
                dispatch();
            });
        }
    }

    private Delivery.Try attempt(JobKey key, Delivery delivery) {
        AllowedTargets.Checked checked = targets.check(delivery.url());
        String secret = delivery.signedWith() == Delivery.SecretOf.JOB
                ? outbox.of(key).map(JobOutbox::secret).orElse(null) : subscriptions.secret(key.namespace());
        if (checked.refusal() != null || secret == null) {
            return new Delivery.Try(clock.instant(), null, "not sent: " + (checked.refusal() != null
                    ? "the URL " + checked.refusal() : "the namespace has no secret (paddlejobs.webhooks.secrets)"), 0);
        }
        return sender.attempt(delivery, secret, checked.addresses());
    }

    private static Runnable guarded(Runnable tick) {
        return () -> {
            try {
                tick.run();
            } catch (RuntimeException e) {
                log.warn("Webhooks: could not send what is due: {}", e.toString());
            }
        };
    }

    @Override
    @PreDestroy
    public void close() throws InterruptedException {
        thread.shutdownNow();
        senders.shutdownNow();
        thread.awaitTermination(2, TimeUnit.SECONDS);
        senders.awaitTermination(2, TimeUnit.SECONDS);
    }
}
