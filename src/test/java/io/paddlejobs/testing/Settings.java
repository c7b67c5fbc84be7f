package io.paddlejobs.testing;

import io.paddlejobs.config.PlanningProperties;
import io.paddlejobs.planning.PlanningPolicy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * A settings record as the service binds it, for tests: from an empty source, so the defaults are
 * the record's {@code @DefaultValue}s and a test never restates them, plus the keys a test changes
 * ({@code "max-running-jobs", 2}: names relative to the record's prefix, values as an operator writes them).
 */
public final class Settings {

    private Settings() {
    }

    /** What an operator who configured nothing gets. */
    public static <T> T defaults(Class<T> type) {
        return of(type);
    }

    /** The defaults with these keys set: pairs of a key below the record's prefix and its value. */
    public static <T> T of(Class<T> type, Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values come in pairs: " + keysAndValues.length + " given");
        }
        String prefix = prefixOf(type);
        Map<String, Object> source = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            source.put(prefix + "." + keysAndValues[i], String.valueOf(keysAndValues[i + 1]));
        }
        // A key the record does not have is an error, not ignored: a test setting a retired key would otherwise
        // run with the default and prove nothing about it.
        return new Binder(new MapConfigurationPropertySource(source)).bindOrCreate(prefix, Bindable.of(type),
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
    }

    /** The planner's policy with the shipped defaults and limits, as a service without settings plans. */
    public static PlanningPolicy planningPolicy() {
        return defaults(PlanningProperties.class).toPolicy();
    }

    /**
     * The shipped defaults and limits without the GPU rules (the GPU image and the per-GPU CPU and
     * memory floors): for tests whose figures are about something else than those floors.
     */
    public static PlanningPolicy planningPolicyWithoutGpuRules() {
        PlanningPolicy shipped = planningPolicy();
        return new PlanningPolicy(shipped.defaults(), shipped.limits());
    }

    private static String prefixOf(Class<?> type) {
        ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
        if (annotation == null) {
            throw new IllegalArgumentException(type.getName() + " is not a @ConfigurationProperties record");
        }
        return annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
    }
}
