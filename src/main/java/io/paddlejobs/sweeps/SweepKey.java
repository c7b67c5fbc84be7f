package io.paddlejobs.sweeps;

/** A sweep is identified by its namespace and name, as a job is. */
record SweepKey(String namespace, String name) {

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
