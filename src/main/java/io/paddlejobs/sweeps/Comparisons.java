package io.paddlejobs.sweeps;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Builds {@link Comparison}s of a set of jobs or of a sweep's trials, from the jobs and their metrics as they are now. */
final class Comparisons {

    /** How many runs one comparison may hold: each is a job read and its metrics. */
    static final int MAX_RUNS = 100;

    private final JobService jobs;
    private final MetricsCollector metrics;
    private final JobRequests requests;

    Comparisons(JobService jobs, MetricsCollector metrics, JobRequests requests) {
        this.jobs = jobs;
        this.metrics = metrics;
        this.requests = requests;
    }

    /** @throws io.paddlejobs.job.JobNotFoundException for a job that is not there */
    Comparison ofJobs(String namespace, List<String> names, SweepUrls urls) {
        List<Job> found = names.stream().distinct().map(name -> jobs.get(new JobKey(namespace, name))).toList();
        List<Map<String, Object>> parameters = new ArrayList<>();
        List<Comparison.Field> fields = fields(found);
        for (int i = 0; i < found.size(); i++) {
            Map<String, Object> differing = new LinkedHashMap<>();
            for (Comparison.Field field : fields) {
                if (field.differs() && !field.field().equals("name") && field.values().get(i) != null) {
                    differing.put(field.field(), field.values().get(i));
                }
            }
            parameters.add(differing);
        }
        List<String> columns = fields.stream().filter(f -> f.differs() && !f.field().equals("name"))
                .map(Comparison.Field::field).toList();
        return build(null, null, columns, found, parameters, fields, urls);
    }

    Comparison ofSweep(SweepRecord sweep, SweepUrls urls) {
        List<Job> found = new ArrayList<>();
        List<Map<String, Object>> parameters = new ArrayList<>();
        for (TrialState trial : sweep.state().trials()) {
            if (trial.submitted()) {
                jobs.find(new JobKey(sweep.namespace(), trial.job())).ifPresent(job -> {
                    found.add(job);
                    parameters.add(trial.parameters());
                });
            }
        }
        List<String> columns = sweep.request().parameters().stream().map(SweepRequest.Parameter::name).toList();
        return build(sweep.name(), sweep.request().objective(), columns, found, parameters, fields(found), urls);
    }

    private Comparison build(String sweep, SweepRequest.Objective objective, List<String> columns, List<Job> found,
                             List<Map<String, Object>> parameters, List<Comparison.Field> fields, SweepUrls urls) {
        Set<String> names = new TreeSet<>();
        List<Comparison.Run> runs = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            Job job = found.get(i);
            MetricsSnapshot snapshot = metrics.read(job, 0);
            Map<String, Comparison.Summary> summaries = new TreeMap<>();
            for (String metric : snapshot.metrics().keySet()) {
                Curve curve = Curve.of(snapshot, metric);
                if (!curve.isEmpty()) {
                    summaries.put(metric, summary(curve, objective != null && objective.metric().equals(metric) ? objective : null));
                    names.add(metric);
                }
            }
            runs.add(new Comparison.Run(job.plan().name(), job.plan().namespace(), job.status().phase(),
                    job.status().reason(), urls.job(job.plan().namespace(), job.plan().name()), job.status().createdAt(),
                    job.status().startedAt(), job.status().finishedAt(), parameters.get(i), summaries));
        }
        return new Comparison(sweep, objective, columns, runs, List.copyOf(names), fields);
    }

    private static Comparison.Summary summary(Curve curve, SweepRequest.Objective objective) {
        double min = curve.points().stream().mapToDouble(Curve.Point::value).min().orElseThrow();
        double max = curve.points().stream().mapToDouble(Curve.Point::value).max().orElseThrow();
        Curve.Point last = curve.points().get(curve.points().size() - 1);
        Double best = objective == null ? null : curve.bestUpTo(objective, Long.MAX_VALUE).orElseThrow();
        return new Comparison.Summary(last.value(), last.step(), min, max, best);
    }

    /** Every request field of the runs, flattened, with its value in each; the sweep's own labels left out. */
    private List<Comparison.Field> fields(List<Job> found) {
        List<Map<String, String>> flat = found.stream().map(job -> flatten(requests.document(job.plan().spec()))).toList();
        Set<String> keys = new LinkedHashSet<>();
        flat.forEach(map -> keys.addAll(map.keySet()));
        List<Comparison.Field> fields = new ArrayList<>();
        for (String key : keys) {
            List<String> values = flat.stream().map(map -> map.get(key)).toList();
            boolean differs = values.stream().distinct().count() > 1;
            fields.add(new Comparison.Field(key, values, differs));
        }
        return fields;
    }

    private static Map<String, String> flatten(Map<String, Object> document) {
        Map<String, String> flat = new LinkedHashMap<>();
        document.forEach((field, value) -> {
            if (value instanceof Map<?, ?> map) {
                new TreeMap<>(map).forEach((key, inner) -> {
                    String name = field + "." + key;
                    if (!name.startsWith("labels." + TrialDocuments.LABEL_PREFIX)) {
                        flat.put(name, Objects.toString(inner, null));
                    }
                });
            } else if (value != null) {
                flat.put(field, value instanceof List<?> list ? list.toString() : value.toString());
            }
        });
        return flat;
    }
}
