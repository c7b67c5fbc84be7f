package io.paddlejobs.api;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.ObjectMapper;

/**
 * Each value's JSON, kept per key until the value changes: a thousand readers of one job's status
 * between two changes cost one serialization. A value's version is the value itself (the backends
 * have no version number in common); comparing two is much cheaper than writing one out.
 * Bounded: past {@code capacity} keys it starts again empty rather than grow with every job ever read.
 */
final class JsonCache<K, V> {

    private record Entry<V>(V value, String json) {
    }

    private final ObjectMapper json;
    private final int capacity;
    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();

    JsonCache(ObjectMapper json, int capacity) {
        this.json = json;
        this.capacity = capacity;
    }

    String json(K key, V value) {
        Entry<V> cached = entries.get(key);
        if (cached != null && Objects.equals(cached.value(), value)) {
            return cached.json();
        }
        if (entries.size() >= capacity) {
            entries.clear();
        }
        Entry<V> fresh = new Entry<>(value, json.writeValueAsString(value));
        entries.put(key, fresh);
        return fresh.json();
    }
}
