package io.paddlejobs.packages;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/** A namespace's packages, oldest first. */
@Schema(name = "PackageList", requiredProperties = {"items"})
record PackageListView(List<Item> items) {

    @Schema(name = "PackageListItem", requiredProperties = {"package", "size", "created", "last_used", "used_by"})
    record Item(
            @Schema(description = "Its content address", pattern = "sha256:[0-9a-f]{64}") @JsonProperty("package") String id,
            @Schema(description = "The archive's size in bytes", format = "int64") long size,
            @Schema(description = "When it was first uploaded") Instant created,
            @Schema(description = "When a submit, a job's start, a pod's fetch or an upload of the same bytes last named it; "
                    + "unused for paddlejobs.packages.expire-after, it is deleted") Instant lastUsed,
            @Schema(description = "The namespace's unfinished jobs that name it: while there are any it is neither "
                    + "deleted nor expired") List<String> usedBy) {
    }
}
