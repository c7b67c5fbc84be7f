package io.paddlejobs.api;

/** One entry of a problem document's {@code errors}: the request field, what is wrong, and the value. */
public record FieldError(String field, String message, Object rejected) {
}
