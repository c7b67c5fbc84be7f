package io.paddlejobs.security;

import io.paddlejobs.problem.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses what a web page the user happens to visit could send to this service:
 * <ul>
 *   <li>a {@code Host} this service is not known by ({@link AllowedHosts}): a DNS-rebound page
 *       sends its own name, and this is what defeats rebinding;</li>
 *   <li>an unsafe method (anything but GET, HEAD, OPTIONS) whose {@code Sec-Fetch-Site} says
 *       another site or another origin, or whose {@code Origin} is {@code null} or foreign: a form or a
 *       {@code fetch} from another page;</li>
 *   <li>the same for a GET that opens a stream ({@link #isStream}): a page elsewhere could
 *       otherwise take all of the user's stream slots, so that the user's own logs are refused.</li>
 * </ul>
 * Programs such as curl send neither header and pass; the service's own pages are same-origin.
 */
final class RequestOriginFilter extends OncePerRequestFilter {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> OWN_FETCH_SITES = Set.of("same-origin", "none");
    private static final Pattern LOGS = Pattern.compile("/jobs/[^/]+/logs/?");
    private static final Pattern STATUS = Pattern.compile("/jobs/[^/]+/status/?");

    private final AllowedHosts hosts;
    private final Set<String> corsOrigins;
    private final JsonMapper json;

    RequestOriginFilter(AllowedHosts hosts, Set<String> corsOrigins, JsonMapper json) {
        this.hosts = hosts;
        this.corsOrigins = corsOrigins;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String host = request.getHeader(HttpHeaders.HOST);
        if (host == null) {
            host = request.getServerName() + ":" + request.getServerPort(); // HTTP/1.0, or a request made in-process
        }
        if (!hosts.allows(host)) {
            refuse(response, ProblemType.HOST_NOT_ALLOWED, "Unknown host",
                    "This service does not answer to the host name '%s'. Use 127.0.0.1 or localhost, or add the name to "
                            .formatted(AllowedHosts.nameOf(host)) + "paddlejobs.security.allowed-hosts.");
            return;
        }
        if ((!SAFE_METHODS.contains(request.getMethod()) || isStream(request)) && isCrossSite(request, host)) {
            refuse(response, ProblemType.CROSS_SITE_REQUEST, "Cross-site request refused",
                    "A page from another site may not change jobs or open streams here (Origin or Sec-Fetch-Site "
                            + "says the request came from another origin). Call the API from a program, or from this "
                            + "service's own pages.");
            return;
        }
        chain.doFilter(request, response);
    }

    /**
     * Log responses, status event streams and watches: each holds one of its caller's stream slots
     * while open, and in mode {@code none} every page the user visits is that caller.
     */
    static boolean isStream(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod())) {
            return false;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return LOGS.matcher(path).matches()
                || (path.equals("/jobs") || path.equals("/jobs/")) && "true".equals(request.getParameter("watch"))
                || STATUS.matcher(path).matches() && accept != null && accept.contains(MediaType.TEXT_EVENT_STREAM_VALUE);
    }

    private boolean isCrossSite(HttpServletRequest request, String host) {
        String fetchSite = request.getHeader("Sec-Fetch-Site");
        if (fetchSite != null && !OWN_FETCH_SITES.contains(fetchSite.toLowerCase(Locale.ROOT))) {
            return true;
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return false; // not a browser, or a same-origin GET-like request of an old one
        }
        return !sameOrigin(origin, request.getScheme(), host) && !corsOrigins.contains(origin);
    }

    /** {@code Origin: null} (sandboxed frames, file: pages) and unparseable values are foreign. */
    static boolean sameOrigin(String origin, String scheme, String host) {
        if (host == null) {
            return false;
        }
        try {
            URI uri = URI.create(origin);
            if (uri.getScheme() == null || uri.getHost() == null) {
                return false;
            }
            int port = uri.getPort() != -1 ? uri.getPort() : defaultPort(uri.getScheme());
            String expected = (scheme + "://" + host).toLowerCase(Locale.ROOT);
            URI own = URI.create(expected);
            int ownPort = own.getPort() != -1 ? own.getPort() : defaultPort(own.getScheme());
            return uri.getScheme().equalsIgnoreCase(own.getScheme()) && uri.getHost().equalsIgnoreCase(own.getHost())
                    && port == ownPort;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int defaultPort(String scheme) {
        return "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }

    private void refuse(HttpServletResponse response, ProblemType type, String title, String detail) throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, detail);
        problem.setType(type.uri());
        problem.setTitle(title);
        response.setStatus(HttpStatus.FORBIDDEN.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(problem)); // not closed: see AuthProblems
    }
}
