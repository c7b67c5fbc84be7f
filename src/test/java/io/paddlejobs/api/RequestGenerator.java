package io.paddlejobs.api;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * Job request bodies for {@link RandomRequestsTest}: valid ones, then the same mutated the ways
 * clients get requests wrong (dropped fields, wrong types, extreme numbers, strange text, broken
 * JSON). Everything comes from one seeded {@link Random}, so a failure replays with its seed.
 */
final class RequestGenerator {

    static final List<String> FIELDS = List.of("name", "entry_point", "pserver_entry_point", "image", "num_gpus",
            "num_cpus", "memory", "trainers", "trainer_cpu", "trainer_gpu", "trainer_mem", "pservers", "pserver_cpu",
            "pserver_mem", "port", "ports_num", "ports_num_for_sparse", "use_gpu", "env", "labels", "queue", "priority",
            "account", "partition", "qos");
    /**
     * The contract's fields this generator never sends (their own rules have tests of their own;
     * a random package is never uploaded): with {@link #FIELDS}, every field of the contract, so
     * that a new one is chosen for one list or the other ({@code RequestWireFormTest}).
     */
    static final List<String> NOT_SENT = List.of("mode", "max_run_time", "package", "max_restarts", "restart_on",
            "stall_timeout", "debug_hold", "notify", "pserver_image", "pserver_env", "trainer_env", "env_from_secrets", "shm_size",
            "node_selector", "tolerations", "node_affinity", "volumes");
    private static final List<String> COUNTS = List.of("trainers", "trainer_gpu", "trainer_cpu", "pservers", "port");
    private static final List<String> MEMORY = List.of("512Mi", "1Gi", "2Gi", "4G", "1500M", "1e9", "1.5Gi", "64Gi");
    private static final List<String> TEXT = List.of("", " ", "1 GB", "1e99", "-1Gi", "０", "null", "true", "{}",
            "\u0000", "\u202Eevil", "😀🚀", "paddlejobs.io/role", "PADDLE_INIT_X", "a\nb", "${jndi:x}", "%s%n",
            "<script>", "'; DROP TABLE jobs;--", "\uD800", "99999999999999999999Gi");

    private final Random random;
    private final JsonMapper json;

    RequestGenerator(long seed, JsonMapper json) {
        this.random = new Random(seed);
        this.json = json;
    }

