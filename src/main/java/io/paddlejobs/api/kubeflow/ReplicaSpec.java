package io.paddlejobs.api.kubeflow;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One role's replica spec of a PaddleJob ({@code Master} or {@code Worker}), read into what a request can
 * say: its count, its one container's image, command, environment and resources, and where its pods go.
 */
record ReplicaSpec(String role, Integer replicas, String image, String entryPoint, Map<String, String> env,
                   Map<String, Map<String, String>> secrets, Integer cpu, String memory, Integer gpu, Integer port,
                   Placement placement) {

    /** Where the pods go and what they mount, as request fields' values. */
    record Placement(Map<String, Object> nodeSelector, List<Object> tolerations, List<Object> nodeAffinity,
                     List<Object> volumes, String shmSize) {
    }

    /** The GPU resource Kubeflow's examples ask for; no other device is known here. */
    static final String GPU = "nvidia.com/gpu";
    /** The port a PaddleJob's rendezvous listens on, by its container port's name (Kubeflow's default name). */
    static final String MASTER_PORT_NAME = "master";
    private static final String SHM = "/dev/shm";

    static String path(String role) {
        return "spec.paddleReplicaSpecs." + role;
    }

    static String templateSpec(String role) {
        return path(role) + ".template.spec";
    }

    /** @param ps whether the job has pservers (a Master): then Paddle's launcher is taken out of the command */
    static ReplicaSpec read(PaddleJobImport report, String role, Map<String, Object> spec, boolean ps) {
        Reader reader = new Reader(report, role, ps);
        for (var field : spec.entrySet()) {
            String at = path(role) + "." + field.getKey();
            switch (field.getKey()) {
                case "replicas" -> reader.replicas = reader.integer(field.getValue(), at);
                case "restartPolicy" -> report.drop(at, "a failed replica fails the job here, and the service restarts"
                        + " the whole job (max_restarts, restart_on): Paddle's replicas cannot rejoin one by one");
                case "template" -> reader.template(report.map(field.getValue(), at));
                default -> report.unknown(at);
            }
        }
        return reader.build();
    }

    void carryAsTrainers(PaddleJobImport report) {
        String at = path(role);
        report.carry(at + ".replicas", "trainers", replicas == null ? 1 : replicas);
        report.carry(containerPath(role) + ".image", "image", image);
        report.carry(containerPath(role) + ".command", "entry_point", entryPoint);
        report.carry(containerPath(role) + ".resources.cpu", "trainer_cpu", cpu);
        report.carry(containerPath(role) + ".resources.memory", "trainer_mem", memory);
        report.carry(containerPath(role) + ".resources." + GPU, "trainer_gpu", gpu);
        report.carry(containerPath(role) + ".ports." + MASTER_PORT_NAME, "port", port);
    }

    void carryAsPservers(PaddleJobImport report, ReplicaSpec trainers) {
        report.carry(path(role) + ".replicas", "pservers", replicas == null ? 1 : replicas);
        if (image != null && !image.equals(trainers.image())) {
            report.carry(containerPath(role) + ".image", "pserver_image", image);
        } else if (image != null) {
            report.carried(containerPath(role) + ".image", "image");
        }
        if (entryPoint != null && !entryPoint.equals(trainers.entryPoint())) {
            report.carry(containerPath(role) + ".command", "pserver_entry_point", entryPoint);
        } else if (entryPoint != null) {
            report.carried(containerPath(role) + ".command", "entry_point");
        }
        report.carry(containerPath(role) + ".resources.cpu", "pserver_cpu", cpu);
        report.carry(containerPath(role) + ".resources.memory", "pserver_mem", memory);
        if (gpu != null && gpu > 0) {
            report.refuse(containerPath(role) + ".resources." + GPU, "parameter servers run on CPUs here: leave"
                    + " the Master's GPUs out");
        }
        if (port != null && trainers.port() != null && !port.equals(trainers.port())) {
            report.refuse(containerPath(role) + ".ports", "the Master's master port differs from the Worker's: one"
                    + " port per job here (port)");
        } else if (port != null && trainers.port() == null) {
            report.carry(containerPath(role) + ".ports." + MASTER_PORT_NAME, "port", port);
        }
    }

    static String containerPath(String role) {
        return templateSpec(role) + ".containers[0]";
    }

    /** What one role's spec is read into, field by field. */
    private static final class Reader {
        private final PaddleJobImport report;
        private final String role;
        Integer replicas;
        String image;
        String entryPoint;
        final Map<String, String> env = new LinkedHashMap<>();
        final Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
        Integer cpu;
        String memory;
        Integer gpu;
        Integer port;
        Map<String, Object> nodeSelector = Map.of();
        List<Object> tolerations = List.of();
        List<Object> nodeAffinity = List.of();
        final List<Object> volumes = new ArrayList<>();
        String shmSize;
        /** The pod's volumes by name, matched with the container's mounts. */
        final Map<String, Map<String, Object>> podVolumes = new LinkedHashMap<>();
        final List<Map<String, Object>> mounts = new ArrayList<>();

        private final boolean ps;

        Reader(PaddleJobImport report, String role, boolean ps) {
            this.report = report;
            this.role = role;
            this.ps = ps;
        }

        ReplicaSpec build() {
            mountVolumes();
            return new ReplicaSpec(role, replicas, image, entryPoint, env, secrets, cpu, memory, gpu, port,
                    new Placement(nodeSelector, tolerations, nodeAffinity, volumes, shmSize));
        }

        void template(Map<String, Object> template) {
            if (template == null) {
                report.refuse(path(role) + ".template", "is required: the replicas' pod");
                return;
            }
            for (var field : template.entrySet()) {
                String at = path(role) + ".template." + field.getKey();
                switch (field.getKey()) {
                    case "metadata" -> report.drop(at, "the service labels and annotates its pods itself (the job's"
                            + " labels are metadata.labels)");
                    case "spec" -> podSpec(report.map(field.getValue(), at));
                    default -> report.unknown(at);
                }
            }
        }

        private void podSpec(Map<String, Object> spec) {
            if (spec == null) {
                return;
            }
            for (var field : spec.entrySet()) {
                String at = templateSpec(role) + "." + field.getKey();
                Object value = field.getValue();
                switch (field.getKey()) {
                    case "containers" -> containers(report.list(value, at));
                    case "volumes" -> podVolumes(report.list(value, at));
                    case "nodeSelector" -> nodeSelector = report.map(value, at) == null ? Map.of() : report.map(value, at);
                    case "tolerations" -> tolerations = new ArrayList<>(report.list(value, at));
                    case "affinity" -> affinity(report.map(value, at));
                    default -> {
                        if (PaddleJobImport.SAFE_POD_FIELDS.contains(field.getKey())) {
                            report.drop(at, "the service sets it on its pods (restarts, grace period, scheduler and"
                                    + " security are the operator's settings)");
                        } else {
                            report.unknown(at);
                        }
                    }
                }
            }
            if (!spec.containsKey("containers")) {
                report.refuse(templateSpec(role) + ".containers", "is required: the replica's container");
            }
        }

        private void containers(List<?> containers) {
            if (containers.size() != 1) {
                report.refuse(templateSpec(role) + ".containers", "must be one container: a replica here is one"
                        + " process tree in one container (no sidecars)");
                return;
            }
            Map<String, Object> container = report.map(containers.get(0), containerPath(role));
            if (container == null) {
                return;
            }
            List<String> command = new ArrayList<>();
            for (var field : container.entrySet()) {
                String at = containerPath(role) + "." + field.getKey();
                Object value = field.getValue();
                switch (field.getKey()) {
                    case "name" -> report.drop(at, "the service names its containers");
                    case "image" -> image = value instanceof String s ? s : null;
                    case "command", "args" -> report.list(value, at).forEach(item -> command.add(String.valueOf(item)));
                    case "env" -> env(report.list(value, at));
                    case "resources" -> resources(report.map(value, at));
                    case "ports" -> ports(report.list(value, at));
                    case "volumeMounts" -> report.list(value, at).forEach(mount -> {
                        Map<String, Object> m = report.map(mount, at);
                        if (m != null) {
                            mounts.add(m);
                        }
                    });
                    case "envFrom" -> report.refuse(at, "a whole Secret or ConfigMap as variables needs its keys read;"
                            + " the service never reads a Secret: name each variable's key in env valueFrom.secretKeyRef");
                    case "workingDir" -> report.refuse(at, "each replica starts in its own working directory here"
                            + " (work/<role>-<index>): give the entry point absolute paths, or cd in it");
                    default -> {
                        if (PaddleJobImport.SAFE_CONTAINER_FIELDS.contains(field.getKey())) {
                            report.drop(at, "the service sets it on its containers (pull policy, probes and security"
                                    + " are the operator's settings)");
                        } else {
                            report.unknown(at);
                        }
                    }
                }
            }
            if (command.isEmpty()) {
                report.refuse(containerPath(role) + ".command", "is required: the image's own entry point is not"
                        + " known here; give command (and args)");
            } else {
                entryPoint = ShellWords.join(ps ? withoutLauncher(command) : command);
            }
        }

        /**
         * A ps job's command without Paddle's launcher ({@code python -m paddle.distributed.launch [--flag value]...}
         * or {@code fleetrun ...}): here each pserver and trainer is one process that gets the environment
         * {@code fleet.init()} reads, and a launcher in it would take the trainers for a collective group. Its
         * flags describe the topology the replicas are given anyway. Every launcher flag takes a value.
         */
        private List<String> withoutLauncher(List<String> command) {
            int module = command.indexOf("paddle.distributed.launch");
            boolean viaModule = module > 0 && command.get(module - 1).equals("-m");
            int fleetrun = command.isEmpty() || !command.get(0).endsWith("fleetrun") ? -1 : 0;
            if (!viaModule && fleetrun < 0) {
                return command;
            }
            List<String> script = new ArrayList<>(viaModule ? command.subList(0, module - 1) : List.of("python"));
            int i = viaModule ? module + 1 : 1;
            List<String> flags = new ArrayList<>();
            while (i < command.size() && command.get(i).startsWith("--")) {
                flags.add(command.get(i));
                i += command.get(i).contains("=") ? 1 : 2;
            }
            script.addAll(command.subList(Math.min(i, command.size()), command.size()));
            report.drop(containerPath(role) + ".command (paddle.distributed.launch" + (flags.isEmpty() ? ""
                    : " " + String.join(" ", flags)) + ")", "in a ps job each pserver and trainer here is one process"
                    + " given the environment fleet.init() reads; the launcher would take the trainers for a collective"
                    + " group, and its flags describe the topology the replicas are given anyway");
            return script;
        }

        private void env(List<?> variables) {
            for (int i = 0; i < variables.size(); i++) {
                String at = containerPath(role) + ".env[" + i + "]";
                Map<String, Object> variable = report.map(variables.get(i), at);
                if (variable == null) {
                    continue;
                }
                String name = String.valueOf(variable.get("name"));
                Object value = variable.get("value");
                Map<String, Object> from = report.map(variable.get("valueFrom"), at + ".valueFrom");
                if (from == null) {
                    env.put(name, value == null ? "" : String.valueOf(value));
                } else if (from.size() == 1 && from.get("secretKeyRef") instanceof Map<?, ?> ref
                        && ref.get("name") instanceof String secret && ref.get("key") instanceof String key
                        && !Boolean.TRUE.equals(ref.get("optional"))) {
                    secrets.put(name, Map.of("secret", secret, "key", key));
                } else {
                    report.refuse(at + ".valueFrom", "only secretKeyRef (name and key, not optional) is carried, as"
                            + " env_from_secrets; a field, resource or config map reference is not");
                }
            }
        }

        private void resources(Map<String, Object> resources) {
            if (resources == null) {
                return;
            }
            Map<String, Object> limits = report.map(resources.get("limits"), containerPath(role) + ".resources.limits");
            Map<String, Object> requests = report.map(resources.get("requests"), containerPath(role) + ".resources.requests");
            Map<String, Object> asked = new LinkedHashMap<>();
            if (requests != null) {
                asked.putAll(requests);
            }
            if (limits != null) {
                asked.putAll(limits); // a limit is what the replica may use: the larger figure, and the one planned
            }
            resources.keySet().stream().filter(k -> !k.equals("limits") && !k.equals("requests"))
                    .forEach(k -> report.unknown(containerPath(role) + ".resources." + k));
            asked.forEach((name, quantity) -> {
                String at = containerPath(role) + ".resources." + name;
                switch (name) {
                    case "cpu" -> cpu = wholeCpus(quantity, at);
                    case "memory" -> memory = String.valueOf(quantity);
                    case GPU -> gpu = integer(quantity, at);
                    case "ephemeral-storage" -> report.drop(at, "a replica's files are counted by the node, not planned");
                    default -> report.refuse(at, "no resource but cpu, memory and " + GPU + " is planned here");
                }
            });
        }

        /** CPUs are whole here: a fraction is rounded up, which the report says. */
        private Integer wholeCpus(Object quantity, String at) {
            String text = String.valueOf(quantity);
            try {
                BigDecimal cpus = text.endsWith("m") ? new BigDecimal(text.substring(0, text.length() - 1))
                        .movePointLeft(3) : new BigDecimal(text);
                BigDecimal whole = cpus.setScale(0, RoundingMode.CEILING);
                if (whole.compareTo(cpus) != 0) {
                    report.drop(at + "(fraction)", "CPUs are planned whole here: " + text + " is planned as " + whole);
                }
                return whole.max(BigDecimal.ONE).intValueExact();
            } catch (NumberFormatException | ArithmeticException e) {
                report.refuse(at, "must be a CPU quantity such as 2 or 500m");
                return null;
            }
        }

        private void ports(List<?> ports) {
            for (int i = 0; i < ports.size(); i++) {
                String at = containerPath(role) + ".ports[" + i + "]";
                Map<String, Object> p = report.map(ports.get(i), at);
                if (p != null && MASTER_PORT_NAME.equals(p.get("name"))) {
                    port = integer(p.get("containerPort"), at + ".containerPort");
                } else if (p != null) {
                    report.drop(at, "the service opens the ports Paddle is planned to use (port, ports_num)");
                }
            }
        }

        private void podVolumes(List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                Map<String, Object> volume = report.map(list.get(i), templateSpec(role) + ".volumes[" + i + "]");
                if (volume != null && volume.get("name") instanceof String name) {
                    podVolumes.put(name, volume);
                }
            }
        }

        /** Each mount with its volume: the memory-backed {@code /dev/shm}, read-only claims and config maps. */
        private void mountVolumes() {
            for (int i = 0; i < mounts.size(); i++) {
                Map<String, Object> mount = mounts.get(i);
                String at = containerPath(role) + ".volumeMounts[" + i + "]";
                Map<String, Object> volume = podVolumes.remove(String.valueOf(mount.get("name")));
                String mountPath = String.valueOf(mount.get("mountPath"));
                if (volume == null) {
                    report.refuse(at, "names no volume of the pod");
                } else if (volume.get("emptyDir") instanceof Map<?, ?> empty && "Memory".equals(empty.get("medium"))
                        && SHM.equals(mountPath)) {
                    if (empty.get("sizeLimit") != null) {
                        shmSize = String.valueOf(empty.get("sizeLimit"));
                        report.carried(at, "shm_size");
                    } else {
                        report.drop(at, "the service mounts a memory-backed /dev/shm in every trainer itself"
                                + " (paddlejobs.kubernetes.shm-size, or shm_size)");
                    }
                } else if (volume.get("persistentVolumeClaim") instanceof Map<?, ?> claim
                        && claim.get("claimName") instanceof String name) {
                    if (Boolean.TRUE.equals(mount.get("readOnly")) || Boolean.TRUE.equals(claim.get("readOnly"))) {
                        volumes.add(Map.of("claim", name, "mount_path", mountPath));
                        report.carried(at, "volumes");
                    } else {
                        report.refuse(at, "extra claims are mounted read-only here (a job writes to its data"
                                + " claim, /data): mark the mount readOnly if the job only reads it");
                    }
                } else if (volume.get("configMap") instanceof Map<?, ?> map && map.get("name") instanceof String name
                        && map.size() == 1) {
                    volumes.add(Map.of("config_map", name, "mount_path", mountPath));
                    report.carried(at, "volumes");
                } else {
                    report.refuse(at, "only a memory-backed /dev/shm, a persistentVolumeClaim and a whole configMap"
                            + " are mounted here; a Secret's values reach a replica as env_from_secrets");
                }
            }
            podVolumes.keySet().forEach(name -> report.drop(templateSpec(role) + ".volumes." + name,
                    "no container mounts it"));
        }

        private void affinity(Map<String, Object> affinity) {
            if (affinity == null) {
                return;
            }
            for (var field : affinity.entrySet()) {
                String at = templateSpec(role) + ".affinity." + field.getKey();
                if (!field.getKey().equals("nodeAffinity")) {
                    report.refuse(at, "only node affinity is carried (node_affinity); pods of one job are placed"
                            + " by the cluster's scheduler");
                    continue;
                }
                Map<String, Object> node = report.map(field.getValue(), at);
                if (node == null) {
                    continue;
                }
                node.forEach((kind, value) -> {
                    if (kind.equals("preferredDuringSchedulingIgnoredDuringExecution")) {
                        report.drop(at + "." + kind, "a preference: the pods may go elsewhere either way");
                    } else if (kind.equals("requiredDuringSchedulingIgnoredDuringExecution")) {
                        required(report.map(value, at + "." + kind), at + "." + kind);
                    } else {
                        report.unknown(at + "." + kind);
                    }
                });
            }
        }

        private void required(Map<String, Object> required, String at) {
            if (required == null) {
                return;
            }
            List<?> terms = report.list(required.get("nodeSelectorTerms"), at + ".nodeSelectorTerms");
            Map<String, Object> term = terms.size() == 1 ? report.map(terms.get(0), at + ".nodeSelectorTerms[0]") : null;
            if (term == null || term.size() != 1 || !term.containsKey("matchExpressions")) {
                report.refuse(at, "one node selector term of matchExpressions is carried (node_affinity: all of them"
                        + " must hold); several terms (any of them) or matchFields are not");
                return;
            }
            nodeAffinity = new ArrayList<>(report.list(term.get("matchExpressions"), at + ".nodeSelectorTerms[0]"));
        }

        Integer integer(Object value, String at) {
            if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
                return n.intValue();
            }
            if (value instanceof String s && s.matches("[0-9]{1,9}")) {
                return Integer.valueOf(s);
            }
            report.refuse(at, "must be a whole number");
            return null;
        }
    }
}
