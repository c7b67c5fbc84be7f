package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How a replica's {@code sh -c <entry point>} is started. Always as the leader of its own process
 * group (so that it can be stopped with everything it started). With bubblewrap, also in its own
 * PID and user namespace with no capabilities: nothing it starts, not even through {@code setsid},
 * outlives it, it sees no other process, and it can neither mount nor unmount. Where tenants share
 * the machine ({@code confineFiles}), also with a read-only view of the system, a private
 * {@code /tmp}, none of the service's own directories ({@link Hidden}), and of the data root only its
 * job's working directory and its namespace's storage, both writable. When the service runs as root,
 * a confined replica runs as {@link JobUser}, never as root: root without capabilities still owns
 * the host's files and its kernel settings under {@code /proc/sys}. Its working directory and its
 * namespace's storage are then the job user's ({@link #handOver}); the data root's directories must
 * be searchable by it for absolute paths to them ({@code PADDLE_JOB_DATA}) to work.
 */
final class Sandbox {

    /** {@code auto}: bubblewrap where it works; {@code bubblewrap}: required; {@code off}: plain processes. */
    enum Mode { AUTO, BUBBLEWRAP, OFF }

    /**
     * What a confined replica must not see of the service: files (the token file), masked by an
     * empty one, and whole directories (its home, working and log directories), covered by an empty
     * {@code tmpfs}. A directory inside another one listed, and {@code /}, are left out.
     */
    record Hidden(List<Path> files, List<Path> directories) {

        static final Hidden NOTHING = new Hidden(List.of(), List.of());

        Hidden {
            files = files.stream().map(Sandbox::absolute).distinct().toList();
            List<Path> dirs = directories.stream().map(Sandbox::absolute).filter(dir -> dir.getNameCount() > 0)
                    .distinct().sorted(Comparator.comparingInt(Path::getNameCount)).toList();
            directories = dirs.stream()
                    .filter(dir -> dirs.stream().noneMatch(other -> !other.equals(dir) && dir.startsWith(other))).toList();
        }
    }

    /** Who confined replicas run as when the service runs as root. */
    record JobUser(int uid, int gid) {
    }

    /** A replica's command line and the environment to start it with. */
    record Start(List<String> command, Map<String, String> environment) {
    }

    /** Read by the dynamic loader and libc of the programs that set the sandbox up, so they are set only inside it. */
    private static final Set<String> READ_BY_LOADER = Set.of("GCONV_PATH", "GETCONF_DIR", "HOSTALIASES",
            "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS");

    private final Path setsid = HostPrograms.find("setsid");
    private final Path bwrap;
    private final Path setpriv;
    private final Path envProgram;
    private final boolean bubblewrap;
    private final boolean confineFiles;
    private final Path dataRoot;
    private final Hidden hidden;
    /** Set when the service runs as root and confines replicas: they run as this user. */
    private final JobUser jobUser;

    private Sandbox(Mode mode, boolean confineFiles, Path dataRoot, Hidden hidden, JobUser jobUser) {
        this.bwrap = HostPrograms.find("bwrap");
        this.setpriv = HostPrograms.find("setpriv");
        this.envProgram = HostPrograms.find("env");
        this.dataRoot = absolute(dataRoot);
        this.hidden = hidden;
        this.jobUser = confineFiles && HostPrograms.runningAsRoot() ? jobUser : null;
        this.confineFiles = confineFiles;
        this.bubblewrap = mode != Mode.OFF && works();
    }

    /**
     * @param confineFiles whether jobs of different tenants share this machine (token and kubernetes modes)
     * @param jobUser      who confined replicas run as when the service runs as root
     * @throws IllegalStateException when bubblewrap is required and does not work here
     */
    static Sandbox create(Mode mode, boolean confineFiles, Path dataRoot, Hidden hidden, JobUser jobUser) {
        Sandbox sandbox = new Sandbox(mode, confineFiles, dataRoot, hidden, jobUser);
        if (mode == Mode.BUBBLEWRAP && !sandbox.bubblewrap) {
            throw new IllegalStateException("paddlejobs.local.sandbox=bubblewrap, but 'bwrap' is not installed or cannot "
                    + "create namespaces here (install the bubblewrap package and allow unprivileged user namespaces; "
                    + "as root, util-linux's 'setpriv' is needed too)");
        }
        return sandbox;
    }

    /**
     * Where tenants share this machine and replicas cannot be confined, refuses to go on unless the
     * operator said, with {@code paddlejobs.local.allow-shared-files=true}, that this is accepted.
     */
    void requireIsolation(boolean tenants, boolean allowShared, String securityMode) {
        if (tenants && !confinesFiles() && !allowShared) {
            throw new IllegalStateException(("paddlejobs.security.mode=%s with the local backend, but replicas cannot be "
                    + "sandboxed here (paddlejobs.local.sandbox=off, or bubblewrap missing or not working): every tenant's "
                    + "jobs could read and change the others' files. Install bubblewrap, or set "
                    + "paddlejobs.local.allow-shared-files=true to accept that.").formatted(securityMode));
        }
    }

    /** Whether a replica cannot see other jobs' files. */
    boolean confinesFiles() {
        return confineFiles && bubblewrap;
    }

    boolean usesBubblewrap() {
        return bubblewrap;
    }

    /** Who confined replicas run as, when not as the service's own user. */
    JobUser jobUser() {
        return bubblewrap ? jobUser : null;
    }

    /** Where HOME points for a replica: its working directory when the real home is hidden from it. */
    String home(Path workDir) {
        return confinesFiles() ? absolute(workDir).toString() : null;
    }

    /**
     * Gives a job's working directory (all of it: the unpacked package too) and its namespace's
     * storage directory to the user its replicas run as, so that they may write there.
     */
    void handOver(Path workDir, Path storageDir) throws IOException {
        handOver(workDir, storageDir, null);
    }

    /**
     * Also the job's checkpoint directory under {@code storageDir} ({@code checkpoints/<job>}) and the
     * {@code checkpoints} directory above it, which the service made: the job's user writes its checkpoints there.
     */
    void handOver(Path workDir, Path storageDir, Path checkpoints) throws IOException {
        JobUser user = jobUser();
        if (user == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(workDir)) { // walk does not follow links
            for (Path file : (Iterable<Path>) files::iterator) {
                chown(file, user);
            }
        }
        chown(storageDir, user);
        if (checkpoints != null) {
            chown(checkpoints.getParent(), user);
            chown(checkpoints, user);
        }
    }

    /**
     * The command and environment for one replica. Variables the loader reads ({@code LD_PRELOAD}
     * and the like) are set only for the replica's shell: the programs that build the sandbox run
     * outside it, some as root, and must not load what a job names.
     */
    Start start(String entryPoint, Path workDir, Path storageDir, Map<String, String> env) {
        return start(entryPoint, workDir, storageDir, env, List.of());
    }

    /** @param gpus the indexes of the replica's GPUs: confined, it sees their device nodes and no other GPU's */
    Start start(String entryPoint, Path workDir, Path storageDir, Map<String, String> env, List<Integer> gpus) {
        List<String> command = new ArrayList<>();
        if (setsid != null) {
            command.add(setsid.toString());
        }
        if (!bubblewrap) {
            command.addAll(List.of("sh", "-c", entryPoint));
            return new Start(command, env);
        }
        Map<String, String> outside = new HashMap<>(env);
        Map<String, String> inside = new TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("LD_") || READ_BY_LOADER.contains(name)) {
                outside.remove(name);
                inside.put(name, value);
            }
        });
        command.addAll(bubblewrap());
        mounts(absolute(workDir), absolute(storageDir), gpus).forEach(mount -> command.addAll(mount.args()));
        if (confinesFiles()) {
            command.add("--unshare-ipc");
        }
        if (jobUser == null) {
            inside.forEach((name, value) -> command.addAll(List.of("--setenv", name, value)));
        }
        command.addAll(List.of("--unshare-pid", "--chdir", absolute(workDir).toString(), "--"));
        command.addAll(asJobUser());
        if (jobUser != null && !inside.isEmpty()) { // set once it is the job user: setpriv itself runs as root
            command.add(envProgram.toString());
            inside.forEach((name, value) -> command.add(name + "=" + value));
        }
        command.addAll(List.of("sh", "-c", entryPoint));
        return new Start(command, outside);
    }

    /** What a replica sees of the file system, in the order bubblewrap applies it. */
    List<SandboxMounts.Mount> mounts(Path work, Path storage) {
        return mounts(work, storage, List.of());
    }

    List<SandboxMounts.Mount> mounts(Path work, Path storage, List<Integer> gpus) {
        var mounts = new SandboxMounts();
        if (!confineFiles) {
            return mounts.withDevices("/", Path.of("/")).system("--proc", "/proc").list();
        }
        mounts.readOnly("/", Path.of("/")).system("--dev", "/dev");
        GpuDeviceNodes.HOST.present(gpus).forEach(node -> mounts.withDevices("/dev/" + node, Path.of("/dev", node)));
        mounts.system("--proc", "/proc").empty(Path.of("/tmp"));
        hidden.directories().stream().filter(Files::isDirectory).forEach(mounts::empty);
        mounts.empty(dataRoot);
        hidden.files().stream().filter(Files::isRegularFile).forEach(file -> mounts.readOnly("/dev/null", file));
        return mounts.writable(work).writable(storage).list();
    }

    /**
     * bubblewrap. As the service's own user: in a user namespace of its own, with no capabilities.
     * As root, where a user namespace would map the replica to root on the host (which, capabilities
     * or not, owns the host's files and {@code /proc/sys}): as root, which then becomes the job user.
     */
    private List<String> bubblewrap() {
        return jobUser == null ? List.of(bwrap.toString(), "--unshare-user", "--cap-drop", "ALL")
                : List.of(bwrap.toString());
    }

    /**
     * Inside the sandbox, as root: the job user with no capabilities (not even to pass on) and no
     * way to gain any ({@code no_new_privs}: setuid programs do not raise it). A user namespace it
     * makes itself gets no power over the sandbox's mounts, which are locked to it.
     */
    private List<String> asJobUser() {
        return jobUser == null ? List.of() : List.of(setpriv.toString(), "--reuid=" + jobUser.uid(),
                "--regid=" + jobUser.gid(), "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                "--no-new-privs", "--");
    }

    /** Whether a sandbox as {@link #start} builds it can be made here. */
    private boolean works() {
        if (bwrap == null || (jobUser != null && (setpriv == null || envProgram == null))) {
            return false;
        }
        List<String> probe = new ArrayList<>(bubblewrap());
        probe.addAll(List.of("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--"));
        probe.addAll(asJobUser());
        probe.add("true");
        return HostPrograms.succeeds(probe);
    }

    private static void chown(Path path, JobUser user) throws IOException {
        Files.setAttribute(path, "unix:uid", user.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(path, "unix:gid", user.gid(), LinkOption.NOFOLLOW_LINKS);
    }

    static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }
}
