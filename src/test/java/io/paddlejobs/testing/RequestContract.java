package io.paddlejobs.testing;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The job request's fields as the committed contract ({@code openapi/openapi.yaml}) lists them: the
 * one list the other copies (the record, the Kubernetes spec, the Python client) are checked against.
 */
public final class RequestContract {

    public static final Path FILE = Path.of("openapi", "openapi.yaml");

    private RequestContract() {
    }

    /** The property names of the contract's {@code JobRequest} schema, in the contract's order. */
    @SuppressWarnings("unchecked")
    public static List<String> fields() {
        try (Reader reader = Files.newBufferedReader(FILE)) {
            Map<String, Object> contract = new Yaml().load(reader);
            var schemas = (Map<String, Object>) ((Map<String, Object>) contract.get("components")).get("schemas");
            var properties = (Map<String, Object>) ((Map<String, Object>) schemas.get("JobRequest")).get("properties");
            return List.copyOf(properties.keySet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The components of a record, and of its parts (the records declared inside it), that are
     * {@code null} or empty, by their path ({@code lifecycle.maxRunTime}): a request that gives every
     * field has none.
     */
    public static List<String> unset(Record record) {
        List<String> unset = new ArrayList<>();
        collectUnset(record, record.getClass(), "", unset);
        return unset;
    }

    private static void collectUnset(Record record, Class<?> whole, String prefix, List<String> unset) {
        for (var component : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            String path = prefix + component.getName();
            if (value instanceof Record part && part.getClass().getEnclosingClass() == whole) {
                collectUnset(part, whole, path + ".", unset);
            } else if (value == null || value instanceof Map<?, ?> map && map.isEmpty()
                    || value instanceof List<?> list && list.isEmpty()) {
                unset.add(path);
            }
        }
    }
}
