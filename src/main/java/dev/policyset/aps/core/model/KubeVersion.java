package dev.policyset.aps.core.model;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes minor version (the server's, e.g. 1.36). It decides which MutatingAdmissionPolicy API
 * version exists and which CEL compatibility version new expressions compile at (one minor lower).
 */
public record KubeVersion(int major, int minor) implements Comparable<KubeVersion> {
    /** The newest version the validator's catalogue of API server rules describes. */
    public static final KubeVersion NEWEST = new KubeVersion(1, 37);
    /** ValidatingAdmissionPolicy became GA here; older servers are not supported. */
    public static final KubeVersion OLDEST = new KubeVersion(1, 30);

    private static final Pattern FORMAT = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.\\d+)?");

    /**
     * Parses {@code 1.36}, {@code v1.36} or {@code 1.36.2}.
     *
     * @throws IllegalArgumentException with a message for the user when the text is not a version
     */
    public static KubeVersion parse(String text) {
        Matcher m = FORMAT.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a Kubernetes version; use MAJOR.MINOR, e.g. 1.36");
        }
        return new KubeVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The newest MutatingAdmissionPolicy API version a server of this version can serve, if any. */
    public Optional<String> mutatingPolicyApiVersion() {
        return MutatingPolicyVersions.newestAt(this);
    }

    /** The CEL compatibility version a server of this version compiles new expressions at. */
    public KubeVersion celCompatibilityVersion() {
        return new KubeVersion(major, minor - 1);
    }

    public boolean atLeast(int otherMajor, int otherMinor) {
        return major > otherMajor || (major == otherMajor && minor >= otherMinor);
    }

    @Override
    public int compareTo(KubeVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
