package io.paddlejobs.api.openapi;

import io.paddlejobs.api.JobRequestBody;
import io.paddlejobs.planning.JobRequest;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.tags.Tag;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The served contract ({@code /v3/api-docs}), kept equal to the committed {@code openapi/openapi.yaml}:
 * so it must not depend on how the service was reached (one relative server, not the caller's
 * host and port) nor on the order in which springdoc happens to meet the types.
 */
@Configuration(proxyBeanMethods = false)
@SecurityScheme(name = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "With paddlejobs.security.mode=token: a token from the operator's token file; "
                + "with paddlejobs.security.mode=kubernetes: a token the cluster accepts (a service account's, an OIDC one)")
class OpenApiConfig {

    static {
        // A plan's spec is the request as given and is written with the request's field names;
        // both would otherwise be described under the one name "JobRequest", last one wins.
        SpringDocUtils.getConfig().replaceWithClass(JobRequest.class, JobRequestBody.class);
    }

    @Bean
    OpenAPI paddleJobsOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("paddle-jobs")
                        .version("v1")
                        .description("""
                                Submit PaddlePaddle training jobs with one small JSON document, in mode ps \
                                (parameter servers and trainers: Paddle 2.x fleet, Paddle v2) or collective (trainers \
                                only, all-reducing: Paddle 3.x): the service plans the topology, starts the replicas, \
                                wires them together through environment variables and serves a status URL. Errors are \
                                problem documents (application/problem+json, RFC 9457) whose errors array names each \
                                offending field.

                                This is the contract as served with paddlejobs.security.mode=none (the committed \
                                openapi/openapi.yaml): no authentication, the service on loopback only. In modes token \
                                and kubernetes the served contract (/v3/api-docs) requires the bearer scheme on every \
                                operation but a code package's signed content URL, and any of them may answer 401.""")
                        .contact(new Contact().name("paddle-jobs maintainers")))
                .tags(List.of(new Tag().name("jobs").description("Submit, watch, cancel, run again and delete training jobs"),
                        new Tag().name("packages").description("Code packages: upload the code replicas start in"),
                        new Tag().name("sweeps").description("Experiments: sweeps over a job's settings, runs compared side by side")))
                .servers(List.of(new Server().url("/").description("this service")));
    }
}