    /** The next body: usually a mutated valid request, sometimes broken as text or bytes. */
    byte[] next() {
        Map<String, Object> request = validRequest();
        int mutations = random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            mutate(request);
        }
        String text = json.writeValueAsString(request);
        return switch (random.nextInt(12)) {
            case 0 -> text.substring(0, random.nextInt(text.length())).getBytes(StandardCharsets.UTF_8);
            case 1 -> duplicateKey(text).getBytes(StandardCharsets.UTF_8);
            case 2 -> corruptBytes(text.getBytes(StandardCharsets.UTF_8));
            case 3 -> deeplyNested(text).getBytes(StandardCharsets.UTF_8);
            default -> text.getBytes(StandardCharsets.UTF_8);
        };
    }

    private Map<String, Object> validRequest() {
        Map<String, Object> r = new LinkedHashMap<>();
        maybe(r, "name", () -> dnsLabel(1 + random.nextInt(40)));
        if (random.nextInt(20) > 0) {
            r.put("entry_point", pick(List.of("true", "python train.py", "sleep 30")));
        }
        maybe(r, "pserver_entry_point", () -> "python train.py --role pserver");
        maybe(r, "image", () -> "paddlepaddle/paddle:2.6.1");
        maybe(r, "num_gpus", () -> random.nextInt(9));
        maybe(r, "num_cpus", () -> 1 + random.nextInt(16));
        maybe(r, "memory", () -> pick(MEMORY));
        maybe(r, "trainers", () -> 1 + random.nextInt(8));
        maybe(r, "trainer_cpu", () -> 1 + random.nextInt(4));
        maybe(r, "trainer_gpu", () -> random.nextInt(3));
        maybe(r, "trainer_mem", () -> pick(MEMORY));
        maybe(r, "pservers", () -> 1 + random.nextInt(8));
        maybe(r, "pserver_cpu", () -> 1 + random.nextInt(4));
        maybe(r, "pserver_mem", () -> pick(MEMORY));
        maybe(r, "port", () -> 1024 + random.nextInt(60000));
        maybe(r, "ports_num", () -> 1 + random.nextInt(4));
        maybe(r, "ports_num_for_sparse", () -> random.nextInt(4));
        maybe(r, "use_gpu", random::nextBoolean);
        maybe(r, "env", () -> Map.of("EPOCHS", Integer.toString(random.nextInt(100)), "DATA_" + random.nextInt(9), "x"));
        maybe(r, "labels", () -> Map.of("team", dnsLabel(1 + random.nextInt(10))));
        maybe(r, "queue", () -> dnsLabel(1 + random.nextInt(10)));
        maybe(r, "priority", () -> dnsLabel(1 + random.nextInt(10)));
        maybe(r, "account", () -> pick(List.of("ml", "ml_team", "proj.42")));
        maybe(r, "partition", () -> pick(List.of("debug", "gpu-a100", "long_q")));
        maybe(r, "qos", () -> pick(List.of("normal", "high", "low.1")));
        return r;
    }

    private void mutate(Map<String, Object> r) {
        String field = pick(FIELDS);
        switch (random.nextInt(9)) {
            case 0 -> r.remove(field);
            case 1 -> r.put(field, oddValue());
            case 2 -> r.put(pick(COUNTS), Integer.MAX_VALUE);
            case 3 -> r.put(field, -1 - random.nextInt(1000));
            case 4 -> r.put(field, null);
            case 5 -> r.put(randomText(1 + random.nextInt(12)), oddValue());
            case 6 -> r.put(pick(List.of("env", "labels")), Map.of(randomText(1 + random.nextInt(8)), oddValue()));
            case 7 -> r.put(field, randomText(random.nextInt(300)));
            default -> r.put(field, Map.of("value", Map.of("nested", List.of(1, "two", Map.of()))));
        }
    }

    private Object oddValue() {
        return switch (random.nextInt(16)) {
            case 0 -> true;
            case 1 -> Integer.MAX_VALUE;
            case 2 -> Integer.MIN_VALUE;
            case 3 -> Long.MAX_VALUE;
            case 4 -> BigInteger.TEN.pow(30);
            case 5 -> 1.5;
            case 6 -> 1e308;
            case 7 -> -0.0;
            case 8 -> List.of();
            case 9 -> List.of(1, "a", List.of());
            case 10 -> Map.of();
            case 11 -> 0;
            case 12 -> random.nextInt(70000);
            case 13 -> pick(MEMORY);
            default -> pick(TEXT);
        };
    }

    /** Any code points, including control characters, right-to-left marks and astral planes. */
    private String randomText(int length) {
        StringBuilder text = new StringBuilder();
        while (text.length() < length) {
            int codePoint = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0x80);
                case 1 -> random.nextInt(0x800);
                case 2 -> 0xE000 + random.nextInt(0x2000);
                default -> 0x1F300 + random.nextInt(0x300);
            };
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }

    private String dnsLabel(int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder label = new StringBuilder();
        for (int i = 0; i < length; i++) {
            label.append(alphabet.charAt(random.nextInt(i == 0 ? 26 : alphabet.length())));
        }
        return label.toString();
    }

    private String duplicateKey(String text) {
        return text.startsWith("{") ? "{\"" + pick(FIELDS) + "\":" + random.nextInt(5) + "," + text.substring(1) : text;
    }

    private byte[] corruptBytes(byte[] bytes) {
        byte[] corrupted = bytes.clone();
        for (int i = 0; i < 1 + random.nextInt(3) && corrupted.length > 0; i++) {
            corrupted[random.nextInt(corrupted.length)] = (byte) random.nextInt(256);
        }
        return corrupted;
    }

    private String deeplyNested(String text) {
        int depth = 100 + random.nextInt(2000);
        String nested = "[".repeat(depth) + "]".repeat(depth);
        return text.startsWith("{") ? "{\"env\":" + nested + "," + text.substring(1) : nested;
    }

    private void maybe(Map<String, Object> request, String field, Supplier<Object> value) {
        if (random.nextInt(3) == 0) {
            request.put(field, value.get());
        }
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
