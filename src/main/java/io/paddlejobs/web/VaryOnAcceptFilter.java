package io.paddlejobs.web;

import io.paddlejobs.security.PagePaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Marks the URLs that serve both a page and JSON ({@code /jobs}, {@code /jobs/{name}/status})
 * with {@code Vary: Accept}, so that a cache or the browser's back button never hands the JSON
 * the page fetched to a person, or the page to a script.
 */
@Component
class VaryOnAcceptFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !PagePaths.servesPageAndJson(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.addHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT);
        chain.doFilter(request, response);
    }
}
