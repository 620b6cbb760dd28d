package dev.policyset.aps.core.render;

import dev.policyset.aps.core.model.KubeVersion;

/**
 * Choices that depend on the target cluster rather than on the set.
 *
 * @param mutatingPolicyApiVersion the MutatingAdmissionPolicy version to render ({@code v1alpha1},
 *                                 {@code v1beta1} or {@code v1}): the newest the cluster serves
 */
public record RenderOptions(String mutatingPolicyApiVersion) {
    public static final java.util.List<String> MUTATING_POLICY_VERSIONS = java.util.List.of("v1alpha1", "v1beta1", "v1");

    public RenderOptions {
        if (!MUTATING_POLICY_VERSIONS.contains(mutatingPolicyApiVersion)) {
            throw new IllegalArgumentException("MutatingAdmissionPolicy version must be one of "
                    + MUTATING_POLICY_VERSIONS + ", got " + mutatingPolicyApiVersion);
        }
    }

    /** For a server version; falls back to v1alpha1 for servers that serve none (the validator says so). */
    public static RenderOptions forKubeVersion(KubeVersion version) {
        return new RenderOptions(version.mutatingPolicyApiVersion().orElse("v1alpha1"));
    }

    public static RenderOptions newest() {
        return forKubeVersion(KubeVersion.NEWEST);
    }
}
