package io.paddlejobs.api;

import io.paddlejobs.api.kubeflow.PaddleJobImport;
import io.paddlejobs.planning.JobRequest;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Kubeflow PaddleJob manifest, YAML or JSON as a user holds it, read into a request: the manifest's
 * fields the service cannot honour are a 400 naming each (and nothing is created); the request is then
 * checked as a submit's body is.
 */
@Component
class PaddleJobManifests {

    /** What an import made of the manifest: the request, and what it carried and dropped. */
    record Imported(JobRequest request, PaddleJobImport.Result report) {
    }

    /** Kubernetes' own media type for a manifest (kubectl sends it; RFC 9512 registers it). */
    static final String YAML = "application/yaml";

    private final JsonMapper json;
    private final RerunRequests requests;

    PaddleJobManifests(JsonMapper json, RerunRequests requests) {
        this.json = json;
        this.requests = requests;
    }

    Imported read(String manifest) {
        PaddleJobImport.Result report = PaddleJobImport.of(parse(manifest));
        if (!report.refused().isEmpty()) {
            List<FieldError> errors = new ArrayList<>();
            report.refused().forEach(note -> errors.add(new FieldError(note.field(), note.reason(), null)));
            throw RerunRequests.invalid(errors);
        }
        return new Imported(requests.read(json.valueToTree(report.request())), report);
    }

    /**
     * Safe YAML only (no tags that make objects), one document, no duplicate keys, and few aliases: a
     * manifest is small, and a document of aliases to aliases would be large in memory.
     */
    private static Object parse(String manifest) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(20);
        options.setNestingDepthLimit(40);
        options.setCodePointLimit(1024 * 1024);
        try {
            List<Object> documents = new ArrayList<>();
            new Yaml(new SafeConstructor(options)).loadAll(manifest).forEach(documents::add);
            documents.removeIf(document -> document == null);
            if (documents.size() != 1) {
                throw unreadable("must be one PaddleJob manifest; it holds " + documents.size() + " documents");
            }
            return documents.get(0);
        } catch (YAMLException e) {
            String problem = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
            throw unreadable("is not a YAML or JSON document: " + problem);
        }
    }

    private static RuntimeException unreadable(String message) {
        return RerunRequests.invalid(new ArrayList<>(List.of(new FieldError("(body)", message, null))));
    }
}
