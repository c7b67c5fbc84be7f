package io.paddlejobs.backend.kubernetes.manifest.step;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Points every empty list and map of a fabric8 model object, and of the model objects inside it, at the one
 * shared immutable empty list or map. The model starts each of its list and map fields (additionalProperties
 * included) as a new ArrayList or LinkedHashMap, some 30 per Kubernetes object and nearly all of them empty:
 * 10 of the 29 KiB a slimmed job (two Jobs, four pods) held in the informer stores. Those objects are only read,
 * never changed in place; a builder or a clone made from one copies into lists of its own.
 */
public final class SharedEmpties {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

    /** Each model class's fields that hold a list, a map or another model object. */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && isModel(c); c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    Class<?> held = field.getType();
                    if (!Modifier.isStatic(field.getModifiers())
                            && (held == List.class || held == Map.class || isModel(held))) {
                        field.setAccessible(true);
                        fields.add(field);
                    }
                }
            }
            return List.copyOf(fields);
        }
    };

    private SharedEmpties() {
    }

    public static <T> T in(T object) {
        try {
            share(object);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("fabric8's model fields were made accessible", e);
        }
        return object;
    }

    private static void share(Object object) throws IllegalAccessException {
        for (Field field : FIELDS.get(object.getClass())) {
            Object value = field.get(object);
            if (value instanceof List<?> list) {
                if (list.isEmpty()) {
                    field.set(object, List.of());
                } else {
                    for (Object item : list) {
                        if (item != null && isModel(item.getClass())) {
                            share(item);
                        }
                    }
                }
            } else if (value instanceof Map<?, ?> map) {
                if (map.isEmpty()) {
                    field.set(object, Map.of());
                }
            } else if (value != null) {
                share(value);
            }
        }
    }

    private static boolean isModel(Class<?> type) {
        return type.getName().startsWith(MODEL_PACKAGE);
    }
}
