package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.MutatingPolicyVersions;

import java.util.ArrayList;
import java.util.List;

/**
 * Which {@code admissionregistration.k8s.io} versions of a kind a server of a given version can serve at
 * all, including alpha/beta versions that need {@code --runtime-config} or a feature gate (those are the
 * cluster admin's choice, so they are accepted). Anything else is a 404 from the API server: also a version
 * from the release its {@code zz_generated.prerelease-lifecycle.go} says removed it, which no flag brings back.
 */
final class ServedVersions {
    private ServedVersions() {}

    static List<String> of(AdmissionKind kind, KubeVersion server) {
        List<String> versions = new ArrayList<>();
        switch (kind) {
            case VALIDATING_ADMISSION_POLICY, VALIDATING_ADMISSION_POLICY_BINDING -> {
                addIf(versions, server, 1, 30, "v1");
                addBetween(versions, server, 28, 34, "v1beta1");
                addBetween(versions, server, 26, 32, "v1alpha1");
            }
            case MUTATING_ADMISSION_POLICY, MUTATING_ADMISSION_POLICY_BINDING -> {
                versions.addAll(MutatingPolicyVersions.servableAt(server));
            }
            case VALIDATING_WEBHOOK_CONFIGURATION, MUTATING_WEBHOOK_CONFIGURATION -> versions.add("v1");
        }
        List<String> apiVersions = new ArrayList<>();
        versions.forEach(v -> apiVersions.add(AdmissionKind.GROUP + "/" + v));
        return apiVersions;
    }

    /** Served from 1.{@code since} until the release before 1.{@code removed}. */
    private static void addBetween(List<String> versions, KubeVersion server, int since, int removed, String version) {
        if (server.atLeast(1, since) && !server.atLeast(1, removed)) {
            versions.add(version);
        }
    }

    private static void addIf(List<String> versions, KubeVersion server, int major, int minor, String version) {
        if (server.atLeast(major, minor)) {
            versions.add(version);
        }
    }
}
