package io.paddlejobs.job;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where a page of the newest-first list ended: the creation time and name of its last job. The next
 * page starts after that position, not after that job, so it does not matter whether the job is still
 * there or still matches the filter when the next page is asked for.
 */
record ListPosition(Instant createdAt, String name) {

    /**
     * The list's order: newest first, then by name. The one place it is decided: backends list in
     * any order. A job whose creation time is not known yet (a Kubernetes object still without
     * one) counts as the oldest.
     */
    static final Comparator<Job> ORDER = Comparator
            .comparing(ListPosition::createdAtOf, Comparator.reverseOrder())
            .thenComparing(job -> job.plan().name());

    static ListPosition of(Job job) {
        return new ListPosition(createdAtOf(job), job.plan().name());
    }

    /** Whether the job comes after this position in the list's order. */
    boolean isBefore(Job job) {
        int byTime = createdAtOf(job).compareTo(createdAt);
        return byTime < 0 || (byTime == 0 && job.plan().name().compareTo(name) > 0);
    }

    private static Instant createdAtOf(Job job) {
        return Objects.requireNonNullElse(job.status().createdAt(), Instant.EPOCH);
    }

    String encode() {
        String text = createdAt.getEpochSecond() + "." + createdAt.getNano() + "/" + name;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws InvalidContinueTokenException for anything this service did not hand out */
    static ListPosition decode(String token) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int slash = text.indexOf('/');
            int dot = text.indexOf('.');
            if (slash < 0 || dot < 0 || dot > slash || slash == text.length() - 1) {
                throw new InvalidContinueTokenException();
            }
            Instant at = Instant.ofEpochSecond(Long.parseLong(text.substring(0, dot)),
                    Long.parseLong(text.substring(dot + 1, slash)));
            return new ListPosition(at, text.substring(slash + 1));
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            throw new InvalidContinueTokenException();
        }
    }
}
