package io.paddlejobs.planning;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Requests for tests of any package, by field name instead of 26 positional components. Either
 * built ({@code JobRequests.named("mnist", "python train.py").trainers(2).build()}) or written
 * the way users write them, with the JSON field names ({@code JobRequests.spec("num_gpus=4 trainer_mem=2Gi")}).
 */
public final class JobRequests {

    /** The name and entry point of a spec that gives none. */
    public static final String JOB = "job";
    public static final String ENTRY_POINT = "python train.py";

    private JobRequests() {
    }

    /**
     * A request that gives every field, each with a value that passes its own rule (not a plan that
     * works: collective with pservers is refused by the planner). Lists of the fields are checked
     * against it, so a field added to the record and not to this fails those checks.
     */
    public static JobRequest full() {
        return named("full", "python a.py").pserverEntryPoint("python p.py")
                .spec("image=img:1 num_gpus=4 num_cpus=8 memory=16Gi trainers=4 trainer_cpu=2 trainer_gpu=1 trainer_mem=4G"
                        + " pservers=2 pserver_cpu=3 pserver_mem=512Mi port=9000 ports_num=2 ports_num_for_sparse=3"
                        + " use_gpu=true mode=collective max_run_time=90m max_restarts=3 restart_on=infrastructure,137,stall"
                        + " stall_timeout=30m debug_hold=10m queue=gpu-team priority=high account=ml partition=gpu qos=normal"
                        + " package=sha256:" + "0123456789abcdef".repeat(4))
                .env(Map.of("A", "1", "B", "$x")).labels(Map.of("team", "nlp"))
                .spec("pserver_image=pimg:2 shm_size=2Gi")
                .pserverEnv(Map.of("ROLE_NOTE", "ps")).trainerEnv(Map.of("ROLE_NOTE", "trainer"))
                .envFromSecrets(Map.of("HDFS_PASS", new JobRequest.SecretKey("hdfs", "pass")))
                .nodeSelector(Map.of("pool", "cpu-large"))
                .tolerations(List.of(new JobRequest.Toleration("dedicated", "Equal", "training", "NoSchedule")))
                .nodeAffinity(List.of(new JobRequest.NodeRequirement("zone", "In", List.of("a", "b"))))
                .volumes(List.of(new JobRequest.Volume("ctr-data", null, "/mnt/data"),
                        new JobRequest.Volume(null, "settings", "/etc/train")))

                .notify(List.of(new JobRequest.Notify("http://127.0.0.1:9/hook", List.of(JobEvent.STARTED, JobEvent.FAILED))))
                .build();
    }

    public static Builder named(String name, String entryPoint) {
        return new Builder().name(name).entryPoint(entryPoint);
    }

    /**
     * Parses {@code "field=value field=value"} (JSON names; values without spaces) into a builder, named
     * {@value #JOB} and running {@value #ENTRY_POINT} unless the spec says otherwise. An unknown field
     * fails the test rather than being ignored.
     */
    public static Builder spec(String spec) {
        return named(JOB, ENTRY_POINT).spec(spec);
    }

    /** Every field of a request, each optional; {@link #build()} makes the record. */
    public static final class Builder {

        private static final Map<String, BiConsumer<Builder, String>> FIELDS = new LinkedHashMap<>();

        static {
            FIELDS.put("name", Builder::name);
            FIELDS.put("pserver_entry_point", Builder::pserverEntryPoint);
            FIELDS.put("image", Builder::image);
            FIELDS.put("num_gpus", (b, v) -> b.numGpus(Integer.valueOf(v)));
            FIELDS.put("num_cpus", (b, v) -> b.numCpus(Integer.valueOf(v)));
            FIELDS.put("memory", Builder::memory);
            FIELDS.put("trainers", (b, v) -> b.trainers(Integer.valueOf(v)));
            FIELDS.put("trainer_cpu", (b, v) -> b.trainerCpu(Integer.valueOf(v)));
            FIELDS.put("trainer_gpu", (b, v) -> b.trainerGpu(Integer.valueOf(v)));
            FIELDS.put("trainer_mem", Builder::trainerMem);
            FIELDS.put("pservers", (b, v) -> b.pservers(Integer.valueOf(v)));
            FIELDS.put("pserver_cpu", (b, v) -> b.pserverCpu(Integer.valueOf(v)));
            FIELDS.put("pserver_mem", Builder::pserverMem);
            FIELDS.put("port", (b, v) -> b.port(Integer.valueOf(v)));
            FIELDS.put("ports_num", (b, v) -> b.portsNum(Integer.valueOf(v)));
            FIELDS.put("ports_num_for_sparse", (b, v) -> b.portsNumForSparse(Integer.valueOf(v)));
            FIELDS.put("use_gpu", (b, v) -> b.useGpu(Boolean.valueOf(v)));
            FIELDS.put("mode", (b, v) -> b.mode(JobMode.fromLabel(v)));
            FIELDS.put("max_run_time", (b, v) -> b.maxRunTime(RunTimeLimit.parse(v)));
            FIELDS.put("package", Builder::codePackage);
            FIELDS.put("max_restarts", (b, v) -> b.maxRestarts(Integer.valueOf(v)));
            FIELDS.put("restart_on", (b, v) -> b.restartOn(RestartOn.parse(java.util.List.of(v.split(",")))));
            FIELDS.put("stall_timeout", (b, v) -> b.stallTimeout(RunTimeLimit.parse(v)));
            FIELDS.put("debug_hold", (b, v) -> b.debugHold(RunTimeLimit.parse(v)));
            FIELDS.put("queue", Builder::queue);
            FIELDS.put("priority", Builder::priority);
            FIELDS.put("account", Builder::account);
            FIELDS.put("partition", Builder::partition);
            FIELDS.put("qos", Builder::qos);
            FIELDS.put("pserver_image", Builder::pserverImage);
            FIELDS.put("shm_size", (b, v) -> b.shmSize(Memory.parse(v)));
        }

