package dev.policyset.aps.core.render;

import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.MutatingPolicyVersions;

/**
 * Choices that depend on the target cluster rather than on the set.
 *
 * @param mutatingPolicyApiVersion the MutatingAdmissionPolicy version to render ({@code v1alpha1},
 *                                 {@code v1beta1} or {@code v1}): the newest the cluster serves
 */
public record RenderOptions(String mutatingPolicyApiVersion) {
    public RenderOptions {
        if (!MutatingPolicyVersions.isKnown(mutatingPolicyApiVersion)) {
            throw new IllegalArgumentException("MutatingAdmissionPolicy version must be one of "
                    + MutatingPolicyVersions.ALL + ", got " + mutatingPolicyApiVersion);
        }
    }

    /** For a server version; falls back to the oldest for servers that serve none (the validator says so). */
    public static RenderOptions forKubeVersion(KubeVersion version) {
        return new RenderOptions(MutatingPolicyVersions.newestAt(version).orElse(MutatingPolicyVersions.ALL.get(0)));
    }

    public static RenderOptions newest() {
        return forKubeVersion(KubeVersion.NEWEST);
    }
}
