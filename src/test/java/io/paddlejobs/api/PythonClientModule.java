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
 * request's fields (a {@code TypedDict}, from which {@code PaddleJob} takes the names it accepts)
 * and the job phases (an {@code Enum}). Written from the served contract beside
 * {@code openapi/openapi.yaml}, so that a field added to the API reaches the client by the same
 * command that updates the contract, and cannot be forgotten: {@link OpenApiContractTest} fails
 * while the committed module differs.
 */
final class PythonClientModule {

    static final Path FILE = Path.of("clients", "python", "paddle_jobs", "contract.py");
    private static final int WIDTH = 100;

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
        StringBuilder out = new StringBuilder("""
                \"""The job request's fields and the job phases, as the contract (openapi/openapi.yaml) has them.

                Generated from the served contract: do not edit. After an API change, regenerate it with the
                contract and commit both:

                    ./mvnw -B test -Dtest=OpenApiContractTest -Dopenapi.update=true
                \"""

                from enum import Enum
                from typing import %s


                class JobRequest(TypedDict, total=False):
                    \"""The body of POST /jobs. The service requires %s.\"""
                """.formatted(typingNames(fields), names(request.path("required")))).append(fields).append("""


                class JobPhase(str, Enum):
                    \"""Where a job stands: JobStatus's phase.\"""

                """);
        schemas.at("/JobStatus/properties/phase/enum").forEach(phase -> out.append("    ")
                .append(phase.asString().toUpperCase(Locale.ROOT)).append(" = \"").append(phase.asString())
                .append("\"\n"));
        return out.toString();
    }

    private static String pythonType(JsonNode schema) {
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
            default -> "object"; // a $ref or a composed schema: the service checks it
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
        return Stream.of("Dict", "List", "Literal").filter(name -> text.contains(" " + name + "["))
                .collect(Collectors.joining(", ", "", ", TypedDict"));
    }

    private static String names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(name -> names.add(name.asString()));
        return names.isEmpty() ? "nothing" : names.stream().collect(Collectors.joining(", "));
    }
}
