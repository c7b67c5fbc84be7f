package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a replica's {@code sh -c <entry point>} is started. Always as the leader of its own process
 * group (so that it can be stopped with everything it started). With bubblewrap, also in its own
 * PID namespace: nothing it starts, not even through {@code setsid}, outlives it, and it sees no
 * other process. Where tenants share the machine ({@code confineFiles}), also with a read-only view
 * of the system, a private {@code /tmp}, and of the data root only its job's working directory and its
 * namespace's storage, both writable: it cannot read or change another job's files, records or logs.
 */
final class Sandbox {

    /** {@code auto}: bubblewrap where it works; {@code bubblewrap}: required; {@code off}: plain processes. */
    enum Mode { AUTO, BUBBLEWRAP, OFF }

    private static final Logger log = LoggerFactory.getLogger(Sandbox.class);
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final String BWRAP = "bwrap";

    private final boolean bubblewrap;
    private final boolean confineFiles;
    private final Path dataRoot;
    private final List<Path> hiddenFiles;

    private Sandbox(boolean bubblewrap, boolean confineFiles, Path dataRoot, List<Path> hiddenFiles) {
        this.bubblewrap = bubblewrap;
        this.confineFiles = confineFiles;
        this.dataRoot = dataRoot.toAbsolutePath().normalize();
        this.hiddenFiles = hiddenFiles.stream().map(path -> path.toAbsolutePath().normalize()).toList();
    }

    /**
     * @param confineFiles whether jobs of different tenants share this machine (token and kubernetes modes)
     * @param hiddenFiles  files of the service's own a replica must not read (the token file)
     * @throws IllegalStateException when bubblewrap is required and does not work here
     */
    static Sandbox create(Mode mode, boolean confineFiles, Path dataRoot, List<Path> hiddenFiles) {
        boolean works = mode != Mode.OFF && bubblewrapWorks();
        if (mode == Mode.BUBBLEWRAP && !works) {
            throw new IllegalStateException("paddlejobs.local.sandbox=bubblewrap, but 'bwrap' is not installed or cannot "
                    + "create namespaces here (install the bubblewrap package, or allow unprivileged user namespaces)");
        }
        return new Sandbox(works, confineFiles && works, dataRoot, hiddenFiles);
    }

    /**
     * Where tenants share this machine and replicas cannot be confined, refuses to go on unless the
     * operator said, with {@code paddlejobs.local.allow-shared-files=true}, that this is accepted.
     */
    void requireIsolation(boolean tenants, boolean allowShared, String securityMode) {
        if (tenants && !confineFiles && !allowShared) {
            throw new IllegalStateException(("paddlejobs.security.mode=%s with the local backend, but replicas cannot be "
                    + "sandboxed here (paddlejobs.local.sandbox=off, or bubblewrap missing or not working): every tenant's "
                    + "jobs could read and change the others' files. Install bubblewrap, or set "
                    + "paddlejobs.local.allow-shared-files=true to accept that.").formatted(securityMode));
        }
    }

    /** Whether a replica cannot see other jobs' files. */
    boolean confinesFiles() {
        return confineFiles;
    }

    boolean usesBubblewrap() {
        return bubblewrap;
    }

    /** Where HOME points for a replica: its working directory when the real home is read-only to it. */
    String home(Path workDir) {
        return confineFiles ? workDir.toAbsolutePath().normalize().toString() : null;
    }

    List<String> command(String entryPoint, Path workDir, Path storageDir) {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            command.add(SETSID.toString());
        }
        if (bubblewrap) {
            String work = workDir.toAbsolutePath().normalize().toString();
            command.add(BWRAP);
            if (confineFiles) {
                String storage = storageDir.toAbsolutePath().normalize().toString();
                command.addAll(List.of("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                        "--tmpfs", dataRoot.toString(), "--bind", work, work, "--bind", storage, storage,
                        "--unshare-ipc"));
                for (Path hidden : hiddenFiles) {
                    if (Files.isRegularFile(hidden)) {
                        command.addAll(List.of("--ro-bind", "/dev/null", hidden.toString()));
                    }
                }
            } else {
                command.addAll(List.of("--dev-bind", "/", "/", "--proc", "/proc"));
            }
            command.addAll(List.of("--unshare-pid", "--chdir", work, "--"));
        }
        command.addAll(List.of("sh", "-c", entryPoint));
        return command;
    }

    private static boolean bubblewrapWorks() {
        try {
            Process probe = new ProcessBuilder(BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                    "--unshare-pid", "--", "true").redirectErrorStream(true).start();
            String output = new String(probe.getInputStream().readAllBytes());
            if (!probe.waitFor(10, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                return false;
            }
            if (probe.exitValue() != 0) {
                log.info("bubblewrap cannot sandbox replicas here: {}", output.strip());
            }
            return probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
