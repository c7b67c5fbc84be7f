package io.paddlejobs.backend.local;

import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;

/**
 * Every replica gets its own loopback address (all of 127.0.0.0/8 reaches this machine on
 * Linux), so every pserver can listen on the same port, as the env contract promises:
 * pservers at 127.0.0.1, 127.0.0.2, ..., trainers at 127.1.0.1, 127.1.0.2, ...
 */
final class LoopbackSite implements Site {

    private static final int HOSTS_PER_BLOCK = 250;

    private final LocalProperties properties;

    LoopbackSite(LocalProperties properties) {
        this.properties = properties;
    }

    @Override
    public String host(String namespace, String job, Role role, int index) {
        int second = role == Role.PSERVER ? 0 : 1;
        return "127.%d.%d.%d".formatted(second, index / HOSTS_PER_BLOCK, index % HOSTS_PER_BLOCK + 1);
    }

    @Override
    public String dataPath(String namespace, String job) {
        return properties.directories().storageDir(namespace).toAbsolutePath().normalize().toString();
    }

    /**
     * Not in the namespace's storage, which its jobs may change: in the service's own tree, of which
     * only the job's directory is the job's ({@link JobWorkspace}).
     */
    @Override
    public String checkpointPath(String namespace, String job) {
        return JobWorkspace.checkpointDir(properties.dataRoot(), namespace, job).toString();
    }
}
