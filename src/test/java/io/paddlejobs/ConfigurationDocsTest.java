package io.paddlejobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.config.RetiredSettings;
import io.paddlejobs.testing.CommittedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code docs/configuration.md} lists every setting the service reads, as the configuration
 * processor describes the settings records (name, type, default and the {@code @param} of the record
 * component): it is generated, so it cannot go stale, and a setting without a description fails here.
 */
class ConfigurationDocsTest {

    static final Path DOCS = Path.of("docs", "configuration.md");
    static final Path METADATA = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");
    static final String UPDATE_PROPERTY = "configuration.update";

    @Test
    void committedReferenceIsTheOneTheSettingsRecordsGenerate() throws IOException {
        String generated = render(settings());
        CommittedFiles.assertCurrent(DOCS, generated, "the settings records' metadata", ConfigurationDocsTest.class,
                UPDATE_PROPERTY);
    }

    @Test
    void everySettingSaysWhatItDoes() throws IOException {
        assertThat(settings().values()).as("settings without a description (an @param of their record component)")
                .filteredOn(setting -> setting.path("description").asString("").isBlank())
                .extracting(setting -> setting.path("name").asString()).isEmpty();
    }

    @Test
    void everySettingIsDeclaredOnce() throws IOException {
        Map<String, Long> declarations = properties().stream()
                .collect(Collectors.groupingBy(setting -> setting.path("name").asString(), Collectors.counting()));

        assertThat(declarations.entrySet()).as("settings bound by more than one record (each default must be stated once)")
                .filteredOn(declared -> declared.getValue() > 1).extracting(Map.Entry::getKey).isEmpty();
    }

    private static List<JsonNode> properties() throws IOException {
        assertThat(METADATA).as("written by spring-boot-configuration-processor when main compiles").exists();
        JsonNode metadata = JsonMapper.builder().build().readTree(METADATA.toFile());
        return StreamSupport.stream(metadata.path("properties").spliterator(), false).toList();
    }

    private static Map<String, JsonNode> settings() throws IOException {
        return properties().stream().collect(Collectors.toMap(setting -> setting.path("name").asString(),
                Function.identity(), (first, second) -> first, TreeMap::new));
    }

    static String render(Map<String, JsonNode> settings) {
        Map<String, List<JsonNode>> sections = settings.values().stream().collect(Collectors.groupingBy(
                setting -> section(setting.path("name").asString()), TreeMap::new, Collectors.toList()));
        StringBuilder out = new StringBuilder("""
                # Configuration reference

                <!-- Generated from the settings records' javadoc by ConfigurationDocsTest; do not edit here:
                     change the record, then ./mvnw test -Dtest=ConfigurationDocsTest -Dconfiguration.update=true -->

                Every setting of paddle-jobs: its type, its default, and what it does. Set them as any Spring Boot
                setting: in an `application.yaml` beside the service, as an argument
                (`--paddlejobs.local.max-running-jobs=8`) or as an environment variable
                (`PADDLEJOBS_LOCAL_MAXRUNNINGJOBS=8`). Durations are written `500ms`, `10s`, `5m`, `1h`, `30d`;
                sizes `64KB`, `64MB`, `1GB`; memory quantities as in Kubernetes and in requests (`512Mi`, `1Gi`).
                Lists are comma-separated (`a,b`) or indexed (`paddlejobs.local.gpus[0]=0`).

                """);
        out.append(settings.size()).append(" settings in ").append(sections.size()).append(" groups.\n");
        sections.forEach((section, members) -> {
            out.append("\n## `").append(section).append("`\n\n");
            out.append("| setting | type | default | what it does |\n|---|---|---|---|\n");
            for (JsonNode setting : members) {
                out.append("| `").append(setting.path("name").asString()).append("` | ")
                        .append(type(setting.path("type").asString())).append(" | ")
                        .append(defaultOf(setting.path("defaultValue"))).append(" | ")
                        .append(prose(setting.path("description").asString(""))).append(" |\n");
            }
        });
        return out.append(retired()).toString();
    }

    /**
     * The first two levels: {@code paddlejobs.kubernetes.packages.fetch-image} is in {@code paddlejobs.kubernetes};
     * the settings directly under {@code paddlejobs} (the backend, and what every backend shares) are one section.
     */
    private static String section(String name) {
        String[] parts = name.split("\\.");
        return parts.length <= 2 ? parts[0] : parts[0] + "." + parts[1];
    }

    /** The settings no longer read, which stop the start when set ({@code RetiredSettings}), and what to do instead. */
    private static String retired() {
        StringBuilder out = new StringBuilder("""

                ## Settings of earlier versions

                These are no longer read. The service does not start while one is set, and says what to do instead:

                | setting | instead |
                |---|---|
                """);
        new TreeMap<>(RetiredSettings.REPLACEMENTS).forEach((key, instead) -> out.append("| `").append(key).append("` | ")
                .append(instead.replaceAll("(paddlejobs(?:\\.[a-z-]+)+)", "`$1`")).append(" |\n"));
        return out.toString();
    }

    private static String type(String javaType) {
        return switch (javaType) {
            case "java.lang.String" -> "text";
            case "java.lang.Integer", "java.lang.Long" -> "integer";
            case "java.lang.Boolean" -> "`true` or `false`";
            case "java.time.Duration" -> "duration";
            case "org.springframework.util.unit.DataSize" -> "size";
            case "java.nio.file.Path" -> "path";
            case "java.net.URI" -> "URL";
            case "java.util.List<java.lang.String>" -> "list of text";
            case "java.util.Map<java.lang.String,java.lang.String>" -> "map of text to text";
            case "java.util.Map<java.lang.String,java.util.List<java.lang.String>>" -> "map of text to list of text";
            case "java.util.Map<java.lang.String,java.util.List<io.paddlejobs.webhooks.WebhooksProperties$Subscription>>" ->
                    "map of namespace to list of `url` and `events`";
            default -> enumValues(javaType);
        };
    }

    private static String enumValues(String javaType) {
        try {
            Class<?> type = Class.forName(javaType);
            if (type.isEnum()) {
                return Arrays.stream(type.getEnumConstants())
                        .map(value -> "`" + ((Enum<?>) value).name().toLowerCase(Locale.ROOT).replace('_', '-') + "`")
                        .collect(Collectors.joining(", "));
            }
        } catch (ClassNotFoundException e) {
            // fall through: name the type as it is
        }
        throw new IllegalStateException("no documented wording for settings of type " + javaType
                + ": add one to ConfigurationDocsTest.type");
    }

    private static String defaultOf(JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            return "–";
        }
        if (value.isArray()) {
            return value.isEmpty() ? "–" : StreamSupport.stream(value.spliterator(), false)
                    .map(item -> "`" + item.asString() + "`").collect(Collectors.joining(", "));
        }
        String text = value.asString();
        return text.isEmpty() ? "empty" : "`" + text + "`";
    }

    /** Javadoc to Markdown: code spans stay code, links become their label, the table's pipes are escaped. */
    private static String prose(String javadoc) {
        return javadoc.replaceAll("\\{@code ([^}]*)}", "`$1`")
                .replaceAll("\\{@link(?:plain)? (?:[^}\\s]*\\s+)?([^}]*)}", "$1")
                .replaceAll("\\s+", " ").replace("|", "\\|").strip();
    }
}
