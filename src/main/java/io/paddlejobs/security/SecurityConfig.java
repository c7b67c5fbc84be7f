package io.paddlejobs.security;

import io.paddlejobs.job.Tenancy;
import jakarta.servlet.DispatcherType;
import java.util.List;
import java.util.Locale;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import java.util.Set;
import org.springframework.security.web.session.DisableEncodeUrlFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one security filter chain. Mode {@code none} lets everything through; modes {@code token}
 * and {@code kubernetes} want a bearer token everywhere but on the public paths (health, metrics, API docs, page
 * assets, and the pages themselves, whose scripts send the token). Which namespace a caller may
 * use is decided per request by {@link NamespaceAccess}; this chain only says who the caller is.
 * Either way the responses carry the headers of {@link SecurityHeaders}, requests from other sites
 * and unknown host names are refused first ({@link RequestOriginFilter}), and no session is made.
 * What the firewall refuses, before all of it, is a problem document too ({@link RejectedRequests}).
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfig {

    // Mode kubernetes brings its own authorizer and authenticator (io.paddlejobs.security.kubernetes).
    @Bean
    @ConditionalOnSecurityMode(SecurityProperties.Mode.NONE)
    TenantAuthorizer anyone() {
        return TenantAuthorizer.ANYONE;
    }

    @Bean
    @ConditionalOnSecurityMode(SecurityProperties.Mode.TOKEN)
    TenantAuthorizer listedNamespaces() {
        return TenantAuthorizer.LISTED_NAMESPACES;
    }

    @Bean
    @ConditionalOnSecurityMode(SecurityProperties.Mode.TOKEN)
    TokenStore tokenStore(SecurityProperties security) {
        return TokenStore.load(security.tokenFile(), security.limits());
    }

    /** What backends are told of the callers: whether tenants share the service, and the token file their jobs must not read. */
    @Bean
    Tenancy tenancy(SecurityProperties security) {
        return new Tenancy(security.mode().name().toLowerCase(Locale.ROOT),
                security.tokenFile() == null ? List.of() : List.of(security.tokenFile()));
    }

    @Bean
    HttpFirewall httpFirewall() {
        return RejectedRequests.firewall();
    }

    @Bean
    RequestRejectedHandler requestRejectedHandler(JsonMapper json) {
        return new RejectedRequests(json);
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, SecurityProperties security, JsonMapper json,
                                            ObjectProvider<TokenAuthenticator> tokens, AuditLog audit) {
        AuthProblems problems = new AuthProblems(json, audit);
        http.csrf(AbstractHttpConfigurer::disable) // no cookies or sessions: a bearer token cannot be ridden
                .httpBasic(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems.entryPoint())
                        .accessDeniedHandler(problems.accessDeniedHandler()));
        SecurityHeaders.apply(http, security.corsOrigins());
        http.addFilterBefore(new RequestOriginFilter(new AllowedHosts(security.checksHosts(), security.allowedHosts()),
                Set.copyOf(security.corsOrigins()), json), DisableEncodeUrlFilter.class);
        if (security.mode() == SecurityProperties.Mode.NONE) {
            http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll());
            return http.build();
        }
        http.addFilterBefore(new BearerTokenFilter(tokens.getObject(), problems), AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(requests -> requests
                        // A streamed log's async dispatch and an error dispatch were checked on the way in.
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                        .requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/**",
                                "/actuator/prometheus", "/actuator/info").permitAll()
                        .requestMatchers(HttpMethod.GET, "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
                                "/swagger-ui.html", "/swagger-ui/**").permitAll()
                        .requestMatchers(HttpMethod.GET, "/", "/page/**", "/favicon.ico").permitAll()
                        // A job's pod fetches its package with no token: the signed URL is the credential.
                        .requestMatchers(HttpMethod.GET, "/packages/*/content").permitAll()
                        .requestMatchers(PageRequests.MATCHER).permitAll()
                        .requestMatchers("/error").permitAll()
                        .anyRequest().authenticated());
        return http.build();
    }
}
