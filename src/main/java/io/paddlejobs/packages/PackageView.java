package io.paddlejobs.packages;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** An uploaded package: what to put in a job request's {@code package} field. */
@Schema(name = "PackageView", requiredProperties = {"package", "namespace", "size"})
record PackageView(
        @Schema(description = "The content address to give as a job request's package", example =
                "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", pattern = "sha256:[0-9a-f]{64}")
        @JsonProperty("package") String id,
        @Schema(description = "The namespace that may use it") String namespace,
        @Schema(description = "The archive's size in bytes", format = "int64") long size) {
}
