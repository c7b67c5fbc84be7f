package io.paddlejobs.security;

import io.paddlejobs.job.Quota;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may call the service ({@code paddlejobs.security.*}).
 *
 * @param mode        {@code none}: everyone may do everything (the service listens on loopback by default);
 *                    {@code token}: bearer tokens from {@code tokenFile};
 *                    {@code kubernetes}: the cluster's tokens, and its RBAC on {@code batch/jobs}
 * @param tokenFile   YAML or properties file of token hashes, users and their namespaces (token mode)
 * @param kubernetes  how mode {@code kubernetes} asks the cluster
 * @param limits      the limits of every caller, unless their token entry says otherwise
 * @param corsOrigins origins whose pages may call the API from a browser; none by default
 * @param allowedHosts host names (besides localhost and IP addresses) the service answers to; in mode
 *                     {@code none} every other {@code Host} is refused, in the other modes names are
 *                     checked only when some are listed here
 * @param baseUrl      the service's URL as its users reach it ({@code https://jobs.example.org}); status URLs
 *                     and {@code Location} are built from it, else from the request's (checked) {@code Host}
 * @param defaultNamespace where requests go that name no namespace in mode {@code none} (the other modes
 *                     take a caller's default from their token entry or {@code kubernetes.default-namespaces})
 */
@Validated
@ConfigurationProperties("paddlejobs.security")
public record SecurityProperties(
        @DefaultValue("none") Mode mode,
        Path tokenFile,
        @Valid @DefaultValue Limits limits,
        @DefaultValue List<String> corsOrigins,
        @Valid @DefaultValue Kubernetes kubernetes,
        @DefaultValue List<String> allowedHosts,
        URI baseUrl,
        @DefaultValue("default") @Pattern(regexp = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?") String defaultNamespace) {

    /** Whether the {@code Host} allowlist applies: always in mode none, where nothing else protects the service. */
    public boolean checksHosts() {
        return mode == Mode.NONE || !allowedHosts.isEmpty();
    }

    public enum Mode {
        NONE, TOKEN, KUBERNETES
    }

    /**
     * The mode as these properties bind it, for what must know it before they are bound (conditions).
     * Only the one key is bound, with the same default as {@link #mode}: binding the whole record here
     * cost every {@link ConditionalOnSecurityMode} at start-up a full, validated bind.
     */
    static Mode modeOf(Binder binder) {
        return binder.bind("paddlejobs.security.mode", Mode.class).orElse(Mode.NONE);
    }

    /**
     * Mode {@code kubernetes}. The cluster is the one {@code paddlejobs.kubernetes.*} names (its
     * {@code master-url} and timeouts), else found the standard way.
     *
     * @param cacheTtl          how long a TokenReview's and a SubjectAccessReview's answer, allow or
     *                          deny, is kept: a revoked token or role takes up to this long to bite,
     *                          and a busy caller costs the API server a review per this long
     * @param defaultNamespaces user name (as the TokenReview gives it) to the namespace its requests
     *                          go to when they name none; without one they must name one
     */
    public record Kubernetes(@DefaultValue("10s") Duration cacheTtl,
                             @DefaultValue Map<String, String> defaultNamespaces) {

        public Kubernetes {
            if (cacheTtl.isNegative()) {
                throw new IllegalArgumentException("paddlejobs.security.kubernetes.cache-ttl must not be negative");
            }
            defaultNamespaces = defaultNamespaces == null ? Map.of() : Map.copyOf(defaultNamespaces);
        }
    }

    /**
     * Limits on what one caller may submit; 0 means no limit.
     *
     * @param submissionsPerMinute submits and dry runs a caller may make per minute (refused submits and identical retries do not count)
     * @param maxUnfinishedJobs    pending and running jobs a namespace may hold when a caller submits into it
     * @param maxGpusInUse         GPUs the unfinished jobs of a namespace may hold, the new one included
     */
    public record Limits(@DefaultValue("0") @Min(0) int submissionsPerMinute,
                         @DefaultValue("0") @Min(0) int maxUnfinishedJobs,
                         @DefaultValue("0") @Min(0) int maxGpusInUse) {

        public static final Limits NONE = new Limits(0, 0, 0);

        public Quota quota() {
            return new Quota(maxUnfinishedJobs, maxGpusInUse);
        }
    }
}
