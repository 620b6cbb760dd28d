package dev.policyset.aps.core.model;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The one place the MutatingAdmissionPolicy version ladder is written down: {@code v1alpha1} from Kubernetes
 * 1.32 (behind the {@code MutatingAdmissionPolicy} feature gate and {@code --runtime-config}), {@code v1beta1}
 * from 1.34, {@code v1} from 1.36 ({@code kubernetes/pkg/apis/admissionregistration}, and the release notes of
 * each minor). Rendering, the API-server rules, discovery and status messages all ask it.
 */
public final class MutatingPolicyVersions {
    /** One rung: the version and the first minor that can serve it. */
    public record Rung(String version, KubeVersion since) {}

    /** Oldest first. */
    public static final List<Rung> LADDER = List.of(
            new Rung("v1alpha1", new KubeVersion(1, 32)),
            new Rung("v1beta1", new KubeVersion(1, 34)),
            new Rung("v1", new KubeVersion(1, 36)));

    /** Every version, oldest first. */
    public static final List<String> ALL = LADDER.stream().map(Rung::version).toList();

    /** Every version, newest first: the order discovery prefers. */
    public static final List<String> NEWEST_FIRST = reversed(ALL);

    private MutatingPolicyVersions() {}

    /** The newest version a server of this version can serve, if any (what the CLI renders by default). */
    public static Optional<String> newestAt(KubeVersion server) {
        return NEWEST_FIRST.stream().filter(v -> servable(v, server)).findFirst();
    }

    /** Every version a server of this version can serve (some only when the admin enables them), newest first. */
    public static List<String> servableAt(KubeVersion server) {
        return NEWEST_FIRST.stream().filter(v -> servable(v, server)).toList();
    }

    /** The newest of the versions discovery found served; empty when none of the ladder's is. */
    public static Optional<String> newestOf(Collection<String> served) {
        return NEWEST_FIRST.stream().filter(served::contains).findFirst();
    }

    public static boolean isKnown(String version) {
        return ALL.contains(version);
    }

    /** Why a set with mutating policies cannot be applied on a cluster that serves none, and what to do. */
    public static String notServedMessage() {
        return "this cluster serves no MutatingAdmissionPolicy API version (" + AdmissionKind.GROUP + " "
                + String.join(", ", NEWEST_FIRST) + "); enable it (Kubernetes " + LADDER.get(1).since()
                + "+, or " + LADDER.get(0).since() + "+ with the MutatingAdmissionPolicy feature gate) or remove "
                + "spec.mutatingPolicies";
    }

    private static List<String> reversed(List<String> list) {
        List<String> copy = new java.util.ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return List.copyOf(copy);
    }

    private static boolean servable(String version, KubeVersion server) {
        return LADDER.stream().filter(r -> r.version().equals(version)).anyMatch(r -> server.compareTo(r.since()) >= 0);
    }
}
