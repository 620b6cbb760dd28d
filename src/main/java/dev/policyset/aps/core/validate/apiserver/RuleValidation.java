package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.util.NameFormats;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code Rule}, {@code RuleWithOperations} and {@code NamedRuleWithOperations} ({@code validation.go:
 * validateRule, validateResources, validateRuleWithOperations, validateNamedRuleWithOperations}). A named
 * rule is inlined: its fields sit directly under {@code resourceRules[i]}. The order-dependent quirks of
 * {@code validateResources} are kept on purpose: the API server has them.
 */
final class RuleValidation {
    static final List<String> OPERATIONS = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
    static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");

    private RuleValidation() {}

    static void validateNamedRuleWithOperations(ObjectNode rule, FieldPath path, Errors errors) {
        Set<String> seen = new HashSet<>();
        List<String> names = Json.strings(rule, "resourceNames");
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            for (String problem : NameFormats.pathSegmentNameProblems(name)) {
                errors.invalid(path.child("resourceNames").index(i), name, problem);
            }
            if (!seen.add(name)) {
                errors.duplicate(path.child("resourceNames").index(i), name);
            }
        }
        validateRuleWithOperations(rule, path, errors);
    }

    static void validateRuleWithOperations(ObjectNode rule, FieldPath path, Errors errors) {
        List<String> operations = Json.strings(rule, "operations");
        FieldPath opsPath = path.child("operations");
        if (operations.isEmpty()) {
            errors.required(opsPath, "list the operations to match: CREATE, UPDATE, DELETE, CONNECT, or *");
        }
        if (operations.size() > 1 && operations.contains("*")) {
            errors.invalid(opsPath, operations, "if '*' is present, must not specify other operations; use [\"*\"] alone");
        }
        for (int i = 0; i < operations.size(); i++) {
            if (!OPERATIONS.contains(operations.get(i))) {
                errors.notSupported(opsPath.index(i), operations.get(i), OPERATIONS);
            }
        }
        validateRule(rule, path, errors);
    }

    private static void validateRule(ObjectNode rule, FieldPath path, Errors errors) {
        List<String> groups = Json.strings(rule, "apiGroups");
        if (groups.isEmpty()) {
            errors.required(path.child("apiGroups"), "list the API groups to match; \"\" is the core group, \"*\" all groups");
        }
        if (groups.size() > 1 && groups.contains("*")) {
            errors.invalid(path.child("apiGroups"), groups, "if '*' is present, must not specify other API groups");
        }
        List<String> versions = Json.strings(rule, "apiVersions");
        if (versions.isEmpty()) {
            errors.required(path.child("apiVersions"), "list the API versions to match, or \"*\" for all");
        }
        if (versions.size() > 1 && versions.contains("*")) {
            errors.invalid(path.child("apiVersions"), versions, "if '*' is present, must not specify other API versions");
        }
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).isEmpty()) {
                errors.required(path.child("apiVersions").index(i), "an API version may not be empty");
            }
        }
        validateResources(Json.strings(rule, "resources"), path.child("resources"), errors);
        String scope = Json.string(rule, "scope");
        if (scope != null && !SCOPES.contains(scope)) {
            errors.notSupported(path.child("scope"), scope, SCOPES);
        }
    }

    /** {@code validateResources}, subresources allowed (the only variant these kinds use). */
    static void validateResources(List<String> resources, FieldPath path, Errors errors) {
        if (resources.isEmpty()) {
            errors.required(path, "list the resources to match, e.g. \"pods\", \"pods/exec\", or \"*\"");
        }
        Set<String> resourcesWithWildcardSubresources = new HashSet<>();
        Set<String> subresourcesWithWildcardResource = new HashSet<>();
        boolean hasDoubleWildcard = false;
        boolean hasSingleWildcard = false;
        boolean hasResourceWithoutSubresource = false;
        for (int i = 0; i < resources.size(); i++) {
            String resSub = resources.get(i);
            if (resSub.isEmpty()) {
                errors.required(path.index(i), "a resource may not be empty");
                continue;
            }
            if (resSub.equals("*/*")) {
                hasDoubleWildcard = true;
            }
            if (resSub.equals("*")) {
                hasSingleWildcard = true;
            }
            int slash = resSub.indexOf('/');
            if (slash < 0) {
                // Upstream remembers only the last plain entry: [pods, *] passes, [*, pods] does not.
                hasResourceWithoutSubresource = !resSub.equals("*");
                continue;
            }
            String res = resSub.substring(0, slash);
            String sub = resSub.substring(slash + 1);
            if (resourcesWithWildcardSubresources.contains(res)) {
                errors.invalid(path.index(i), resSub, "if '" + res + "/*' is present, must not specify " + resSub
                        + "; remove the redundant entry");
            }
            if (subresourcesWithWildcardResource.contains(sub)) {
                errors.invalid(path.index(i), resSub, "if '*/" + sub + "' is present, must not specify " + resSub
                        + "; remove the redundant entry");
            }
            if (sub.equals("*")) {
                resourcesWithWildcardSubresources.add(res);
            }
            if (res.equals("*")) {
                subresourcesWithWildcardResource.add(sub);
            }
        }
        if (resources.size() > 1 && hasDoubleWildcard) {
            errors.invalid(path, resources, "if '*/*' is present, must not specify other resources");
        }
        if (hasSingleWildcard && hasResourceWithoutSubresource) {
            errors.invalid(path, resources, "if '*' is present, must not specify other resources without subresources");
        }
    }
}
