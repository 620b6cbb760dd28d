package dev.policyset.aps.core.validate;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line per rule ID, for printers that describe rules (SARIF's rule table). The full text, with examples
 * and fixes, is docs/rules.md; IDs are stable (DESIGN §4).
 */
public final class RuleCatalog {
    private static final Map<String, String> SUMMARIES = new LinkedHashMap<>();

    static {
        SUMMARIES.put("APS101", "A mutating webhook leaves reinvocationPolicy implicit");
        SUMMARIES.put("APS102", "reinvocationPolicy IfNeeded with a mutation that is not idempotent");
        SUMMARIES.put("APS201", "A fail-closed webhook can intercept requests in kube-system or kube-node-lease");
        SUMMARIES.put("APS202", "A fail-closed webhook can intercept requests in its own service's namespace");
        SUMMARIES.put("APS203", "A namespace or object is exempted through a label that can be changed");
        SUMMARIES.put("APS204", "Matches everything: * groups, * resources and * operations, or no rules");
        SUMMARIES.put("APS205", "A fail-closed webhook intercepts objects the control plane itself needs");
        SUMMARIES.put("APS206", "A rule pairs the core group with a resource the core group does not have");
        SUMMARIES.put("APS301", "A fail-closed webhook uses a timeout above 10 s");
        SUMMARIES.put("APS302", "Worst-case admission latency of one request exceeds the 30 s budget");
        SUMMARIES.put("APS401", "A binding names a policy that neither the input nor the cluster has");
        SUMMARIES.put("APS402", "A policy has no binding");
        SUMMARIES.put("APS403", "The set claims an object it does not own");
        SUMMARIES.put("APS404", "Two objects of the same kind and name in one input");
        SUMMARIES.put("APS501", "A webhook's service has no caBundle and no cert-manager injection annotation");
        SUMMARIES.put("APS601", "The cluster's type check of an applied ValidatingAdmissionPolicy warns");
        SUMMARIES.put("cel/Unchecked", "The CEL checker failed on this expression; it was not checked");
    }

    private RuleCatalog() {}

    /** A one-line description of a rule ID; {@code api/<Type>} and other IDs get a generic one. */
    public static String summary(String id) {
        String s = SUMMARIES.get(id);
        if (s != null) {
            return s;
        }
        if (id.startsWith("api/")) {
            return "The API server would refuse the object (" + id.substring(4) + ")";
        }
        if (id.startsWith("input/")) {
            return "The input could not be validated as an admission object (" + id.substring(6) + ")";
        }
        return id;
    }

    /** The documentation anchor of a rule, relative to the repository root. */
    public static String docs(String id) {
        return "docs/rules.md#" + id.toLowerCase(java.util.Locale.ROOT).replace("/", "");
    }
}
