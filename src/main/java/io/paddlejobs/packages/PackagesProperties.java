package io.paddlejobs.packages;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Code packages ({@code paddlejobs.packages.*}).
 *
 * @param dir             where uploaded archives are kept, one folder per namespace
 * @param maxSize         the largest archive (gzipped tar) accepted
 * @param maxUnpackedSize the most its files may add up to once unpacked (a small archive can unpack to a huge one)
 * @param maxEntries      the most files and directories one package may hold
 * @param urlKey          the secret that signs the content URLs pods fetch packages from; unset, one is
 *                        generated and kept in {@code dir} (several replicas of the service must share it)
 */
@Validated
@ConfigurationProperties("paddlejobs.packages")
public record PackagesProperties(
        @DefaultValue("data/packages") @NotNull Path dir,
        @DefaultValue("64MB") @NotNull DataSize maxSize,
        @DefaultValue("1GB") @NotNull DataSize maxUnpackedSize,
        @DefaultValue("10000") @Min(1) int maxEntries,
        @Size(min = 32, message = "must be at least 32 characters: it signs the packages' content URLs") String urlKey) {
}
