package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.PodControllers;
import dev.policyset.aps.core.yaml.Document;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static dev.policyset.aps.core.importer.SetDocuments.JSON;

/**
 * Kyverno {@code policies.kyverno.io} MutatingPolicy (and NamespacedMutatingPolicy) into a MutatingAdmissionPolicy
 * member, as Kyverno's own generator builds one ({@code kyverno/kyverno: pkg/admissionpolicy/builder.go:
 * BuildMutatingAdmissionPolicyV1}) but with the whole matchConstraints (Kyverno's engine matches on them; its
 * generator copies only the resourceRules). The API types are {@code kyverno/api:
 * api/policies.kyverno.io/v1beta1/mutating_policy.go}; v1alpha1, v1beta1 and v1 have the same spec.
 *
 * <p>What only Kyverno's engine does is refused with the reason: mutating existing resources (the background
 * controller: {@code evaluation.mutateExisting}, {@code targetMatchConstraints}, {@code targetMatchConditions}),
 * server-side-apply merges, JSON payloads, background-only policies, auditAnnotations (report properties), Kyverno's
 * CEL libraries, matchConditions that read variables, and pod-controller autogen, which Kyverno applies to a Pod
 * policy by default and which a set renders only for validating members.
 */
final class KyvernoMutatingPolicies {
    /** {@code variables.x} in a matchCondition: Kyverno evaluates them lazily there, the API server has none yet. */
    private static final Pattern VARIABLES = Pattern.compile("(?<![\\w.])variables\\s*\\.");

    private KyvernoMutatingPolicies() {}

    static boolean isMutatingPolicy(Document d) {
        return (d.kind().equals("MutatingPolicy") || d.kind().equals("NamespacedMutatingPolicy"))
                && d.apiVersion().startsWith("policies.kyverno.io/");
    }

    /** The set member, or empty with the refusal added to {@code result}. */
    static Optional<ObjectNode> convert(Document d, ImportResult result, boolean autogen) {
        JsonNode spec = d.content().path("spec");
        JsonNode evaluation = spec.path("evaluation");
        String object = d.kind() + "/" + d.name();
        if (!evaluation.path("admission").path("enabled").asBoolean(true)) {
            return refuse(result, d, ImportRules.BACKGROUND_ONLY, object, "spec.evaluation.admission.enabled",
                    "the policy runs only in background scans (admission disabled): a native policy runs only at admission; "
                    + "keep it in Kyverno");
        }
        if ("JSON".equalsIgnoreCase(evaluation.path("mode").asText("Kubernetes"))) {
            return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec.evaluation.mode",
                    "evaluation mode JSON mutates JSON payloads outside admission: it has no native form; keep it in Kyverno");
        }
        if (evaluation.path("mutateExisting").path("enabled").asBoolean(false)) {
            return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec.evaluation.mutateExisting.enabled",
                    "mutateExisting changes existing resources from Kyverno's background controller; a MutatingAdmissionPolicy "
                    + "only mutates the object of the request it admits: keep the policy in Kyverno");
        }
        for (String target : List.of("targetMatchConstraints", "targetMatchConditions")) {
            if (present(spec.path(target))) {
                return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec." + target, target + " selects other "
                        + "resources to mutate than the request's object, which a MutatingAdmissionPolicy cannot: keep the "
                        + "policy in Kyverno");
            }
        }
        if (evaluation.path("useServerSideApply").asBoolean(false)) {
            return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec.evaluation.useServerSideApply",
                    "server-side-apply merges replace atomic fields, which the API server refuses in an ApplyConfiguration; "
                    + "remove useServerSideApply (and set atomic fields with a JSONPatch mutation), then import");
        }
        if (present(spec.path("auditAnnotations"))) {
            return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec.auditAnnotations", "auditAnnotations of a "
                    + "MutatingPolicy are policy report properties; a MutatingAdmissionPolicy has no auditAnnotations: remove "
                    + "them (the mutations are imported as they are), or keep the policy in Kyverno");
        }
        Optional<String> library = KyvernoImporter.libraries(spec);
        if (library.isPresent()) {
            return refuse(result, d, ImportRules.UNSUPPORTED_LIBRARY, object, "spec",
                    "an expression calls Kyverno's " + library.get() + " library, which the API server does not have: "
                    + "rewrite it without it, or keep the policy in Kyverno");
        }
        JsonNode conditions = spec.path("matchConditions");
        for (int i = 0; i < conditions.size(); i++) {
            if (VARIABLES.matcher(conditions.get(i).path("expression").asText("")).find()) {
                return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec.matchConditions[" + i + "].expression",
                        "the condition reads variables, which Kyverno evaluates lazily but a MutatingAdmissionPolicy has not "
                        + "yet when it evaluates matchConditions: write the variable's expression into the condition, then import");
            }
        }
        ObjectNode policy = JSON.objectNode();
        for (String f : List.of("matchConstraints", "matchConditions", "variables", "mutations", "failurePolicy")) {
            if (present(spec.path(f))) {
                policy.set(f, spec.get(f).deepCopy());
            }
        }
        // Kyverno's default (MutatingPolicySpec.GetReinvocationPolicy); a set requires it written out
        policy.put("reinvocationPolicy", spec.path("reinvocationPolicy").asText("").isEmpty() ? "Never"
                : spec.path("reinvocationPolicy").asText());
        String namespace = d.content().path("metadata").path("namespace").asText("");
        if (d.kind().equals("NamespacedMutatingPolicy") && !namespace.isEmpty()) {
            ObjectNode c = (ObjectNode) policy.withArray("matchConditions").insertObject(0);
            c.put("name", "kyverno-namespace");
            c.put("expression", "request.namespace == '" + namespace + "'");
        }
        if (autogen && kyvernoAutogens(spec, policy)) {
            return refuse(result, d, ImportRules.AUTOGEN, object, "spec.autogen.podControllers", "Kyverno also mutates the "
                    + "pod templates of Deployments, StatefulSets, DaemonSets, Jobs and CronJobs for this Pod policy "
                    + "(autogen), which a set renders only for validating policies: set spec.autogen.podControllers."
                    + "controllers: [] to import the Pod policy alone (the controllers' pods are still mutated when they are "
                    + "created), import with --autogen=false, or keep the policy in Kyverno");
        }
        ObjectNode member = JSON.objectNode();
        member.put("name", SetDocuments.dnsName(d.name()));
        member.set("policy", policy);
        ObjectNode binding = member.putArray("bindings").addObject();
        binding.put("name", SetDocuments.dnsName(d.name()) + "-binding");
        binding.putObject("spec");
        return Optional.of(member);
    }

    /** Kyverno autogens a MutatingPolicy that matches Pods alone unless its controllers are listed empty. */
    private static boolean kyvernoAutogens(JsonNode spec, ObjectNode policy) {
        JsonNode controllers = spec.path("autogen").path("podControllers").path("controllers");
        return PodControllers.ineligibility(policy).isEmpty() && !(controllers.isArray() && controllers.isEmpty());
    }

    private static boolean present(JsonNode node) {
        return !node.isMissingNode() && !node.isNull() && !(node.isContainerNode() && node.isEmpty());
    }

    private static Optional<ObjectNode> refuse(ImportResult result, Document d, String rule, String object, String field,
                                               String message) {
        return KyvernoImporter.refuse(result, d, rule, object, field, message);
    }
}
