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
     */
    void unpackInto(String namespace, String id, Path directory) throws IOException;
}
