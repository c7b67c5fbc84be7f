package io.paddlejobs.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** A page of jobs, newest first; pass {@code continue} back to get the next page. */
public record JobListView(List<JobSummary> items, @JsonProperty("continue") String continueToken) {
}
