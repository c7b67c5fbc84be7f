package io.paddlejobs.planning;

/**
 * The ports every pserver listens on: {@code first} .. {@code first + count() - 1}, dense
 * ports first, then the ones for sparse parameters.
 */
public record Ports(int first, int num, int numForSparse) {

    public int count() {
        return num + numForSparse;
    }

    public int last() {
        return first + count() - 1;
    }
}
