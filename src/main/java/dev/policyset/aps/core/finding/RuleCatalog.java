package dev.policyset.aps.core.finding;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every rule ID with its default severity and one-line summary: the one place rule metadata lives. SARIF's
 * rule table, {@code aps explain} and the documentation test read it; the full text, with examples and fixes,
 * is docs/rules.md (packaged into the CLI jar), one section per ID. IDs are stable (DESIGN §4).
 *
 * <p>"Default" severity: what the rule reports before a set's exemptions or {@code enforcement: Warn} change it.
 */
public final class RuleCatalog {
    /** Where docs/rules.md is published; SARIF's {@code helpUri} points at a section of it. */
    public static final String DOCS_URL = "https://github.com/policyset/admission-policy-operator/blob/main/docs/rules.md";

    /** One rule: its ID, the severity it reports by default, and what it catches in one line. */
    public record Rule(String id, Severity severity, String summary) {
        /** The Markdown anchor of its section in docs/rules.md ({@code api/Invalid} → {@code apiinvalid}). */
        public String anchor() {
            return anchorOf(id);
        }

        public String helpUri() {
            return DOCS_URL + "#" + anchor();
        }
    }

    private static final Map<String, Rule> RULES = new LinkedHashMap<>();

    static {
        rule("APS101", Severity.INFO, "A mutating webhook asks to be reinvoked (IfNeeded): its mutation must be idempotent");
        rule("APS102", Severity.ERROR, "A reinvoked policy appends to a list without a guard");
        rule("APS201", Severity.ERROR, "A fail-closed webhook can intercept writes in kube-system or kube-node-lease");
        rule("APS202", Severity.ERROR, "A fail-closed webhook can intercept what restores its own backend");
        rule("APS203", Severity.WARNING, "A namespace or object is exempted through a label that can be changed");
        rule("APS204", Severity.WARNING, "Matches everything: * groups, * resources and * operations, or no rules");
        rule("APS205", Severity.ERROR, "A fail-closed webhook intercepts writes the control plane needs to stay alive");
        rule("APS206", Severity.WARNING, "A rule pairs the core group with a resource the core group does not have");
        rule("APS301", Severity.WARNING, "A fail-closed webhook uses a timeout above 10 s");
        rule("APS302", Severity.ERROR, "Worst-case admission latency of one request exceeds the 30 s budget");
        rule("APS401", Severity.ERROR, "A binding names a policy that neither the input nor the cluster has");
        rule("APS402", Severity.WARNING, "A policy has no binding");
        rule("APS403", Severity.ERROR, "The set claims an object it does not own");
        rule("APS404", Severity.ERROR, "Two objects of the same kind and name in one input");
        rule("APS405", Severity.WARNING, "Another field manager keeps writing a field the set renders (contested field)");
        rule("APS406", Severity.WARNING, "Pod-controller autogen is asked for a policy that does not match Pods alone: nothing is rendered for the controllers");
        rule("APS501", Severity.WARNING, "A service webhook has no caBundle and nothing says who injects it");
        rule("APS601", Severity.WARNING, "The cluster's type check of an applied ValidatingAdmissionPolicy warns");
        rule("APS602", Severity.WARNING, "An expression refers to a field the matched resource's schema does not have, or uses it with the wrong type");
        rule("APS603", Severity.WARNING, "An access to an optional field or map key without a guard can fail at request time in a fail-closed policy");
        rule("APS604", Severity.WARNING, "A mutation writes a field the matched kind's schema does not declare: the API server's strict decoding fails the request");
        rule("APS605", Severity.ERROR, "An Object initializer in a mutation is not named for its field path: the API server fails every request it is evaluated for");
        rule("APS701", Severity.WARNING, "A CEL expression's estimated cost can exceed the API server's runtime limit or budget");
        rule("APS801", Severity.WARNING, "Existing objects that a binding denies, or would deny once switched to Deny");
        rule("APS802", Severity.WARNING, "Existing objects whose next write the API server would refuse because of a mutating binding");
        rule("APS803", Severity.WARNING, "A mutating binding that is not idempotent on existing objects: applied to its own output, it changes it again");
        rule("APS804", Severity.INFO, "Existing objects that a mutating binding would change the next time they are written");
        // APS9xx: the waivers themselves (spec.safety.exemptions, the admission.policyset.dev/waive annotation, .aps.yaml).
        rule("APS901", Severity.WARNING, "A waiver or exemption matches no finding");
        rule("APS902", Severity.WARNING, "A waiver that waives nothing: no reason, a rule that cannot be waived, no object pattern, or expired");
        rule("cel/Unchecked", Severity.WARNING, "The CEL checker failed on this expression; it was not checked");
        // What the API server itself refuses, with its field.ErrorType (k8s.io/apimachinery/pkg/util/validation/field).
        for (String type : List.of("Required", "Invalid", "NotSupported", "Duplicate", "Forbidden", "TooMany", "TooLong")) {
            rule("api/" + type, Severity.ERROR, "The API server would refuse the object (" + type + ")");
        }
        rule("input/Unreadable", Severity.ERROR, "A file that cannot be read or parsed");
        rule("input/Skipped", Severity.INFO, "A document that is not an admission object or an AdmissionPolicySet");
        rule("input/Unprocessable", Severity.ERROR, "A document whose structure could not be processed");
        rule("input/TooLarge", Severity.ERROR, "An input over the 16 MiB limit, refused before it is parsed");
        // aps import (docs/import.md): what another engine's policy or test has that no native form can carry
        rule("import/Rego", Severity.ERROR, "A Gatekeeper ConstraintTemplate with Rego code only");
        rule("import/NoTemplate", Severity.WARNING, "A Gatekeeper constraint whose template is not among the inputs");
        rule("import/EnforcementAction", Severity.ERROR, "A Gatekeeper constraint's enforcementAction has no validation action");
        rule("import/Duplicate", Severity.WARNING, "Two imported objects of one kind and name: only the first is imported");
        rule("import/NotCel", Severity.ERROR, "A Kyverno rule written with patterns, deny or JMESPath instead of validate.cel");
        rule("import/Foreach", Severity.ERROR, "A Kyverno validate.foreach rule");
        rule("import/UnsupportedRule", Severity.ERROR, "A Kyverno generate, mutate, verifyImages or context rule, or JSON evaluation");
        rule("import/UnsupportedLibrary", Severity.ERROR, "A Kyverno expression calls a CEL library the API server does not have");
        rule("import/Match", Severity.ERROR, "A Kyverno match or exclude that matchConstraints cannot express");
        rule("import/Autogen", Severity.ERROR, "A Kyverno MutatingPolicy for Pods that Kyverno also applies to pod controllers (autogen)");
        rule("import/BackgroundOnly", Severity.ERROR, "A Kyverno policy that runs only in background scans");
        rule("import/Exception", Severity.ERROR, "A Kyverno PolicyException that negated matchConditions cannot express");
        rule("import/ExceptionTarget", Severity.WARNING, "A Kyverno PolicyException whose policy or rule was not imported");
        rule("import/ExceptionApplied", Severity.INFO, "A Kyverno PolicyException imported as negated matchConditions");
        rule("import/Test", Severity.WARNING, "A test or test case of the engine that is not converted");
    }

