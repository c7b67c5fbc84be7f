package io.paddlejobs.api.openapi;

import io.paddlejobs.security.SecurityProperties;
import io.swagger.v3.oas.models.OpenAPI;
import java.util.ArrayList;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The security requirement as the running service has it: in mode {@code none} no operation
 * needs a token, so none names one (a client would read {@code bearer} as required); in modes
 * {@code token} and {@code kubernetes} every operation needs the bearer token its controller names,
 * but the package content URL, whose signed key is the credential. The committed contract is mode
 * {@code none}'s; the {@code bearer} scheme stays declared in it for the modes that use it.
 * Runs before {@link ProblemResponses}, which gives 401 only to operations that need a token.
 */
@Component
@Order(0)
class ContractSecurity implements OpenApiCustomizer {

    private final SecurityProperties.Mode mode;

    ContractSecurity(SecurityProperties security) {
        this.mode = security.mode();
    }

    @Override
    public void customise(OpenAPI api) {
        if (mode != SecurityProperties.Mode.NONE) {
            return;
        }
        // An empty list, not none: "no requirement" said explicitly (Redocly's security-defined wants one).
        api.getPaths().values().forEach(item -> item.readOperations()
                .forEach(operation -> operation.setSecurity(new ArrayList<>())));
    }
}
