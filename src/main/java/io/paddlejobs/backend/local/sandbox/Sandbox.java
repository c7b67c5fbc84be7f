package io.paddlejobs.backend.local.sandbox;

import io.paddlejobs.backend.local.JobWorkspace;
import io.paddlejobs.backend.local.process.HostPrograms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How a replica's {@code sh -c <entry point>} is started. Always as the leader of its own process
 * group (so that it can be stopped with everything it started), and with at most
 * {@code max-processes} processes of its user ({@code RLIMIT_NPROC}, set by {@code prlimit}). With
 * bubblewrap, also in its own PID and user namespace with no capabilities: nothing it starts, not even
 * through {@code setsid}, outlives it, it sees no other process, and it can neither mount nor
 * unmount. Where tenants share the machine ({@code confineFiles}), also with a read-only view of the
 * system, a private {@code /tmp}, none of the service's own directories ({@link Hidden}), and of the
 * data root only its own working directory, its job's package (read-only), its namespace's storage
 * and its job's checkpoints ({@link JobWorkspace}). When the service runs as root, a confined replica
 * runs as its namespace's user ({@link JobUsers}), never as root: root without capabilities still owns
 * the host's files and its kernel settings under {@code /proc/sys}, and is exempt from the process
 * limit; as its namespace's own user, the limit holds for the namespace as a whole.
 */
public final class Sandbox {

    /** {@code auto}: bubblewrap where it works; {@code bubblewrap}: required; {@code off}: plain processes. */
    public enum Mode { AUTO, BUBBLEWRAP, OFF }

    /**
     * What a confined replica must not see of the service: files (the token file), masked by an
     * empty one, and whole directories (its home, working and log directories), covered by an empty
     * {@code tmpfs}. A directory inside another one listed, and {@code /}, are left out.
     */
    public record Hidden(List<Path> files, List<Path> directories) {

        public static final Hidden NOTHING = new Hidden(List.of(), List.of());

        public Hidden {
            files = files.stream().map(Sandbox::absolute).distinct().toList();
            List<Path> dirs = directories.stream().map(Sandbox::absolute).filter(dir -> dir.getNameCount() > 0)
                    .distinct().sorted(Comparator.comparingInt(Path::getNameCount)).toList();
            directories = dirs.stream()
                    .filter(dir -> dirs.stream().noneMatch(other -> !other.equals(dir) && dir.startsWith(other))).toList();
        }
    }

    /** A replica's command line and the environment to start it with. */
    public record Start(List<String> command, Map<String, String> environment) {
    }

    /** Read by the dynamic loader and libc of the programs that set the sandbox up, so they are set only inside it. */
    private static final Set<String> READ_BY_LOADER = Set.of("GCONV_PATH", "GETCONF_DIR", "HOSTALIASES",
            "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS");

    private final Path setsid = HostPrograms.find("setsid");
    private final Path bwrap;
    private final Path setpriv;
    private final Path envProgram;
    private final Path prlimit;
    private final boolean bubblewrap;
    private final boolean confineFiles;
    private final Path dataRoot;
    private final Hidden hidden;
    /** Who confined replicas run as: a user per namespace when the service runs as root, else the service's. */
    private final JobUsers users;
    /** At most this many processes of a replica's user; 0: no limit. */
    private final int maxProcesses;

    private Sandbox(Mode mode, boolean confineFiles, Path dataRoot, Hidden hidden, JobUsers users, int maxProcesses) {
        this.bwrap = HostPrograms.find("bwrap");
        this.setpriv = HostPrograms.find("setpriv");
        this.envProgram = HostPrograms.find("env");
        this.prlimit = HostPrograms.find("prlimit");
        this.dataRoot = absolute(dataRoot);
        this.hidden = hidden;
        this.users = confineFiles && HostPrograms.runningAsRoot() ? users : JobUsers.serviceUser();
        this.confineFiles = confineFiles;
        this.maxProcesses = maxProcesses;
        this.bubblewrap = mode != Mode.OFF && works();
    }

