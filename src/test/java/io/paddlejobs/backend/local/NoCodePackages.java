package io.paddlejobs.backend.local;

import io.paddlejobs.job.CodePackages;
import java.io.IOException;
import java.nio.file.Path;

/** For a backend built without the package store: there are no code packages. */
enum NoCodePackages implements CodePackages {
    INSTANCE;

    @Override
    public boolean exists(String namespace, String id) {
        return false;
    }

    @Override
    public void unpackInto(String namespace, String id, Path directory) throws IOException {
        throw new IOException("no code packages are configured");
    }
}
