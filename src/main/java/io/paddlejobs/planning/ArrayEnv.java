package io.paddlejobs.planning;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A replica's environment, read-only, in its order, as two arrays: a plan is kept for every job a service
 * knows (the Kubernetes backend recovers one per job in the cluster). A LinkedHashMap spends some 50 bytes on
 * each of a replica's 20-odd variables (its entry and its slot): 4 KiB of a job's 16 in a replica's caches at
 * 2,000 jobs, where an array slot is 4 bytes. Lookups scan: an environment has a few dozen variables.
 */
final class ArrayEnv extends AbstractMap<String, String> {

    private final String[] names;
    private final String[] values;

    ArrayEnv(Map<String, String> env) {
        names = new String[env.size()];
        values = new String[env.size()];
        int i = 0;
        for (Map.Entry<String, String> variable : env.entrySet()) {
            names[i] = variable.getKey();
            values[i] = variable.getValue();
            i++;
        }
    }

    @Override
    public String get(Object name) {
        int i = indexOf(name);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object name) {
        return indexOf(name) >= 0;
    }

    @Override
    public int size() {
        return names.length;
    }

    private int indexOf(Object name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, String>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Entry<String, String> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, String> variable = new SimpleImmutableEntry<>(names[next], values[next]);
                        next++;
                        return variable;
                    }
                };
            }

            @Override
            public int size() {
                return names.length;
            }
        };
    }
}
