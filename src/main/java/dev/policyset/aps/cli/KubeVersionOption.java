package dev.policyset.aps.cli;

import dev.policyset.aps.core.model.KubeVersion;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --kube-version X.Y}, shared by the commands: the target server version, checked once here so a bad
 * value is a usage error (exit 2) with the same words everywhere.
 */
public final class KubeVersionOption {
    @Option(names = "--kube-version", paramLabel = "X.Y", defaultValue = "1.37", converter = Converter.class,
            description = "Target Kubernetes version, " + "1.30 to 1.37: the API versions served (MutatingAdmissionPolicy"
                    + " v1alpha1/v1beta1/v1), the API-server rules and the CEL environment (default: ${DEFAULT-VALUE}).")
    public KubeVersion version;

    public static final class Converter implements CommandLine.ITypeConverter<KubeVersion> {
        @Override
        public KubeVersion convert(String value) {
            KubeVersion version;
            try {
                version = KubeVersion.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
            if (version.compareTo(KubeVersion.OLDEST) < 0 || version.compareTo(KubeVersion.NEWEST) > 0) {
                throw new CommandLine.TypeConversionException(version + " is not supported; use "
                        + KubeVersion.OLDEST + " to " + KubeVersion.NEWEST);
            }
            return version;
        }
    }
}