        private String name;
        private String entryPoint;
        private String pserverEntryPoint;
        private String image;
        private Integer numGpus;
        private Integer numCpus;
        private Memory memory;
        private Integer trainers;
        private Integer trainerCpu;
        private Integer trainerGpu;
        private Memory trainerMem;
        private Integer pservers;
        private Integer pserverCpu;
        private Memory pserverMem;
        private Integer port;
        private Integer portsNum;
        private Integer portsNumForSparse;
        private Boolean useGpu;
        private Map<String, String> env = Map.of();
        private Map<String, String> labels = Map.of();
        private JobMode mode;
        private Duration maxRunTime;
        private String codePackage;
        private Integer maxRestarts;
        private RestartOn restartOn;
        private Duration stallTimeout;
        private Duration debugHold;
        private String queue;
        private String priority;
        private String account;
        private String partition;
        private String qos;
        private List<JobRequest.Notify> notify;
        private String pserverImage;
        private Map<String, String> pserverEnv = Map.of();
        private Map<String, String> trainerEnv = Map.of();
        private Map<String, JobRequest.SecretKey> envFromSecrets = Map.of();
        private Memory shmSize;
        private Map<String, String> nodeSelector = Map.of();
        private List<JobRequest.Toleration> tolerations = List.of();
        private List<JobRequest.NodeRequirement> nodeAffinity = List.of();
        private List<JobRequest.Volume> volumes = List.of();

        private Builder() {
        }

        /** A builder holding every field of {@code request}, to change some of them. */
        public static Builder from(JobRequest r) {
            Builder b = new Builder();
            b.name = r.name();
            var code = r.code();
            b.entryPoint = code.entryPoint();
            b.pserverEntryPoint = code.pserverEntryPoint();
            b.image = code.image();
            b.codePackage = code.codePackage();
            b.env = code.env();
            b.pserverImage = code.pserverImage();
            b.pserverEnv = code.pserverEnv();
            b.trainerEnv = code.trainerEnv();
            b.envFromSecrets = code.envFromSecrets();
            b.shmSize = r.compute().shmSize();
            b.nodeSelector = r.placement().nodeSelector();
            b.tolerations = r.placement().tolerations();
            b.nodeAffinity = r.placement().nodeAffinity();
            b.volumes = r.placement().volumes();
            b.notify = r.notifications().webhooks();
            var topology = r.topology();
            b.mode = topology.mode();
            b.trainers = topology.trainers();
            b.pservers = topology.pservers();
            b.port = topology.port();
            b.portsNum = topology.portsNum();
            b.portsNumForSparse = topology.portsNumForSparse();
            var compute = r.compute();
            b.numGpus = compute.numGpus();
            b.numCpus = compute.numCpus();
            b.memory = compute.memory();
            b.trainerCpu = compute.trainerCpu();
            b.trainerGpu = compute.trainerGpu();
            b.trainerMem = compute.trainerMem();
            b.pserverCpu = compute.pserverCpu();
            b.pserverMem = compute.pserverMem();
            b.useGpu = compute.useGpu();
            b.labels = r.placement().labels();
            b.queue = r.placement().queue();
            b.priority = r.placement().priority();
            b.account = r.placement().account();
            b.partition = r.placement().partition();
            b.qos = r.placement().qos();
            var lifecycle = r.lifecycle();
            b.maxRunTime = lifecycle.maxRunTime();
            b.maxRestarts = lifecycle.maxRestarts();
            b.restartOn = lifecycle.restartOn();
            b.stallTimeout = lifecycle.stallTimeout();
            b.debugHold = lifecycle.debugHold();
            return b;
        }

