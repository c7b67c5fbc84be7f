package io.paddlejobs.job;

/** A job is identified by its namespace and name. */
public record JobKey(String namespace, String name) {

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
