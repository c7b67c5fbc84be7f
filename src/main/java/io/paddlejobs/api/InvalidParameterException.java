package io.paddlejobs.api;

import java.util.function.Function;

/** A query parameter that does not parse; answered as a request error naming the parameter. */
public class InvalidParameterException extends RuntimeException {

    private final FieldError error;

    public InvalidParameterException(String parameter, String message, String rejected) {
        super(message);
        this.error = new FieldError(parameter, message, rejected);
    }

    FieldError error() {
        return error;
    }

    /** {@code parse.apply(value)}, with its {@link IllegalArgumentException} charged to {@code parameter}. */
    public static <T> T parse(String parameter, String value, Function<String, T> parse) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException(parameter, e.getMessage(), value);
        }
    }
}