    /**
     * @param confineFiles whether jobs of different tenants share this machine (token and kubernetes modes)
     * @param users        who confined replicas run as when the service runs as root
     * @param maxProcesses at most this many processes of a replica's user (0: no limit)
     * @throws IllegalStateException when bubblewrap is required and does not work here
     */
    public static Sandbox create(Mode mode, boolean confineFiles, Path dataRoot, Hidden hidden, JobUsers users,
                          int maxProcesses) {
        Sandbox sandbox = new Sandbox(mode, confineFiles, dataRoot, hidden, users, maxProcesses);
        if (mode == Mode.BUBBLEWRAP && !sandbox.bubblewrap) {
            throw new IllegalStateException("paddlejobs.local.sandbox=bubblewrap, but 'bwrap' is not installed or cannot "
                    + "create namespaces here (install the bubblewrap package and allow unprivileged user namespaces; "
                    + "as root, util-linux's 'setpriv' and 'prlimit' are needed too)");
        }
        return sandbox;
    }

    /**
     * Where tenants share this machine and replicas cannot be confined, refuses to go on unless the
     * operator said, with {@code paddlejobs.allow-shared-files=true}, that this is accepted.
     */
    public void requireIsolation(boolean tenants, boolean allowShared, String securityMode) {
        if (tenants && !confinesFiles() && !allowShared) {
            throw new IllegalStateException(("paddlejobs.security.mode=%s with the local backend, but replicas cannot be "
                    + "sandboxed here (paddlejobs.local.sandbox=off, or bubblewrap missing or not working): every tenant's "
                    + "jobs could read and change the others' files. Install bubblewrap, or set "
                    + "paddlejobs.allow-shared-files=true to accept that.").formatted(securityMode));
        }
    }

    /** Whether a replica cannot see other jobs' files. */
    public boolean confinesFiles() {
        return confineFiles && bubblewrap;
    }

    /**
     * Whether one tenant's replicas are kept from another's secrets: there are no tenants, or each
     * namespace's replicas run as a user of their own (the service as root, with bubblewrap), who can read
     * neither another user's process environment nor the service's own mode-0600 files (the secret store).
     * Replicas that run as the service's user could read both.
     */
    public boolean keepsTenantsSecretsApart() {
        return !confineFiles || users().perNamespace();
    }

    public boolean usesBubblewrap() {
        return bubblewrap;
    }

    /** Who confined replicas run as: per namespace, or (where the service is not root, or nothing confines) the service's user. */
    public JobUsers users() {
        return bubblewrap ? users : JobUsers.serviceUser();
    }

    /** What holds a replica's processes, in words for the start-up line. */
    public String processLimit() {
        if (maxProcesses == 0 || prlimit == null) {
            return "no process limit (" + (prlimit == null ? "prlimit is not installed" : "max-processes=0") + ")";
        }
        if (users().perNamespace()) {
            return "at most " + maxProcesses + " processes per namespace";
        }
        return HostPrograms.runningAsRoot() ? "no process limit (replicas run as root, which no limit holds)"
                : "at most " + maxProcesses + " processes of this user's, counted with the service's own threads "
                + "and every other job's";
    }

    /** Whether the dynamic loader reads the variable: such a variable is set only for the replica's shell. */
    public static boolean readByLoader(String name) {
        return name.startsWith("LD_") || READ_BY_LOADER.contains(name);
    }

    /** Where HOME points for a replica: its working directory when the real home is hidden from it. */
    public String home(Path workDir) {
        return confinesFiles() ? absolute(workDir).toString() : null;
    }