    private static void rule(String id, Severity severity, String summary) {
        if (RULES.put(id, new Rule(id, severity, summary)) != null) {
            throw new IllegalStateException("rule " + id + " is declared twice");
        }
    }

    private RuleCatalog() {}

    /** Every rule, in documentation order. */
    public static List<Rule> all() {
        return Collections.unmodifiableList(new ArrayList<>(RULES.values()));
    }

    /** A rule by ID, case-insensitively ({@code aps explain aps201} works). */
    public static Optional<Rule> find(String id) {
        Rule exact = RULES.get(id);
        if (exact != null) {
            return Optional.of(exact);
        }
        return RULES.values().stream().filter(r -> r.id().equalsIgnoreCase(id)).findFirst();
    }

    /** A one-line description of a rule ID; an ID the catalog does not know gets a generic one. */
    public static String summary(String id) {
        Optional<Rule> rule = find(id);
        if (rule.isPresent()) {
            return rule.get().summary();
        }
        if (id.startsWith("api/")) {
            return "The API server would refuse the object (" + id.substring(4) + ")";
        }
        if (id.startsWith("input/")) {
            return "The input could not be validated as an admission object (" + id.substring(6) + ")";
        }
        return id;
    }

    /** The documentation of a rule ID, relative to the repository root. */
    public static String docs(String id) {
        return "docs/rules.md#" + anchorOf(id);
    }

    /** The published documentation of a rule ID. */
    public static String helpUri(String id) {
        return DOCS_URL + "#" + anchorOf(id);
    }

    /** GitHub's heading anchor: lower case, punctuation such as '/' dropped. */
    static String anchorOf(String id) {
        return id.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_ -]", "").replace(' ', '-');
    }
}
