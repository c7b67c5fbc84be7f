package io.paddlejobs.api.openapi;

import io.paddlejobs.planning.DnsLabels;
import io.paddlejobs.security.InNamespace;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.ArrayList;
import java.util.List;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;

/**
 * An {@link InNamespace} argument in the contract: the optional query parameter {@code namespace}
 * with the DNS-label pattern it is checked against, in the place of the handler's arguments where
 * it stands. springdoc knows nothing of the argument's own resolver.
 */
@Component
class NamespaceParameters implements OperationCustomizer {

    static final String NAME = "namespace";

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        MethodParameter[] arguments = handler.getMethodParameters();
        for (MethodParameter argument : arguments) {
            if (argument.hasParameterAnnotation(InNamespace.class)) {
                List<Parameter> parameters = operation.getParameters() == null ? new ArrayList<>()
                        : new ArrayList<>(operation.getParameters());
                parameters.removeIf(parameter -> NAME.equals(parameter.getName()));
                parameters.add(Math.min(describedBefore(arguments, argument), parameters.size()), new Parameter()
                        .in("query").name(NAME).required(false).schema(new StringSchema().pattern(DnsLabels.NAMESPACE)));
                operation.setParameters(parameters);
            }
        }
        return operation;
    }

    /** How many of the handler's query and path parameters come before this argument. */
    private static int describedBefore(MethodParameter[] arguments, MethodParameter argument) {
        int before = 0;
        for (MethodParameter other : arguments) {
            if (other.getParameterIndex() >= argument.getParameterIndex()) {
                break;
            }
            if (other.hasParameterAnnotation(RequestParam.class) || other.hasParameterAnnotation(PathVariable.class)) {
                before++;
            }
        }
        return before;
    }
}
