package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.backend.kubernetes.PackageFetchProperties;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.planning.JobPlan;
import java.net.URI;
import java.time.Duration;

/**
 * A job's code package as its pods fetch it: from {@code url}, by the fetch image, within the
 * timeout, at most {@code maxArchiveBytes} that unpack to at most {@code maxUnpackedBytes}.
 */
public record ShippedCode(String id, URI url, long maxArchiveBytes, long maxUnpackedBytes, String image, Duration timeout) {

    /** Where a job's packages come from; {@link #NONE} when the service's URL in the cluster is not configured. */
    public record Source(PackageFetchProperties settings, CodePackages packages) {

        public static final Source NONE = new Source(PackageFetchProperties.unset(), null);

        public boolean configured() {
            return settings.serviceUrl() != null && packages != null;
        }

        /** The plan's package, or {@code null} when it has none. */
        public ShippedCode of(JobPlan plan) {
            String id = plan.spec().code().codePackage();
            if (id == null) {
                return null;
            }
            if (!configured()) {
                throw new IllegalStateException("a job with a package reached a backend that cannot ship it");
            }
            CodePackages.Fetch fetch = packages.fetch(plan.namespace(), id);
            String base = settings.serviceUrl().toString().replaceAll("/+$", "");
            return new ShippedCode(id, URI.create(base + fetch.path()), fetch.maxArchiveBytes(),
                    fetch.maxUnpackedBytes(), settings.fetchImage(), settings.fetchTimeout());
        }
    }
}
