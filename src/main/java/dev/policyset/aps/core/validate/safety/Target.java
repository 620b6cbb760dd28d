package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A kind of request a safety rule cares about: a resource (and subresource) and the operations that matter for the
 * failure the rule names. Rules ask the interception model whether a webhook can intercept any of them.
 */
record Target(String group, String resource, String subresource, Set<Operation> operations) {
    static Target of(String group, String resource, Set<Operation> operations) {
        String sub = "";
        int slash = resource.indexOf('/');
        if (slash >= 0) {
            sub = resource.substring(slash + 1);
            resource = resource.substring(0, slash);
        }
        return new Target(group, resource, sub, operations);
    }

    /** {@code pods}, {@code pods/status}, {@code leases.coordination.k8s.io}. */
    String label() {
        String r = subresource.isEmpty() ? resource : resource + "/" + subresource;
        return group.isEmpty() ? r : r + "." + group;
    }

    AdmissionRequest request(UnaryOperator<AdmissionRequest> where) {
        return where.apply(AdmissionRequest.anyOf(group, resource, operations).withSubresource(subresource));
    }

    /** What one interceptor does with a list of targets: those it certainly intercepts, those it may. */
    record Reach(List<Target> matched, List<Target> undecided, List<String> undecidedBecause) {
        boolean any() {
            return !matched.isEmpty() || !undecided.isEmpty();
        }

        /** The labels of the matched targets, or of the undecided ones when none is matched for sure. */
        List<String> labels() {
            return (matched.isEmpty() ? undecided : matched).stream().map(Target::label).toList();
        }
    }

    static Reach reach(Interceptor interceptor, List<Target> targets, UnaryOperator<AdmissionRequest> where) {
        List<Target> matched = new ArrayList<>();
        List<Target> undecided = new ArrayList<>();
        List<String> because = new ArrayList<>();
        for (Target t : targets) {
            Verdict v = interceptor.match(t.request(where));
            if (v.matches()) {
                matched.add(t);
            } else if (v.undecided()) {
                undecided.add(t);
                v.reasons().stream().filter(r -> r.contains("unless") || r.contains("does not evaluate") || r.contains("if the object's name"))
                        .filter(r -> !because.contains(r)).forEach(because::add);
            }
        }
        return new Reach(matched, undecided, because);
    }
}
