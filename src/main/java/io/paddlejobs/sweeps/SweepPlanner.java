package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.security.Tenant;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a sweep before anything of it is created: its space's trials, and each trial's job planned as a
 * dry run plans one, so that a value out of bounds is a 400 at submit (naming the parameter and the value),
 * not a failed trial an hour later. Nothing is created here.
 */
final class SweepPlanner {

    /** Errors a refusal lists at most: one per broken rule, however many trials break it. */
    private static final int MAX_ERRORS = 20;
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final JobRequests requests;
    private final JobService jobs;

    SweepPlanner(JobRequests requests, JobService jobs) {
        this.requests = requests;
        this.jobs = jobs;
    }

    /** A planned sweep: its request with name and seed filled in, its trials, and what the user should know. */
    record Planned(SweepRequest request, List<TrialState> trials, List<String> warnings) {

        Planned {
            trials = List.copyOf(trials);
            warnings = List.copyOf(warnings);
        }
    }

    /** The request with a name and a seed: given, else generated. */
    static SweepRequest resolve(SweepRequest request) {
        String name = request.name() != null ? request.name() : "sweep-" + randomSuffix();
        Long seed = request.seed() != null || !request.random() ? request.seed() : Long.valueOf(RANDOM.nextInt(Integer.MAX_VALUE));
        return request.resolved(name, seed);
    }

    /** @throws SweepRejectedException naming every field that breaks a rule */
    Planned plan(SweepRequest request, String namespace, Tenant owner) {
        List<Violation> violations = new ArrayList<>(SweepRules.check(request, owner));
        if (!violations.isEmpty()) {
            throw new SweepRejectedException(violations);
        }
        ParameterSpace.Trials space = ParameterSpace.trials(request);
        checkTemplate(request);
        Set<Violation> broken = new LinkedHashSet<>();
        Set<String> warnings = new LinkedHashSet<>(space.warnings());
        List<TrialState> trials = new ArrayList<>();
        long mostGpus = 0;
        for (int i = 0; i < space.assignments().size(); i++) {
            int number = i + 1;
            Map<String, Object> assignment = space.assignments().get(i);
            Map<String, Object> document = TrialDocuments.of(request.template(), request.name(), number,
                    request.parameters(), assignment);
            Blame blame = new Blame(request.parameters(), assignment);
            JobRequests.Reading reading = requests.read(document);
            if (!reading.violations().isEmpty()) {
                reading.violations().forEach(v -> broken.add(blame.of(v)));
            } else {
                try {
                    JobPlan plan = jobs.offlineDryRun(reading.request(), namespace).plan();
                    warnings.addAll(plan.warnings());
                    mostGpus = Math.max(mostGpus, plan.totals().gpu());
                } catch (InvalidJobRequestException e) {
                    e.violations().forEach(v -> broken.add(blame.of(v)));
                }
            }
            if (broken.size() >= MAX_ERRORS) {
                break;
            }
            trials.add(TrialState.planned(number, TrialDocuments.jobName(request.name(), number), assignment));
        }
        if (!broken.isEmpty()) {
            throw new SweepRejectedException(List.copyOf(broken));
        }
        int gpuLimit = owner.limits().maxGpusInUse();
        if (gpuLimit > 0 && mostGpus * request.parallelOrDefault() > gpuLimit) {
            throw new SweepRejectedException(List.of(Violation.of("parallel", request.parallelOrDefault(),
                    "trials of " + mostGpus + " GPUs, " + request.parallelOrDefault() + " at once, would hold "
                            + mostGpus * request.parallelOrDefault() + " GPUs; the namespace may hold " + gpuLimit
                            + " (paddlejobs.security.limits.max-gpus-in-use)")));
        }
        return new Planned(request, trials, List.copyOf(warnings));
    }

    /** The template read on its own: its own errors are named under {@code template.}, whatever a trial sets. */
    private void checkTemplate(SweepRequest request) {
        List<Violation> violations = new ArrayList<>();
        if (request.template().containsKey("name")) {
            violations.add(Violation.of("template.name", request.template().get("name") instanceof String s ? s : null,
                    "must be left out: trials are named <sweep>-t1, -t2, ..."));
        }
        if (request.template().containsKey("notify")) {
            violations.add(Violation.of("template.notify", null, "must be left out: trials start later, where nobody could be"
                    + " shown their webhook secrets; the namespace's webhook subscriptions are told of trials as of any job"));
        }
        Map<String, Object> alone = new LinkedHashMap<>(request.template());
        alone.put("name", TrialDocuments.jobName(request.name(), 1));
        alone.remove("notify");
        requests.read(alone).violations().forEach(v -> violations.add(prefixed(v)));
        if (!violations.isEmpty()) {
            throw new SweepRejectedException(violations);
        }
    }

    private static Violation prefixed(Violation violation) {
        return new Violation(violation.fields().stream().map(field -> "template." + field).toList(),
                violation.message(), violation.rejected());
    }

    private static String randomSuffix() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return suffix.toString();
    }

    /**
     * Which parameter a trial's broken rule is due to: the one that sets the field (its value named, under
     * {@code parameters[i].values[j]} where it came from a list), else the template's field.
     */
    private record Blame(List<SweepRequest.Parameter> parameters, Map<String, Object> assignment) {

        Violation of(Violation violation) {
            List<String> fields = new ArrayList<>();
            Object rejected = violation.rejected();
            String because = violation.message();
            for (String field : violation.fields()) {
                int i = setting(field, violation.message());
                if (i < 0) {
                    fields.add("template." + field);
                    continue;
                }
                SweepRequest.Parameter parameter = parameters.get(i);
                Object value = assignment.get(parameter.name());
                int j = parameter.values() == null ? -1 : indexOf(parameter.values(), value);
                fields.add("parameters[" + i + "]" + (j < 0 ? "" : ".values[" + j + "]"));
                rejected = value;
                because = "sets " + field + " to " + ParameterValues.text(value) + ": " + violation.message();
            }
            return new Violation(fields, because, rejected);
        }

        /** The parameter that sets the field; for {@code env}, whose messages start with the variable's name, that one's. */
        private int setting(String field, String message) {
            for (int i = 0; i < parameters.size(); i++) {
                SweepRequest.Parameter parameter = parameters.get(i);
                boolean sets = parameter.env() != null
                        ? field.equals("env." + parameter.env()) || field.equals("env") && message.startsWith(parameter.env() + ":")
                        : parameter.arg() != null ? field.equals("entry_point") : field.equals(parameter.field());
                if (sets) {
                    return i;
                }
            }
            return -1;
        }

        private static int indexOf(List<Object> values, Object value) {
            for (int j = 0; j < values.size(); j++) {
                if (ParameterValues.text(values.get(j)).equals(ParameterValues.text(value))) {
                    return j;
                }
            }
            return -1;
        }
    }
}
