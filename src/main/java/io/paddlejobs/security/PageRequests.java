package io.paddlejobs.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * A browser opening a page ({@code /jobs}, {@code /jobs/{name}/status} asked for as HTML). A
 * browser cannot add a token to a navigation, so the page itself is public: it is a fixed document
 * with no job data in it, and its script reads the job from the JSON API with the token.
 */
final class PageRequests {

    static final RequestMatcher MATCHER = PageRequests::isPage;

    private PageRequests() {
    }

    private static boolean isPage(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod())) {
            return false;
        }
        return PagePaths.servesPageAndJson(request) && acceptsHtml(request.getHeader(HttpHeaders.ACCEPT));
    }

    private static boolean acceptsHtml(String accept) {
        if (accept == null) {
            return false;
        }
        try {
            List<MediaType> types = MediaType.parseMediaTypes(accept);
            return types.stream().anyMatch(type -> type.equalsTypeAndSubtype(MediaType.TEXT_HTML));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }
}
