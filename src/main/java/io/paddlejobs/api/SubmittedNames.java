package io.paddlejobs.api;

import io.paddlejobs.security.AuditLog;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Tells the audit log the name a submit's body gives, as soon as the body is read: the namespace
 * check that may refuse the submit runs after the body is read but before the handler, and its
 * audit line should name the job the caller tried to submit, as the handler's own line would.
 */
@ControllerAdvice
class SubmittedNames extends RequestBodyAdviceAdapter {

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
                            Class<? extends HttpMessageConverter<?>> converterType) {
        return parameter.getParameterType() == JobRequestBody.class;
    }

    @Override
    public Object afterBodyRead(Object body, HttpInputMessage message, MethodParameter parameter, Type targetType,
                                Class<? extends HttpMessageConverter<?>> converterType) {
        if (body instanceof JobRequestBody request
                && RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes) {
            AuditLog.nameSubmittedJob(attributes.getRequest(), request.name());
        }
        return body;
    }
}
