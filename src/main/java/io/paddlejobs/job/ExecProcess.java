package io.paddlejobs.job;

import java.io.InputStream;
import java.util.concurrent.CompletableFuture;

/**
 * A command run in a replica of a held job ({@link JobBackend#exec}): its output (standard output and error
 * together) as it comes, and its exit code once it ends and its output is read.
 */
public interface ExecProcess {

    /** Its standard output and error, merged; ends when the command and whatever it started have closed them. */
    InputStream output();

    /** Completes with its exit code (128 + n for a kill by signal n). */
    CompletableFuture<Integer> exit();

    /** Stops it and what it started (a client that went away); nothing once it has ended. */
    void stop();
}
