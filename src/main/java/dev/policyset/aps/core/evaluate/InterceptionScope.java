package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Rule;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * What an admission policy (validating or mutating: their matchConstraints have one shape) and one of its bindings
 * intercept, matchConditions aside: the resources an impact scan must list, and which request an existing object
 * is asked as.
 */
public final class InterceptionScope {
    private final RenderedObject policy;
    private final Interceptor interceptor;

    InterceptionScope(RenderedObject policy, RenderedObject binding) {
        this.policy = policy;
        this.interceptor = Interceptor.ofBinding(Interception.withoutConditions(policy.manifest().path("spec")),
                binding.manifest().path("spec"));
    }

    Interceptor interceptor() {
        return interceptor;
    }

    /**
     * Whether the policy and binding can intercept writes (CREATE or UPDATE) of a resource, labels and namespace
     * unknown: the resources an impact scan must list.
     */
    public boolean mayIntercept(String group, String resource) {
        return interceptor.match(dev.policyset.aps.core.intercept.AdmissionRequest.anyOf(group, resource,
                EnumSet.of(Operation.CREATE, Operation.UPDATE))).mayMatch();
    }

    /**
     * Why a scan of {@code listable} resources cannot see every object the policy matches: its resourceRules name a
     * wildcard, or a group/resource that is not listable (subresources are not objects and are left out); empty
     * when it can.
     */
    public List<String> unlisted(BiPredicate<String, String> listable) {
        List<String> out = new ArrayList<>();
        JsonNode spec = policy.manifest().path("spec");
        for (Rule rule : Interceptor.ofPolicy(Interception.withoutConditions(spec)).rules()) {
            boolean writes = rule.operations().stream().anyMatch(o -> o.equals("*") || o.equals("CREATE") || o.equals("UPDATE"));
            if (!writes) {
                continue;
            }
            for (String group : rule.groups()) {
                for (String resource : rule.resources()) {
                    if (resource.contains("/") && !resource.startsWith("*")) {
                        resource = resource.substring(0, resource.indexOf('/'));
                        if (resource.equals("*")) {
                            continue;
                        }
                    }
                    String gr = (group.isEmpty() ? "core" : group) + "/" + resource;
                    if (group.equals("*") || resource.startsWith("*")) {
                        if (!out.contains(gr)) {
                            out.add(gr);
                        }
                    } else if (!listable.test(group, resource) && !out.contains(gr)) {
                        out.add(gr);
                    }
                }
            }
        }
        return out;
    }
}
