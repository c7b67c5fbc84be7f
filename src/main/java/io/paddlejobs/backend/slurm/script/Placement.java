package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.backend.slurm.SlurmSite;
import io.paddlejobs.planning.Derivation;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Replica;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where Slurm put each replica, as the batch step computed it ({@code state/placement}: one line
 * {@code <replica> <address> <port> <node>} each), and the plan with it filled in. The filling in
 * is the same as {@code launch.sh} does for the replica's own environment, so the plan the service
 * shows is the environment each replica got. Only the service's own values are filled in (the
 * names {@link PaddleEnv#isReserved} holds); a user's value that happens to hold a token is theirs.
 */
public record Placement(Map<String, Slot> slots) {

    public record Slot(String address, int port, String node) {
    }

    /** {@code <replica> <address> <port> <node>}: an address or node name is a host name or an IP address. */
    private static final Pattern LINE = Pattern.compile(
            "([a-z]+-\\d{1,5}) ([A-Za-z0-9.:_-]{1,253}) (\\d{1,5}) ([A-Za-z0-9._-]{1,253})");

    public Placement {
        slots = Map.copyOf(slots);
    }

    /**
     * The slots of well-formed lines; the batch step writes the file, but it lies where the job can
     * change it, so any other line is no slot (and a placement missing a replica's is not applied).
     */
    public static Placement parse(String text) {
        Map<String, Slot> slots = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher parts = LINE.matcher(line);
            if (parts.matches()) {
                int port = Integer.parseInt(parts.group(3));
                if (port >= 1 && port <= 65535) {
                    slots.put(parts.group(1), new Slot(parts.group(2), port, parts.group(4)));
                }
            }
        }
        return new Placement(slots);
    }

    /** Whether every replica of the plan has a slot (a placement file read half-written has not). */
    public boolean covers(JobPlan plan) {
        return plan.replicas().stream().allMatch(replica -> slots.containsKey(replica.id()));
    }

    public JobPlan apply(JobPlan plan) {
        List<Replica> replicas = new ArrayList<>();
        for (Replica replica : plan.replicas()) {
            Map<String, String> env = new LinkedHashMap<>();
            replica.env().forEach((name, value) -> env.put(name, name.equals(PaddleEnv.PORT)
                    ? Integer.toString(slots.get(replica.id()).port())
                    : PaddleEnv.isReserved(name) ? fill(value, plan.ports().first()) : value));
            replicas.add(new Replica(replica.role(), replica.index(), slots.get(replica.id()).address(), env));
        }
        List<Derivation> derivations = new ArrayList<>(plan.derivations());
        derivations.add(new Derivation("hosts", slots.values().stream().map(Slot::node).distinct().toList().toString(),
                "Slurm chose the nodes; each replica's port is the first port plus one port block per replica"
                        + " already placed on the same address"));
        return new JobPlan(plan.name(), plan.namespace(), plan.image(), plan.spec(), plan.pservers(), plan.trainers(),
                plan.ports(), plan.useGpu(), plan.totals(), replicas, derivations, plan.warnings());
    }

    private String fill(String value, int firstPort) {
        String filled = value;
        for (Map.Entry<String, Slot> slot : slots.entrySet()) {
            String token = SlurmSite.token(slot.getKey());
            filled = filled.replace(token + ":" + firstPort, slot.getValue().address() + ":" + slot.getValue().port())
                    .replace(token, slot.getValue().address());
        }
        return filled;
    }
}
