package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.job.ExecProcess;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A command run in a replica of a held local job ({@link ReplicaLauncher#exec}), as the API streams it. */
record HeldCommand(ReplicaProcess process) implements ExecProcess {

    @Override
    public InputStream output() {
        return process.output();
    }

    @Override
    public CompletableFuture<Integer> exit() {
        return process.exit();
    }

    /** At once, with what it started: its client is gone, and nobody reads what it would print on its way out. */
    @Override
    public void stop() {
        process.stop(Duration.ZERO);
    }
}
