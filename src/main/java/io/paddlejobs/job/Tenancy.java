package io.paddlejobs.job;

import java.nio.file.Path;
import java.util.List;

/**
 * What a backend must know of who calls the service, without knowing how they are checked: whether
 * tenants share it (a backend that cannot keep their jobs apart refuses to start then), and which
 * files of the service its jobs must never read. Security decides it; backends are handed it.
 *
 * @param securityMode the security mode's name as an operator writes it ({@code none}, {@code token},
 *                     {@code kubernetes}), for the messages that name the setting
 * @param secretFiles  files of the service that jobs must not see (the token file)
 */
public record Tenancy(String securityMode, List<Path> secretFiles) {

    public Tenancy {
        secretFiles = List.copyOf(secretFiles);
    }

    /** Whether several tenants share the service: every mode but {@code none}. */
    public boolean shared() {
        return !securityMode.equals("none");
    }
}
