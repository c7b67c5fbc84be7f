package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;

/**
 * Slurm decides where replicas run only when it starts the job, so the plan names each host by
 * a token, {@code @pserver-0@}, that the batch step replaces with the node's address before any
 * replica starts ({@link Placement}).
 */
public final class SlurmSite implements Site {

    private final SlurmProperties properties;

    public SlurmSite(SlurmProperties properties) {
        this.properties = properties;
    }

    public static String token(String replicaId) {
        return "@" + replicaId + "@";
    }

    @Override
    public String host(String namespace, String job, Role role, int index) {
        return token(Replica.idOf(role, index));
    }

    @Override
    public String dataPath(String namespace, String job) {
        return properties.directories().storageDir(namespace).toAbsolutePath().normalize().toString();
    }
}
