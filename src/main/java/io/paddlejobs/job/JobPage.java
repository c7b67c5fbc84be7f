package io.paddlejobs.job;

import java.util.List;

/**
 * One page of a job list.
 *
 * @param continueToken pass as {@code continue} to get the next page; {@code null} on the last page
 */
public record JobPage(List<Job> items, String continueToken) {
}
