package io.paddlejobs.security;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** {@link ConditionalOnSecurityMode}: the configured mode, bound as {@link SecurityProperties} is. */
final class OnSecurityModeCondition implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        var wanted = metadata.getAnnotations().get(ConditionalOnSecurityMode.class)
                .getEnum("value", SecurityProperties.Mode.class);
        return SecurityProperties.modeOf(Binder.get(context.getEnvironment())) == wanted;
    }
}
