package io.paddlejobs.security;

import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.web.header.HeaderWriter;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.security.web.header.writers.DelegatingRequestMatcherHeaderWriter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.security.web.header.writers.StaticHeadersWriter;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

/**
 * The headers every response carries, in every mode:
 * <ul>
 *   <li>{@code Content-Security-Policy}: our pages load only their own scripts and styles, and no
 *       other site may frame them. Swagger UI, not ours, also gets {@code data:} images and inline
 *       styles, which it needs.</li>
 *   <li>{@code X-Content-Type-Options: nosniff}, {@code X-Frame-Options: DENY} (for browsers
 *       without frame-ancestors), {@code Referrer-Policy: no-referrer} (status URLs carry
 *       namespaces and job names).</li>
 * </ul>
 * Caching stays as the controllers set it. Cross-origin calls are refused unless
 * {@code paddlejobs.security.cors-origins} names the origins allowed.
 *
 * <p>The headers are written before the request is handled, on its own thread. Written lazily (Spring
 * Security's default), they go out when the response commits: for a streamed answer (a log follow, an
 * event stream) that can be on the stream's thread while the request's thread still writes them too, and
 * Tomcat's header map is not safe for two threads (a follow answered 500).
 */
final class SecurityHeaders {

    static final String POLICY = "default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
    static final String SWAGGER_UI_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            + "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

    private SecurityHeaders() {
    }

    static void apply(HttpSecurity http, List<String> corsOrigins) {
        RequestMatcher swaggerUi = request -> request.getRequestURI()
                .startsWith(request.getContextPath() + "/swagger-ui");
        RequestMatcher ours = request -> !swaggerUi.matches(request);
        HeaderWriter policy = new DelegatingRequestMatcherHeaderWriter(ours,
                new StaticHeadersWriter("Content-Security-Policy", POLICY));
        HeaderWriter swaggerPolicy = new DelegatingRequestMatcherHeaderWriter(swaggerUi,
                new StaticHeadersWriter("Content-Security-Policy", SWAGGER_UI_POLICY));
        http.headers(headers -> headers
                .withObjectPostProcessor(new ObjectPostProcessor<HeaderWriterFilter>() {
                    @Override
                    public <O extends HeaderWriterFilter> O postProcess(O filter) {
                        filter.setShouldWriteHeadersEagerly(true);
                        return filter;
                    }
                })
                .cacheControl(cache -> cache.disable())
                .contentTypeOptions(Customizer.withDefaults())
                .frameOptions(frames -> frames.deny())
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER))
                .addHeaderWriter(policy)
                .addHeaderWriter(swaggerPolicy));
        if (corsOrigins.isEmpty()) {
            http.cors(AbstractHttpConfigurer::disable);
        } else {
            http.cors(cors -> cors.configurationSource(corsSource(corsOrigins)));
        }
    }

    private static UrlBasedCorsConfigurationSource corsSource(List<String> origins) {
        CorsConfiguration config = new CorsConfiguration();
        config.setAllowedOrigins(origins);
        config.setAllowedMethods(List.of(HttpMethod.GET.name(), HttpMethod.POST.name(), HttpMethod.DELETE.name()));
        config.setAllowedHeaders(List.of("Authorization", "Content-Type", "Accept"));
        config.setExposedHeaders(List.of("Location", "Warning", "Retry-After", "WWW-Authenticate"));
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/jobs/**", config);
        source.registerCorsConfiguration("/jobs", config);
        return source;
    }
}
