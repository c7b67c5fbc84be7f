package io.paddlejobs.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The Python client's view of the contract, {@code clients/python/paddle_jobs/contract.py}: the job
 * request's fields (a {@code TypedDict}, from which {@code PaddleJob} takes the names it accepts),
 * the job phases (an {@code Enum}), and the answers the client returns typed ({@link #ANSWERS} and
 * every schema they refer to, each a {@code TypedDict} whose required keys are the contract's). Written from the served contract beside
 * {@code openapi/openapi.yaml}, so that a field added to the API reaches the client by the same
 * command that updates the contract, and cannot be forgotten: {@link OpenApiContractTest} fails
 * while the committed module differs.
 */
final class PythonClientModule {

    static final Path FILE = Path.of("clients", "python", "paddle_jobs", "contract.py");
    private static final int WIDTH = 100;
    /** The answers the client hands its callers: a job's status, its plan, a dry run's and a submit's answer. */
    private static final List<String> ANSWERS = List.of("JobStatus", "JobPlan", "DryRunView", "JobView");
    private static final java.util.Set<String> PYTHON_KEYWORDS = java.util.Set.of("continue", "from", "in", "is",
            "class", "def", "global", "import", "lambda", "pass", "return", "with", "yield", "not", "and", "or");

    private PythonClientModule() {
    }

    static String render(JsonNode schemas) {
        JsonNode request = schemas.path("JobRequest");
        StringBuilder fields = new StringBuilder();
        request.path("properties").properties().forEach(field -> {
            fields.append('\n');
            comment(fields, field.getValue().path("description").asString(""));
            fields.append("    ").append(field.getKey()).append(": ").append(pythonType(field.getValue())).append('\n');
        });
        StringBuilder answers = new StringBuilder();
        for (String name : closure(schemas)) {
            // A plan's spec is the request as given: the same fields, so the same class.
            boolean asRequest = schemas.path(name).path("properties").propertyNames()
                    .equals(request.path("properties").propertyNames());
            answers.append(asRequest ? "\n\n#: The contract's " + name + ": the request as given.\n" + name + " = JobRequest\n"
                    : typedDict(name, schemas.path(name)));
        }
        StringBuilder out = new StringBuilder("""
                \"""The job request's fields, the job phases and the answers the client returns, as the contract
                (openapi/openapi.yaml) has them.

                Generated from the served contract: do not edit. After an API change, regenerate it with the
                contract and commit both:

                    ./mvnw -B test -Dtest=OpenApiContractTest -Dopenapi.update=true
                \"""

                from enum import Enum
                from typing import %s


                class JobRequest(TypedDict, total=False):
                    \"""The body of POST /jobs. The service requires %s.\"""
                """.formatted(typingNames(fields.toString() + answers), names(request.path("required"))))
                .append(fields).append("""


                class JobPhase(str, Enum):
                    \"""Where a job stands: JobStatus's phase.\"""

                """);
        schemas.at("/JobStatus/properties/phase/enum").forEach(phase -> out.append("    ")
                .append(phase.asString().toUpperCase(Locale.ROOT)).append(" = \"").append(phase.asString())
                .append("\"\n"));
        out.append(answers);
        out.append("\n\n#: What the service planned for a job: POST /jobs?dry_run=true's plan, and a job's.\nPlan = JobPlan\n");
        return out.toString();
    }

    /** {@link #ANSWERS} and every schema they refer to, each once, referred-to ones first. */
    private static List<String> closure(JsonNode schemas) {
        java.util.LinkedHashSet<String> ordered = new java.util.LinkedHashSet<>();
        ANSWERS.forEach(name -> visit(name, schemas, ordered, new java.util.HashSet<>()));
        return List.copyOf(ordered);
    }

    private static void visit(String name, JsonNode schemas, java.util.Set<String> ordered, java.util.Set<String> path) {
        if (ordered.contains(name) || !path.add(name)) {
            return;
        }
        refs(schemas.path(name)).forEach(ref -> visit(ref, schemas, ordered, path));
        ordered.add(name);
    }

    private static List<String> refs(JsonNode schema) {
        List<String> found = new ArrayList<>();
        if (schema.has("$ref")) {
            found.add(refName(schema));
        }
        schema.forEach(child -> {
            if (child.isContainer()) {
                found.addAll(refs(child));
            }
        });
        return found;
    }

    private static String refName(JsonNode schema) {
        String ref = schema.path("$ref").asString();
        return ref.substring(ref.lastIndexOf('/') + 1);
    }

    /**
     * One schema as a {@code TypedDict}: its required keys in a base class, the others in a class of
     * {@code total=False} on top (Python 3.9 has no {@code Required}); the functional form where a
     * key is a Python keyword.
     */
    private static String typedDict(String name, JsonNode schema) {
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(key -> required.add(key.asString()));
        StringBuilder must = new StringBuilder();
        StringBuilder may = new StringBuilder();
        boolean keywords = false;
        for (var property : schema.path("properties").properties()) {
            keywords |= PYTHON_KEYWORDS.contains(property.getKey());
            StringBuilder into = required.contains(property.getKey()) ? must : may;
            into.append('\n');
            comment(into, property.getValue().path("description").asString(""));
            into.append("    ").append(property.getKey()).append(": ").append(pythonType(property.getValue())).append('\n');
        }
        if (keywords) {
            throw new IllegalStateException(name + " has a key that is a Python keyword: give it the functional form");
        }
        String doc = "    \"\"\"The contract's " + name + ".\"\"\"\n";
        if (required.isEmpty()) {
            return "\n\nclass " + name + "(TypedDict, total=False):\n" + doc + may;
        }
        String base = "_" + name + "Required";
        String out = "\n\nclass " + base + "(TypedDict):\n" + must;
        return out + "\n\nclass " + name + "(" + base + ", total=False):\n" + doc + may;
    }

    private static String pythonType(JsonNode schema) {
        if (schema.has("$ref")) {
            return "\"" + refName(schema) + "\"";
        }
        if (schema.has("enum")) {
            List<String> values = new ArrayList<>();
            schema.path("enum").forEach(value -> values.add("\"" + value.asString() + "\""));
            return "Literal[" + String.join(", ", values) + "]";
        }
        return switch (schema.path("type").asString("")) {
            case "string" -> "str";
            case "integer" -> "int";
            case "number" -> "float";
            case "boolean" -> "bool";
            case "array" -> "List[" + pythonType(schema.path("items")) + "]";
            case "object" -> schema.has("additionalProperties")
                    ? "Dict[str, " + pythonType(schema.path("additionalProperties")) + "]" : "Dict[str, object]";
            default -> "object"; // a composed schema: the service checks it
        };
    }

    /** The description as {@code #:} lines (the attribute-comment form documentation tools read). */
    private static void comment(StringBuilder out, String description) {
        StringBuilder line = new StringBuilder("    #:");
        for (String word : description.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() + 1 + word.length() > WIDTH && line.length() > "    #:".length()) {
                out.append(line).append('\n');
                line = new StringBuilder("    #:");
            }
            line.append(' ').append(word);
        }
        if (line.length() > "    #:".length()) {
            out.append(line).append('\n');
        }
    }

    /** What the field types use from {@code typing}, and TypedDict itself. */
    private static String typingNames(CharSequence fields) {
        String text = fields.toString();
        return Stream.of("Dict", "List", "Literal").filter(name -> text.contains(" " + name + "[") || text.contains("[" + name + "["))
                .collect(Collectors.joining(", ", "", ", TypedDict"));
    }

    private static String names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(name -> names.add(name.asString()));
        return names.isEmpty() ? "nothing" : names.stream().collect(Collectors.joining(", "));
    }
}
