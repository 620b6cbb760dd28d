package dev.policyset.aps.testing.kube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the Kubernetes binaries built by {@code test/kube/build.sh} (make kube-bins) are, and which version the
 * real-server tests run against: {@code -Daps.kube.version} / {@code APS_KUBE_VERSION}, by default the newest
 * supported release (the first line of {@code test/kube/versions}).
 */
public final class KubeBinaries {
    public static final List<String> NAMES = List.of("etcd", "kube-apiserver", "kube-controller-manager", "kubectl");

    private KubeBinaries() {}

    public static String version() {
        String v = setting("aps.kube.version", "APS_KUBE_VERSION");
        if (v != null && !v.isBlank()) {
            return v.trim();
        }
        try {
            return Files.readAllLines(Path.of("test/kube/versions")).get(0).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("test/kube/versions: " + e.getMessage(), e);
        }
    }

    /** The supported release of a minor ("1.34" → "1.34.4"), from {@code test/kube/versions}. */
    public static Optional<String> versionOf(String minor) {
        try {
            return Files.readAllLines(Path.of("test/kube/versions")).stream().map(String::trim)
                    .filter(v -> v.startsWith(minor + ".")).findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException("test/kube/versions: " + e.getMessage(), e);
        }
    }

    /** {@code ${APS_KUBE_DIR:-~/.cache/aps/kube}/<version>}. */
    public static Path dir(String version) {
        String base = setting("aps.kube.dir", "APS_KUBE_DIR");
        Path root = base == null || base.isBlank() ? Path.of(System.getProperty("user.home"), ".cache", "aps", "kube") : Path.of(base);
        return root.resolve(version);
    }

    /** Why the binaries cannot be used, or empty when all are there. */
    public static Optional<String> missing(String version) {
        Path dir = dir(version);
        for (String name : NAMES) {
            if (!Files.isExecutable(dir.resolve(name))) {
                return Optional.of("no " + name + " " + version + " in " + dir + " (build it with `make kube-bins KUBE_VERSION="
                        + version + "`; needs Go 1.26 and the Go module proxy)");
            }
        }
        return Optional.empty();
    }

    /** Under {@code .ci/run} ({@code -Daps.kube.required=true}) missing binaries fail the suite instead of skipping it. */
    public static boolean required() {
        return Boolean.parseBoolean(setting("aps.kube.required", "APS_KUBE_REQUIRED"));
    }

    private static String setting(String property, String env) {
        String v = System.getProperty(property);
        return v != null && !v.isBlank() && !v.startsWith("${") ? v : System.getenv(env);
    }
}
