package io.paddlejobs.web;

import io.paddlejobs.api.ProblemAdvice;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * A query string Tomcat cannot parse (a parameter without a name, {@code ?=x}; a bad %-escape,
 * {@code ?continue=%%%}) is a 400 on every endpoint, whether or not it reads a parameter: Tomcat
 * parses the query only when it is first asked for one, and its exception would otherwise surface
 * wherever that is. A form body is left alone: parsing the parameters would read it here, before
 * the body limits (no endpoint reads one: it is answered 415).
 */
@Component
class QueryStringFilter extends OncePerRequestFilter {

    private final JsonMapper json;

    QueryStringFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String type = request.getContentType();
        return request.getQueryString() == null || (type != null && type.regionMatches(true, 0,
                MediaType.APPLICATION_FORM_URLENCODED_VALUE, 0, MediaType.APPLICATION_FORM_URLENCODED_VALUE.length()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            request.getParameterMap();
        } catch (InvalidParameterException e) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            json.writeValue(response.getOutputStream(), ProblemAdvice.unreadableQuery());
            return;
        }
        chain.doFilter(request, response);
    }
}
