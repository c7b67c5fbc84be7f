package io.paddlejobs.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <token>} with the mode's {@link TokenAuthenticator}. No token
 * leaves the request anonymous (public paths stay open, the rest answer 401); a wrong token is a
 * 401 at once, even on a public path, so a caller learns of a typo instead of being served as nobody.
 *
 * <p>Not a bean: Spring Boot would also register a bean filter outside the security chain.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

    private static final String SCHEME = "bearer ";

    private final TokenAuthenticator tokens;
    private final AuthProblems problems;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    BearerTokenFilter(TokenAuthenticator tokens, AuthProblems problems) {
        this.tokens = tokens;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Tenant> tenant = tokens.authenticate(header.substring(SCHEME.length()).strip());
        if (tenant.isEmpty()) {
            problems.invalidToken(request, response);
            return;
        }
        SecurityContext context = contexts.createEmptyContext();
        context.setAuthentication(new TenantAuthentication(tenant.get()));
        contexts.setContext(context);
        try {
            chain.doFilter(request, response);
        } finally {
            contexts.clearContext();
        }
    }
}
