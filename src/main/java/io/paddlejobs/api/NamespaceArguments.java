package io.paddlejobs.api;

import io.paddlejobs.planning.DnsLabels;
import io.paddlejobs.security.AuditLog;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.NamespaceAccess;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The one place a request's {@code namespace} is read, checked and authorized ({@link InNamespace}):
 * a name that is no DNS label is the 400 that names {@code namespace} and the rule, a caller who
 * may not act in it the 401, 400 or 403 of {@link NamespaceAccess#resolve}, before the handler
 * runs. An audited action refused here still gets its audit line.
 */
@Component
class NamespaceArguments implements WebMvcConfigurer, HandlerMethodArgumentResolver {

    static final String PARAMETER = "namespace";

    // Bean Validation's words for @Pattern, which checked the parameter before: clients may read them.
    private static final String RULE = "must match \"" + DnsLabels.NAMESPACE + "\"";

    private final NamespaceAccess access;
    private final AuditLog audit;

    NamespaceArguments(NamespaceAccess access, AuditLog audit) {
        this.access = access;
        this.audit = audit;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(this);
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.hasParameterAnnotation(InNamespace.class);
    }

    @Override
    public String resolveArgument(MethodParameter parameter, ModelAndViewContainer container, NativeWebRequest webRequest,
                                  WebDataBinderFactory binders) {
        InNamespace in = parameter.getParameterAnnotation(InNamespace.class);
        String requested = requested(webRequest);
        if (requested != null && !DnsLabels.NAMESPACE_PATTERN.matcher(requested).matches()) {
            throw new InvalidParameterException(PARAMETER, RULE, (String) Problems.rejectedValue(requested));
        }
        if (in.quietly()) {
            return access.resolveQuietly(requested, in.value()).orElse(null);
        }
        try {
            return access.resolve(requested, in.value());
        } catch (RuntimeException refused) {
            audit.refused(webRequest.getNativeRequest(HttpServletRequest.class), requested, refused);
            throw refused;
        }
    }

    /** As {@code @RequestParam String} read it: absent is null, a repeated parameter its values joined by commas. */
    private static String requested(NativeWebRequest request) {
        String[] values = request.getParameterValues(PARAMETER);
        return values == null ? null : values.length == 1 ? values[0] : StringUtils.arrayToCommaDelimitedString(values);
    }
}
