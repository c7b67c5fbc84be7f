package io.paddlejobs.backend;

import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's secrets for the local and Slurm backends: {@code <store>/<namespace>/<secret>/<key>},
 * the layout of a Kubernetes Secret mounted as files. A job names secrets of its own namespace only (a
 * name of another's is simply not there), and the service reads a value when a replica starts and when
 * it masks a log, never into a plan, a record, a status or a log line of its own.
 *
 * <p>A file is used only if it is a regular file reached without a link, owned by the service's user
 * and readable by no one else: a value another user could read or replace is no secret. One final
 * newline is not part of the value ({@code echo s3cret > key} writes {@code s3cret}); a NUL cannot be
 * in an environment variable.
 */
public final class SecretStore {

    /** No store: every secret a request names is refused. */
    public static final SecretStore NONE = new SecretStore(null);

    /** Far above a password or token; an environment variable of more is a file's job. */
    static final int MAX_VALUE_BYTES = 32 * 1024;
    private static final String FIELD = "env_from_secrets.";
    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private final Path root;

    private SecretStore(Path root) {
        this.root = root;
    }

    public static SecretStore at(Path root) {
        return new SecretStore(root.toAbsolutePath().normalize());
    }

    /**
     * What is wrong with each secret the request names, for a 400 at submit and in a dry run; only the
     * files' attributes are read.
     */
    public List<Violation> check(Map<String, JobRequest.SecretKey> secrets, String namespace) {
        List<Violation> violations = new ArrayList<>();
        secrets.forEach((name, ref) -> problem(ref, namespace)
                .ifPresent(problem -> violations.add(Violation.of(FIELD + name, ref.toString(), problem))));
        return violations;
    }

    /**
     * The values, by variable name, read now (a replica is starting).
     *
     * @throws UncheckedIOException naming the secret (never its value) when one cannot be read
     */
    public Map<String, String> values(Map<String, JobRequest.SecretKey> secrets, String namespace) {
        Map<String, String> values = new LinkedHashMap<>();
        secrets.forEach((name, ref) -> {
            Optional<String> problem = problem(ref, namespace);
            if (problem.isPresent()) {
                throw new UncheckedIOException(new IOException(name + ": " + problem.get()));
            }
            values.put(name, read(ref, namespace).orElseThrow(() -> new UncheckedIOException(
                    new IOException(name + ": secret " + ref + " of namespace " + namespace + " could not be read"))));
        });
        return values;
    }

    /** What hides these secrets' values in text a replica wrote: those that can be read now. */
    public SecretMask mask(Map<String, JobRequest.SecretKey> secrets, String namespace) {
        if (secrets.isEmpty() || root == null) {
            return SecretMask.NONE;
        }
        List<String> values = new ArrayList<>();
        secrets.values().forEach(ref -> {
            if (problem(ref, namespace).isEmpty()) {
                read(ref, namespace).ifPresent(values::add);
            }
        });
        return SecretMask.of(values);
    }

    private Optional<String> problem(JobRequest.SecretKey ref, String namespace) {
        if (root == null) {
            return Optional.of("this backend has no secret store (the operator sets paddlejobs.secrets.store): "
                    + "leave env_from_secrets out");
        }
        Path file = file(ref, namespace);
        PosixFileAttributes attributes;
        try {
            if (!Files.isDirectory(file.getParent(), LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of("namespace " + namespace + " has no secret " + ref.secret());
            }
            attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return Optional.of("secret " + ref.secret() + " of namespace " + namespace + " has no key " + ref.key());
        }
        if (!attributes.isRegularFile()) {
            return Optional.of("secret " + ref + " of namespace " + namespace + " is not a file in the store");
        }
        try {
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (owner != self || attributes.permissions().stream().anyMatch(OTHERS::contains)) {
                return Optional.of("secret " + ref + " of namespace " + namespace + " is unusable: the operator must make"
                        + " its file the service user's and readable by no one else (mode 0600)");
            }
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of("secret " + ref + " of namespace " + namespace + " is unusable: its owner cannot be read");
        }
        if (attributes.size() > MAX_VALUE_BYTES) {
            return Optional.of("secret " + ref + " of namespace " + namespace + " is larger than "
                    + MAX_VALUE_BYTES / 1024 + " KiB: too large for an environment variable");
        }
        return Optional.empty();
    }

    private Optional<String> read(JobRequest.SecretKey ref, String namespace) {
        try {
            Optional<FileChannel> opened = JobWrittenFiles.open(file(ref, namespace));
            if (opened.isEmpty()) {
                return Optional.empty();
            }
            try (FileChannel in = opened.get()) {
                ByteBuffer buffer = ByteBuffer.allocate(MAX_VALUE_BYTES + 1);
                while (buffer.hasRemaining() && in.read(buffer) > 0) {
                    // until the bound or the end
                }
                if (buffer.position() > MAX_VALUE_BYTES) {
                    return Optional.empty();
                }
                String value = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
                value = value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
                return value.indexOf('\0') >= 0 ? Optional.empty() : Optional.of(value);
            }
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Names were checked by the request's syntax: a DNS subdomain and a key, neither . nor .., no slash. */
    private Path file(JobRequest.SecretKey ref, String namespace) {
        return root.resolve(namespace).resolve(ref.secret()).resolve(ref.key());
    }
}
