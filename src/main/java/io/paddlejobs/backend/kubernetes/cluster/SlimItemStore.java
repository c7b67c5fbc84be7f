package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** An informer store that keeps each object as {@link Slim} reduces it. */
final class SlimItemStore<T extends HasMetadata> implements ItemStore<T> {

    private final BasicItemStore<T> items = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    private final UnaryOperator<T> slim;

    SlimItemStore(UnaryOperator<T> slim) {
        this.slim = slim;
    }

    @Override
    public String getKey(T object) {
        return items.getKey(object);
    }

    @Override
    public T put(String key, T object) {
        return items.put(key, slim.apply(object));
    }

    @Override
    public T remove(String key) {
        return items.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return items.keySet();
    }

    @Override
    public Stream<T> values() {
        return items.values();
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public T get(String key) {
        return items.get(key);
    }
}
