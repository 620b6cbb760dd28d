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
    /**
     * One rung: the version, the first minor that can serve it, and whether it is served by default. The alpha
     * and the beta are off by default: the feature gate is off ({@code pkg/features/kube_features.go}: Alpha
     * 1.32 and Beta 1.34 both {@code Default: false}, GA 1.36 on) and their group version is not in the default
     * {@code --runtime-config} (alpha and beta APIs have been off by default since 1.24).
     */
    public record Rung(String version, KubeVersion since, boolean onByDefault) {}

    /** The feature gate that the alpha and beta versions need. */
    public static final String FEATURE_GATE = "MutatingAdmissionPolicy";

    /** Oldest first. */
    public static final List<Rung> LADDER = List.of(
            new Rung("v1alpha1", new KubeVersion(1, 32), false),
            new Rung("v1beta1", new KubeVersion(1, 34), false),
            new Rung("v1", new KubeVersion(1, 36), true));

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

    /**
     * Why a server of this version serves no MutatingAdmissionPolicy version (below 1.32), and what to do:
     * every rung with its minor, then the two ways out.
     */
    public static String noneServableMessage(KubeVersion server) {
        Rung first = LADDER.get(0);
        return "Kubernetes " + server + " serves no MutatingAdmissionPolicy API version (" + AdmissionKind.GROUP + "/"
                + first.version() + " comes in " + first.since() + " behind the " + FEATURE_GATE + " feature gate, "
                + LADDER.get(1).version() + " in " + LADDER.get(1).since() + ", still behind it, " + LADDER.get(2).version()
                + " in " + LADDER.get(2).since() + ", on by default). For this cluster, write the mutations as "
                + "spec.mutatingWebhooks instead of spec.mutatingPolicies; or target Kubernetes " + first.since()
                + "+ (--kube-version " + first.since() + ") on a cluster that enables them: " + enableFlags(first.version());
    }

    /**
     * The caveat for a server of this version when the version it would be rendered in is not served by default
     * (1.32 to 1.35): empty when it is (1.36+) or when there is none (then {@link #noneServableMessage} applies).
     */
    public static Optional<String> notServedByDefaultMessage(KubeVersion server) {
        Optional<Rung> newest = LADDER.stream().filter(r -> server.compareTo(r.since()) >= 0)
                .reduce((older, newer) -> newer);
        if (newest.isEmpty() || newest.get().onByDefault()) {
            return Optional.empty();
        }
        Rung on = LADDER.stream().filter(Rung::onByDefault).findFirst().orElseThrow();
        String apiVersion = AdmissionKind.GROUP + "/" + newest.get().version();
        return Optional.of("Kubernetes " + server + " serves MutatingAdmissionPolicy as " + apiVersion
                + " only when the API server runs with " + enableFlags(newest.get().version()) + " (both off by default); "
                + "without them the mutating policies are refused (no matches for kind MutatingAdmissionPolicy). "
                + "Check the cluster with `kubectl api-versions | grep " + apiVersion + "`; from " + on.since() + " "
                + AdmissionKind.GROUP + "/" + on.version() + " is served by default");
    }

    /** The kube-apiserver flags that serve an alpha or beta version. */
    private static String enableFlags(String version) {
        return "--feature-gates=" + FEATURE_GATE + "=true --runtime-config=" + AdmissionKind.GROUP + "/" + version + "=true";
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
