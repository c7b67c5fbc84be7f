package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.SlurmCli;
import io.paddlejobs.backend.slurm.client.SlurmException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a job run as the service's own user ({@code client=cli}) can reach the service (red team, 7 Dec, P2): when
 * the service's host is a node of the cluster, a job that lands there can stop the service and read its memory and
 * files; when its home directory is on a network file system the nodes may mount, a job can plant files the service's
 * user runs ({@code ~/.bashrc}, {@code ~/.ssh/authorized_keys}). Both are read from what the host says: the cluster's
 * node list ({@code scontrol -o show node}) and the mount table ({@code /proc/self/mountinfo}).
 */
final class ServiceHostReach {

    private static final Logger log = LoggerFactory.getLogger(ServiceHostReach.class);

    /** File system types shared between hosts (as the mount table names them). */
    private static final Set<String> NETWORK_FILE_SYSTEMS = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "lustre",
            "gpfs", "beegfs", "ceph", "glusterfs", "fuse.glusterfs", "fuse.sshfs", "fuse.cephfs", "afs", "panfs",
            "wekafs", "9p");
    private static final List<String> NODE_NAMES = List.of("NodeName=", "NodeHostName=", "NodeAddr=");

    private ServiceHostReach() {
    }

    /**
     * How a job run as the service's user reaches it here, in words; empty when neither way is seen. A node list that
     * cannot be read is said in the log and counts as no node here (a service need not wait for its controller).
     */
    static Optional<String> here(SlurmCli cli) {
        String nodes = "";
        try {
            nodes = cli.nodes();
        } catch (SlurmException e) {
            log.warn("Could not tell whether this host is a node of the cluster: {}", e.getMessage());
        }
        String mountInfo = "";
        try {
            mountInfo = Files.readString(Path.of("/proc/self/mountinfo"));
        } catch (IOException e) {
            log.warn("Could not tell what file system the home directory is on: {}", e.toString());
        }
        return of(nodes, thisHost(), Path.of(System.getProperty("user.home")), mountInfo);
    }

    /** As {@link #here}, from what the host said. */
    static Optional<String> of(String nodeListing, Set<String> thisHost, Path home, String mountInfo) {
        Optional<String> node = nodeOnThisHost(nodeListing, thisHost).map(name -> "this host is the cluster's node " + name
                + ", so a job that lands on it can stop the service and read its memory and files");
        Optional<String> shared = networkFileSystemOf(home, mountInfo).map(type -> "its home directory " + home
                + " is on a network file system (" + type + ") that nodes may mount, so a job can plant files it runs "
                + "(~/.bashrc, ~/.ssh/authorized_keys)");
        return node.isEmpty() ? shared : shared.map(also -> node.get() + "; " + also).or(() -> node);
    }

    /**
     * The first node of {@code nodeListing} ({@code scontrol -o show node}: one node a line) whose name, host name or
     * address is one of {@code thisHost}'s.
     */
    static Optional<String> nodeOnThisHost(String nodeListing, Set<String> thisHost) {
        for (String line : nodeListing.split("\n")) {
            String node = null;
            boolean here = false;
            for (String field : line.strip().split("\\s+")) {
                for (String key : NODE_NAMES) {
                    if (field.startsWith(key)) {
                        String value = field.substring(key.length()).toLowerCase(Locale.ROOT);
                        node = key.equals("NodeName=") ? value : node;
                        here |= thisHost.contains(value);
                    }
                }
            }
            if (here && node != null) {
                return Optional.of(node);
            }
        }
        return Optional.empty();
    }

    /**
     * The type of the network file system {@code dir} is on, from {@code mountInfo} ({@code /proc/self/mountinfo}):
     * that of the mount point that holds it, the longest one above it. Empty when it is on a local one.
     */
    static Optional<String> networkFileSystemOf(Path dir, String mountInfo) {
        Path absolute = dir.toAbsolutePath().normalize();
        Path bestMount = null;
        String bestType = null;
        for (String line : mountInfo.split("\n")) {
            // <id> <parent> <major:minor> <root> <mount point> <options> [<optional fields>...] - <type> <source> ...
            String[] fields = line.strip().split(" ");
            int separator = List.of(fields).indexOf("-");
            if (fields.length < 5 || separator < 0 || separator + 1 >= fields.length) {
                continue;
            }
            Path mount = Path.of(fields[4].replace("\\040", " "));
            if (absolute.startsWith(mount) && (bestMount == null || mount.getNameCount() >= bestMount.getNameCount())) {
                bestMount = mount;
                bestType = fields[separator + 1];
            }
        }
        return Optional.ofNullable(bestType).filter(NETWORK_FILE_SYSTEMS::contains);
    }

    /** This host's names and addresses, in lower case: what a node's entry would name it by. */
    static Set<String> thisHost() {
        Set<String> names = new HashSet<>(Set.of("localhost"));
        try {
            InetAddress local = InetAddress.getLocalHost();
            names.add(local.getHostName());
            names.add(local.getCanonicalHostName());
            names.add(local.getHostName().split("\\.")[0]);
        } catch (UnknownHostException e) {
            // its interfaces' addresses still say where it is
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    String text = address.getHostAddress();
                    int scope = text.indexOf('%');
                    names.add(scope < 0 ? text : text.substring(0, scope));
                }
            }
        } catch (SocketException e) {
            // the names above are what is known
        }
        names.removeIf(String::isEmpty);
        return names.stream().map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    }
}
