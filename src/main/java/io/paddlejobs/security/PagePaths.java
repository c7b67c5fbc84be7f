package io.paddlejobs.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;

/**
 * The URLs that serve both a page and JSON, by {@code Accept}: {@code /jobs},
 * {@code /jobs/{name}/status} and {@code /compare} (runs side by side), exactly; with a trailing slash they serve neither (Spring MVC does
 * not match one), so they are no page to let through and no answer to mark {@code Vary: Accept}.
 */
public final class PagePaths {

    private static final Pattern NEGOTIATED = Pattern.compile("/jobs(/[^/]+/status)?|/compare");

    private PagePaths() {
    }

    /** Whether the request's path, within the application, is one of them. */
    public static boolean servesPageAndJson(HttpServletRequest request) {
        return servesPageAndJson(request.getRequestURI().substring(request.getContextPath().length()));
    }

    static boolean servesPageAndJson(String path) {
        return NEGOTIATED.matcher(path).matches();
    }
}
