package dev.policyset.aps.operator;

import dev.policyset.aps.core.model.AdmissionKind;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The admission kinds the operator owns, at the versions this cluster serves. Webhook configurations and
 * VAP/VAPB are {@code v1}; MAP/MAPB at the newest version discovery found (none when not served). Every
 * request names its resource explicitly (no per-request discovery), as {@link GenericKubernetesResource}:
 * fabric8 7.4 models MAP only at v1alpha1, and one representation keeps drift comparison uniform.
 */
public final class ManagedKinds {
    private final Optional<String> mutatingPolicyVersion;

    public ManagedKinds(Optional<String> mutatingPolicyVersion) {
        this.mutatingPolicyVersion = mutatingPolicyVersion;
    }

    public Optional<String> mutatingPolicyVersion() {
        return mutatingPolicyVersion;
    }

    /** The version this cluster serves a kind at, if any. */
    public Optional<String> versionOf(AdmissionKind kind) {
        return kind.isMutatingPolicyKind() ? mutatingPolicyVersion : Optional.of("v1");
    }

    /** Served kinds in apply order (policies before bindings). */
    public List<AdmissionKind> served() {
        List<AdmissionKind> kinds = new ArrayList<>();
        for (AdmissionKind k : AdmissionKind.values()) {
            if (versionOf(k).isPresent()) {
                kinds.add(k);
            }
        }
        return kinds;
    }

    /** Served kinds in removal order: bindings before their policies, webhooks first. */
    public List<AdmissionKind> removalOrder() {
        List<AdmissionKind> kinds = new ArrayList<>(served());
        java.util.Collections.reverse(kinds);
        return kinds;
    }

    public static ResourceDefinitionContext context(AdmissionKind kind, String version) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(AdmissionKind.GROUP)
                .withVersion(version)
                .withKind(kind.kind())
                .withPlural(kind.plural())
                .withNamespaced(false)
                .build();
    }

    public static GroupVersionKind gvk(AdmissionKind kind, String version) {
        return new GroupVersionKind(AdmissionKind.GROUP, version, kind.kind());
    }

    /** Event source name for a kind at a version (one informer per served kind; a new version, a new informer). */
    public static String eventSourceName(AdmissionKind kind, String version) {
        return kind.plural() + "." + version;
    }

    /** Event source names of the served kinds. */
    public java.util.Set<String> eventSourceNames() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        served().forEach(k -> names.add(eventSourceName(k, versionOf(k).orElseThrow())));
        return names;
    }
}
