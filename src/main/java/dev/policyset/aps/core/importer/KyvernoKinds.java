package dev.policyset.aps.core.importer;

import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.intercept.BuiltinResources;

import java.util.List;
import java.util.Optional;

/**
 * A Kyverno kind selector ({@code Pod}, {@code apps/v1/Deployment}, {@code v1/Pod}, {@code Pod/exec},
 * {@code networking.k8s.io/*&#47;Ingress}) as a resource rule. Kyverno asks the cluster's discovery
 * ({@code pkg/admissionpolicy/utils.go: translateResource}); offline, built-in kinds are found in the built-in
 * resource table and any other kind matches its regular plural in every group and version.
 */
final class KyvernoKinds {
    /** group ("*" when unknown), version ("*" when not given), resource (plural, with /subresource). */
    record Rule(String group, String version, String resource) {}

    private static final List<String> GROUPS = List.of("", "apps", "batch", "autoscaling", "policy", "networking.k8s.io",
            "rbac.authorization.k8s.io", "coordination.k8s.io", "discovery.k8s.io", "storage.k8s.io", "node.k8s.io",
            "scheduling.k8s.io", "certificates.k8s.io", "admissionregistration.k8s.io", "apiextensions.k8s.io",
            "resource.k8s.io", "events.k8s.io", "flowcontrol.apiserver.k8s.io", "apiregistration.k8s.io");

    private KyvernoKinds() {}

    static Optional<Rule> of(String selector) {
        String s = selector.trim();
        String sub = "";
        String[] parts = s.split("/");
        // Kind/subresource: the last part is lower case
        if (parts.length >= 2 && !parts[parts.length - 1].isEmpty() && Character.isLowerCase(parts[parts.length - 1].charAt(0))
                && Character.isUpperCase(parts[parts.length - 2].isEmpty() ? 'a' : parts[parts.length - 2].charAt(0))) {
            sub = "/" + parts[parts.length - 1];
            String[] shorter = new String[parts.length - 1];
            System.arraycopy(parts, 0, shorter, 0, shorter.length);
            parts = shorter;
        }
        String kind = parts[parts.length - 1];
        if (kind.isEmpty() || kind.contains("*") || kind.contains("?")) {
            return Optional.empty();
        }
        String group = null;
        String version = "*";
        if (parts.length == 2) {
            version = parts[0];
            group = "";
        } else if (parts.length == 3) {
            group = parts[0];
            version = parts[1];
        } else if (parts.length > 3) {
            return Optional.empty();
        }
        String resource = KindResources.resourceOf(kind);
        if (group == null) {
            group = "*";
            for (String g : GROUPS) {
                Optional<BuiltinResources.Resource> builtin = BuiltinResources.find(g, resource);
                if (builtin.isPresent()) {
                    group = g;
                    // the served version discovery would name: v1 where the group has it
                    List<String> versions = builtin.get().versions();
                    if ("*".equals(version) && !versions.isEmpty()) {
                        version = versions.contains("v1") ? "v1" : versions.get(0);
                    }
                    break;
                }
            }
        }
        return Optional.of(new Rule(group, version, resource + sub));
    }
}
