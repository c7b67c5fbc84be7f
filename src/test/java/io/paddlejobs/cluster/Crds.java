package io.paddlejobs.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Installs CustomResourceDefinitions from a folder of manifests and waits until the API server serves them. */
final class Crds {

    private Crds() {
    }

    static void install(KubernetesClient admin, Path crds) throws IOException {
        List<CustomResourceDefinition> installed = new ArrayList<>();
        try (var files = Files.list(crds)) {
            for (Path file : files.sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    for (HasMetadata object : admin.load(in).items()) {
                        installed.add(admin.apiextensions().v1().customResourceDefinitions()
                                .resource((CustomResourceDefinition) object).serverSideApply());
                    }
                }
            }
        }
        for (CustomResourceDefinition crd : installed) {
            admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                    .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions() != null
                            && c.getStatus().getConditions().stream()
                            .anyMatch(cond -> "Established".equals(cond.getType()) && "True".equals(cond.getStatus())),
                            1, TimeUnit.MINUTES);
        }
    }
}
