package io.paddlejobs.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Settings that are no longer read: folded into one the backends share, or now a constant nobody had reason to
 * change (issue 45, fewer settings). One that is still set stops the start, naming what replaced it, rather than
 * being ignored: an operator who set {@code paddlejobs.local.stop-grace-period=2m} would otherwise get 30 s
 * without a word. It runs before any bean is made (a bean factory post-processor), so nothing has started yet,
 * and sees every source of settings as binding does: files, arguments, environment variables in any spelling.
 */
@Component
public final class RetiredSettings implements BeanFactoryPostProcessor, EnvironmentAware {

    private static final String SHARED = "; it is one setting for every backend now";
    private static final String CONSTANT = "; remove it";

    /** Each retired key and what to do instead (listed in docs/configuration.md). */
    public static final Map<String, String> REPLACEMENTS = replacements();

    private Environment environment;

    private static Map<String, String> replacements() {
        Map<String, String> replaced = new LinkedHashMap<>();
        for (String backend : List.of("local", "slurm")) {
            replaced.put("paddlejobs." + backend + ".stop-grace-period", "set paddlejobs.stop-grace-period" + SHARED);
            replaced.put("paddlejobs." + backend + ".rendezvous-listen-timeout",
                    "set paddlejobs.rendezvous-listen-timeout" + SHARED);
            replaced.put("paddlejobs." + backend + ".allow-shared-files", "set paddlejobs.allow-shared-files" + SHARED);
        }
        replaced.put("paddlejobs.kubernetes.termination-grace-period", "set paddlejobs.stop-grace-period" + SHARED);
        replaced.put("paddlejobs.local.min-free-space", "set paddlejobs.min-free-space, which also keeps the free space"
                + " where packages and the embedded history are kept");
        replaced.put("paddlejobs.packages.min-free-space", "set paddlejobs.min-free-space, which also keeps the free"
                + " space of the local backend's data root and the embedded history");
        replaced.put("paddlejobs.local.sandbox-uid-count", "the range from sandbox-first-uid holds 100000 users"
                + CONSTANT);
        replaced.put("paddlejobs.metrics.retry-interval", "a trainer's log not there yet is tried again every 2 s"
                + CONSTANT);
        replaced.put("paddlejobs.history.retry-every", "a change the history could not take is written again every 5 s"
                + CONSTANT);
        replaced.put("paddlejobs.history.retention.check-every", "the retention limits are enforced every 10 minutes"
                + CONSTANT);
        replaced.put("paddlejobs.packages.sweep-interval", "expired packages are looked for every tenth of"
                + " paddlejobs.packages.expire-after, at most every 10 minutes" + CONSTANT);
        replaced.put("paddlejobs.packages.upload-grace-period", "an upload's rate is checked after 10 s" + CONSTANT);
        replaced.put("paddlejobs.packages.upload-min-rate", "an upload must keep 64 KiB/s" + CONSTANT);
        replaced.put("paddlejobs.packages.max-entries", "a package may hold 10000 entries" + CONSTANT);
        replaced.put("paddlejobs.webhooks.connect-timeout", "a connection to a receiver may take 2 s" + CONSTANT);
        replaced.put("paddlejobs.webhooks.max-answer", "the first 1 KiB of an answer is kept" + CONSTANT);
        replaced.put("paddlejobs.webhooks.keep-deliveries", "a job's last 100 deliveries are listed" + CONSTANT);
        replaced.put("paddlejobs.slurm.max-log-read", "one read of a log serves at most 64 MB" + CONSTANT);
        return Map.copyOf(replaced);
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        refuseAnySetIn(environment);
    }

    /** @throws IllegalStateException naming each retired setting that is set, and what replaced it */
    static void refuseAnySetIn(Environment environment) {
        Iterable<ConfigurationPropertySource> sources = ConfigurationPropertySources.get(environment);
        String found = REPLACEMENTS.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .filter(retired -> isSet(sources, ConfigurationPropertyName.of(retired.getKey())))
                .map(retired -> retired.getKey() + " is no longer read: " + retired.getValue() + ".")
                .collect(Collectors.joining(" "));
        if (!found.isEmpty()) {
            throw new IllegalStateException("Settings of an earlier version are set (see docs/configuration.md): " + found);
        }
    }

    private static boolean isSet(Iterable<ConfigurationPropertySource> sources, ConfigurationPropertyName name) {
        return StreamSupport.stream(sources.spliterator(), false)
                .anyMatch(source -> source.getConfigurationProperty(name) != null);
    }
}