    /**
     * The command and environment for one replica. Variables the loader reads ({@code LD_PRELOAD}
     * and the like) are set only for the replica's shell: the programs that build the sandbox run
     * outside it, some as root, and must not load what a job names.
     *
     * @param user who it runs as (from {@link JobWorkspace}); null: the service's user
     * @param gpus the indexes of the replica's GPUs: confined, it sees their device nodes and no other GPU's
     */
    public Start start(String entryPoint, JobWorkspace.ReplicaDirectories dirs, JobUsers.JobUser user, Map<String, String> env,
                List<Integer> gpus) {
        JobUsers.JobUser asUser = users().perNamespace() ? user : null;
        List<String> command = new ArrayList<>();
        if (setsid != null) {
            command.add(setsid.toString());
        }
        if (!bubblewrap) {
            command.addAll(limited());
            command.addAll(List.of("sh", "-c", entryPoint));
            return new Start(command, env);
        }
        Map<String, String> outside = new HashMap<>(env);
        Map<String, String> inside = new TreeMap<>();
        env.forEach((name, value) -> {
            if (readByLoader(name)) {
                outside.remove(name);
                inside.put(name, value);
            }
        });
        command.addAll(bubblewrap());
        mounts(dirs, gpus).forEach(mount -> command.addAll(mount.args()));
        if (confinesFiles()) {
            command.add("--unshare-ipc");
        }
        if (asUser == null) {
            inside.forEach((name, value) -> command.addAll(List.of("--setenv", name, value)));
        }
        command.addAll(List.of("--unshare-pid", "--chdir", absolute(dirs.work()).toString(), "--"));
        // Limited before the user changes: the change itself then fails when the namespace has no process left.
        command.addAll(limited());
        command.addAll(asJobUser(asUser));
        if (asUser != null && !inside.isEmpty()) { // set once it is the job user: setpriv itself runs as root
            command.add(envProgram.toString());
            inside.forEach((name, value) -> command.add(name + "=" + value));
        }
        command.addAll(List.of("sh", "-c", entryPoint));
        return new Start(command, outside);
    }

    /** What a replica sees of the file system, in the order bubblewrap applies it. */
    public List<SandboxMounts.Mount> mounts(JobWorkspace.ReplicaDirectories dirs, List<Integer> gpus) {
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
        if (dirs.code() != null) {
            mounts.readOnly(absolute(dirs.code()).toString(), absolute(dirs.code()));
        }
        return mounts.writable(absolute(dirs.work())).writable(absolute(dirs.storage()))
                .writable(absolute(dirs.checkpoints())).list();
    }

    /**
     * bubblewrap. As the service's own user: in a user namespace of its own, with no capabilities.
     * As root, where a user namespace would map the replica to root on the host (which, capabilities
     * or not, owns the host's files and {@code /proc/sys}): as root, which then becomes the job user.
     */
    private List<String> bubblewrap() {
        return !users.perNamespace() ? List.of(bwrap.toString(), "--unshare-user", "--cap-drop", "ALL")
                : List.of(bwrap.toString());
    }

    /**
     * At most {@code max-processes} processes of the replica's user (soft and hard limit: it cannot
     * raise them). The kernel counts them per real user, threads included.
     */
    private List<String> limited() {
        return maxProcesses == 0 || prlimit == null ? List.of()
                : List.of(prlimit.toString(), "--nproc=" + maxProcesses + ":" + maxProcesses, "--");
    }

    /**
     * Inside the sandbox, as root: the job user with no capabilities (not even to pass on) and no
     * way to gain any ({@code no_new_privs}: setuid programs do not raise it). A user namespace it
     * makes itself gets no power over the sandbox's mounts, which are locked to it.
     */
    private List<String> asJobUser(JobUsers.JobUser user) {
        return user == null ? List.of() : List.of(setpriv.toString(), "--reuid=" + user.uid(),
                "--regid=" + user.gid(), "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                "--no-new-privs", "--");
    }

    /** Whether a sandbox as {@link #start} builds it can be made here. */
    private boolean works() {
        if (bwrap == null || (users.perNamespace() && (setpriv == null || envProgram == null || prlimit == null))) {
            return false;
        }
        List<String> probe = new ArrayList<>(bubblewrap());
        probe.addAll(List.of("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--"));
        probe.addAll(limited());
        probe.addAll(asJobUser(users.perNamespace() ? users.probe() : null));
        probe.add("true");
        return HostPrograms.succeeds(probe);
    }

    public static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }
}
