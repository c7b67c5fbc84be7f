package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The partition, account and QOS a job is submitted with: the request's own where the operator
 * allows its namespace that value ({@code paddlejobs.slurm.partitions}, {@code accounts}, {@code qos}),
 * else the backend's. Slurm would take any name the submitting user may use, and the service
 * submits every tenant's jobs as one user: so the operator's list, not Slurm, decides what a
 * namespace may be charged to.
 *
 * @param partition empty for the cluster's default
 * @param account   empty for the user's default
 * @param qos       empty for the account's default
 */
public record SlurmChoices(String partition, String account, String qos) {

    public static final SlurmChoices DEFAULTS = new SlurmChoices("", "", "");

    /** One request field, the setting that lists what each namespace may give, and the backend's own value. */
    private record Field(String name, Function<JobRequest.Placement, String> asked,
                         Function<SlurmProperties, Map<String, List<String>>> allowed,
                         Function<SlurmProperties, String> backends) {
    }

    private static final List<Field> FIELDS = List.of(
            new Field("partition", JobRequest.Placement::partition, SlurmProperties::partitions, SlurmProperties::partition),
            new Field("account", JobRequest.Placement::account, SlurmProperties::accounts, SlurmProperties::account),
            new Field("qos", JobRequest.Placement::qos, SlurmProperties::qos, p -> ""));

    /** The choices of a plan {@link #violations} found nothing wrong with. */
    public static SlurmChoices of(JobPlan plan, SlurmProperties properties) {
        JobRequest.Placement asked = plan.spec().placement();
        String[] values = new String[FIELDS.size()];
        for (int i = 0; i < values.length; i++) {
            Field field = FIELDS.get(i);
            String value = field.asked().apply(asked);
            values[i] = value != null ? value : field.backends().apply(properties);
        }
        return new SlurmChoices(values[0], values[1], values[2]);
    }

    /** Each field the request gives a value the operator does not allow its namespace. */
    static List<Violation> violations(JobPlan plan, SlurmProperties properties) {
        List<Violation> violations = new ArrayList<>();
        for (Field field : FIELDS) {
            String value = field.asked().apply(plan.spec().placement());
            String backends = field.backends().apply(properties);
            if (value == null || value.equals(backends)) {
                continue; // what the job would get anyway
            }
            List<String> allowed = field.allowed().apply(properties).getOrDefault(plan.namespace(), List.of());
            if (!allowed.contains(value)) {
                violations.add(Violation.of(field.name(), value, message(field, plan.namespace(), allowed, backends)));
            }
        }
        return violations;
    }

    private static String message(Field field, String namespace, List<String> allowed, String backends) {
        String setting = "paddlejobs.slurm." + (field.name().equals("qos") ? "qos" : field.name() + "s");
        String otherwise = backends.isEmpty() ? "leave " + field.name() + " out for the cluster's default"
                : "leave " + field.name() + " out for " + backends;
        return allowed.isEmpty()
                ? "the operator allows namespace %s no %s of its own (%s): %s".formatted(namespace, field.name(),
                        setting, otherwise)
                : "must be one the operator allows namespace %s (%s): %s; or %s".formatted(namespace, setting,
                        String.join(", ", allowed), otherwise);
    }
}