        /** Sets the fields {@code "field=value field=value"} names, as {@link JobRequests#spec} reads them. */
        public Builder spec(String spec) {
            for (String pair : spec.strip().split("\\s+")) {
                if (pair.isEmpty()) {
                    continue;
                }
                String[] kv = pair.split("=", 2);
                BiConsumer<Builder, String> setter = kv.length == 2 ? FIELDS.get(kv[0]) : null;
                if (setter == null) {
                    throw new IllegalArgumentException("bad field in test spec: " + pair);
                }
                setter.accept(this, kv[1]);
            }
            return this;
        }

        public JobRequest build() {
            return new JobRequest(name,
                    new JobRequest.Code(entryPoint, pserverEntryPoint, image, pserverImage, codePackage, env, pserverEnv,
                            trainerEnv, envFromSecrets),
                    new JobRequest.Topology(mode, trainers, pservers, port, portsNum, portsNumForSparse),
                    new JobRequest.Compute(numGpus, numCpus, memory, trainerCpu, trainerGpu, trainerMem, pserverCpu,
                            pserverMem, useGpu, shmSize),
                    new JobRequest.Placement(labels, queue, priority, account, partition, qos, nodeSelector, tolerations,
                            nodeAffinity, volumes),
                    new JobRequest.Lifecycle(maxRunTime, maxRestarts, restartOn, stallTimeout, debugHold),
                    new JobRequest.Notifications(notify));
        }

        public Builder name(String value) { name = value; return this; }
        public Builder notify(List<JobRequest.Notify> value) { notify = value; return this; }
        public Builder entryPoint(String value) { entryPoint = value; return this; }
        public Builder pserverEntryPoint(String value) { pserverEntryPoint = value; return this; }
        public Builder image(String value) { image = value; return this; }
        public Builder numGpus(Integer value) { numGpus = value; return this; }
        public Builder numCpus(Integer value) { numCpus = value; return this; }
        public Builder memory(Memory value) { memory = value; return this; }
        public Builder memory(String value) { return memory(Memory.parse(value)); }
        public Builder trainers(Integer value) { trainers = value; return this; }
        public Builder trainerCpu(Integer value) { trainerCpu = value; return this; }
        public Builder trainerGpu(Integer value) { trainerGpu = value; return this; }
        public Builder trainerMem(String value) { trainerMem = Memory.parse(value); return this; }
        public Builder pservers(Integer value) { pservers = value; return this; }
        public Builder pserverCpu(Integer value) { pserverCpu = value; return this; }
        public Builder pserverMem(String value) { pserverMem = Memory.parse(value); return this; }
        public Builder port(Integer value) { port = value; return this; }
        public Builder portsNum(Integer value) { portsNum = value; return this; }
        public Builder portsNumForSparse(Integer value) { portsNumForSparse = value; return this; }
        public Builder useGpu(Boolean value) { useGpu = value; return this; }
        public Builder env(Map<String, String> value) { env = value; return this; }
        public Builder labels(Map<String, String> value) { labels = value; return this; }
        public Builder mode(JobMode value) { mode = value; return this; }
        public Builder maxRunTime(Duration value) { maxRunTime = value; return this; }
        public Builder codePackage(String value) { codePackage = value; return this; }
        public Builder maxRestarts(Integer value) { maxRestarts = value; return this; }
        public Builder restartOn(RestartOn value) { restartOn = value; return this; }
        public Builder stallTimeout(Duration value) { stallTimeout = value; return this; }
        public Builder debugHold(Duration value) { debugHold = value; return this; }
        public Builder queue(String value) { queue = value; return this; }
        public Builder priority(String value) { priority = value; return this; }
        public Builder account(String value) { account = value; return this; }
        public Builder partition(String value) { partition = value; return this; }
        public Builder qos(String value) { qos = value; return this; }
        public Builder pserverImage(String value) { pserverImage = value; return this; }
        public Builder pserverEnv(Map<String, String> value) { pserverEnv = value; return this; }
        public Builder trainerEnv(Map<String, String> value) { trainerEnv = value; return this; }
        public Builder envFromSecrets(Map<String, JobRequest.SecretKey> value) { envFromSecrets = value; return this; }
        public Builder shmSize(Memory value) { shmSize = value; return this; }
        public Builder nodeSelector(Map<String, String> value) { nodeSelector = value; return this; }
        public Builder tolerations(List<JobRequest.Toleration> value) { tolerations = value; return this; }
        public Builder nodeAffinity(List<JobRequest.NodeRequirement> value) { nodeAffinity = value; return this; }
        public Builder volumes(List<JobRequest.Volume> value) { volumes = value; return this; }
    }
}
