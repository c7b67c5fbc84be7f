package io.paddlejobs.job;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The code packages users upload ({@code POST /packages}), as a backend needs them: a package
 * belongs to the namespace that uploaded it and is named by its content ({@code sha256:<hex>}).
 */
public interface CodePackages {

    /** Whether this namespace uploaded the package. */
    boolean exists(String namespace, String id);

    /**
     * Unpacks the namespace's package into a directory, which must exist. Nothing is written
     * outside it: the archive was checked when uploaded and is checked again while unpacking.
     *
     * @throws IOException when it cannot: its message is one bounded sentence for the job's status,
     *                     naming the package and why, and no path of the service's host
     */
    void unpackInto(String namespace, String id, Path directory) throws IOException;

    /**
     * How a replica elsewhere fetches the namespace's package from this service over HTTP, with no
     * token: an unguessable address bound to the namespace and the package, and the limits the
     * archive was checked against when uploaded.
     */
    default Fetch fetch(String namespace, String id) {
        throw new UnsupportedOperationException("these packages are not served for fetching");
    }

    /**
     * @param path             the address relative to the service's own URL ({@code /packages/...})
     * @param maxArchiveBytes  the archive is at most this large
     * @param maxUnpackedBytes and unpacks to at most this much
     */
    record Fetch(String path, long maxArchiveBytes, long maxUnpackedBytes) {
    }
}
