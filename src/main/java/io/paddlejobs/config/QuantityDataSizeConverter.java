package io.paddlejobs.config;

import io.paddlejobs.planning.Memory;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;

/**
 * Sizes in settings take the unit every request uses too: {@code paddlejobs.local.memory=512Gi}
 * (Kubernetes' binary suffixes, as a job's {@code memory}) as well as Spring's {@code 512GB} (which
 * Spring reads as 512 x 1024^3 bytes, the same amount).
 */
@Component
@ConfigurationPropertiesBinding
class QuantityDataSizeConverter implements Converter<String, DataSize> {

    private static final Pattern BINARY_QUANTITY = Pattern.compile("\\s*[0-9]+(?:\\.[0-9]+)?(?:Ki|Mi|Gi|Ti|Pi)\\s*");

    @Override
    public DataSize convert(String text) {
        if (BINARY_QUANTITY.matcher(text).matches()) {
            return DataSize.ofBytes(Memory.parse(text.strip()).bytes());
        }
        return DataSize.parse(text);
    }
}
