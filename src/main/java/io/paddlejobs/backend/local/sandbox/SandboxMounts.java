package io.paddlejobs.backend.local.sandbox;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a confined replica sees of the file system: bubblewrap mounts in the order they apply, each
 * over what the earlier ones put there. A device or a directory that another part needs is one more
 * call at the right place in {@link Sandbox#mounts}.
 */
public final class SandboxMounts {

    /** One bubblewrap mount, or a directory made for one ({@code --dir}). */
    public record Mount(String option, String source, String target) {

        public List<String> args() {
            if (option.equals("--dir")) {
                return List.of("--perms", "0755", "--dir", target);
            }
            return source == null ? List.of(option, target) : List.of(option, source, target);
        }
    }

    private final List<Mount> mounts = new ArrayList<>();
    /** The directories emptied so far: what is mounted inside them needs its way there made. */
    private final List<Path> emptied = new ArrayList<>();
    /** The directories made on the way so far: made once. */
    private final Set<Path> made = new HashSet<>();

    public SandboxMounts system(String option, String target) {
        mounts.add(new Mount(option, null, target));
        return this;
    }

    public SandboxMounts readOnly(String source, Path target) {
        reach(target);
        mounts.add(new Mount("--ro-bind", source, target.toString()));
        return this;
    }

    /** Devices included: the whole system in mode none, device nodes a job is given. */
    public SandboxMounts withDevices(String source, Path target) {
        reach(target);
        mounts.add(new Mount("--dev-bind", source, target.toString()));
        return this;
    }

    SandboxMounts writable(Path path) {
        reach(path);
        mounts.add(new Mount("--bind", path.toString(), path.toString()));
        return this;
    }

    /** An empty {@code tmpfs} over the directory: whatever it held is out of sight. */
    SandboxMounts empty(Path dir) {
        reach(dir);
        mounts.add(new Mount("--tmpfs", null, dir.toString()));
        emptied.add(dir);
        return this;
    }

    public List<Mount> list() {
        return List.copyOf(mounts);
    }

    /**
     * Makes the directories between the deepest emptied one and the target, searchable by all:
     * bubblewrap run as root would make them {@code 0700}, and the job user could not reach its
     * own directories by their absolute paths ({@code PADDLE_JOB_DATA}).
     */
    private void reach(Path target) {
        emptied.stream().filter(dir -> target.startsWith(dir) && !target.equals(dir))
                .max(Comparator.comparingInt(Path::getNameCount)).ifPresent(dir -> {
                    for (int names = dir.getNameCount() + 1; names < target.getNameCount(); names++) {
                        Path way = target.getRoot().resolve(target.subpath(0, names));
                        if (made.add(way)) {
                            mounts.add(new Mount("--dir", null, way.toString()));
                        }
                    }
                });
    }
}
