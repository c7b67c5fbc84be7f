package io.paddlejobs.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may call the service ({@code paddlejobs.security.*}).
 *
 * @param mode        {@code none}: everyone may do everything (the service listens on loopback by default);
 *                    {@code token}: bearer tokens from {@code tokenFile}
 * @param tokenFile   YAML or properties file of token hashes, users and their namespaces (token mode)
 * @param limits      the limits of every caller, unless their token entry says otherwise
 * @param corsOrigins origins whose pages may call the API from a browser; none by default
 */
@Validated
@ConfigurationProperties("paddlejobs.security")
public record SecurityProperties(
        @DefaultValue("none") Mode mode,
        Path tokenFile,
        @Valid @DefaultValue Limits limits,
        @DefaultValue List<String> corsOrigins) {

    public enum Mode {
        NONE, TOKEN
    }

    /**
     * Limits on what one caller may submit; 0 means no limit.
     *
     * @param submissionsPerMinute submits (dry runs excepted) a caller may make per minute
     * @param maxUnfinishedJobs    pending and running jobs a namespace may hold when a caller submits into it
     */
    public record Limits(@DefaultValue("0") @Min(0) int submissionsPerMinute,
                         @DefaultValue("0") @Min(0) int maxUnfinishedJobs) {

        public static final Limits NONE = new Limits(0, 0);
    }
}
