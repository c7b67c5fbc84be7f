package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.backend.kubernetes.KubernetesJobBackend;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The namespace's data claim as last found usable, for a while: without it, every submit would
 * wait for one more API round trip (a GET of the claim) before its first create, a third of the
 * submit's time on the mock server. A refusal is not kept, so a claim the operator just fixed is
 * seen at once; a claim deleted within {@link #FOR} shows as pods waiting to mount it, which the
 * status explains (FailedMount).
 */
public final class CheckedClaims implements KubernetesJobBackend.DataClaims {

    static final Duration FOR = Duration.ofSeconds(30);

    private record Checked(DataClaim claim, Instant at) {
    }

    private final Function<String, DataClaim> check;
    private final Clock clock;
    private final Map<String, Checked> checked = new ConcurrentHashMap<>();

    public CheckedClaims(Function<String, DataClaim> check, Clock clock) {
        this.check = check;
        this.clock = clock;
    }

    @Override
    public DataClaim check(String namespace) {
        Instant now = clock.instant();
        Checked last = checked.get(namespace);
        if (last != null && last.at().plus(FOR).isAfter(now)) {
            return last.claim();
        }
        DataClaim claim = check.apply(namespace); // throws when unusable: nothing kept
        checked.put(namespace, new Checked(claim, now));
        return claim;
    }
}
