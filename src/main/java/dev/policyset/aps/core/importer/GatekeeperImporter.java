package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static dev.policyset.aps.core.importer.SetDocuments.JSON;

/**
 * Gatekeeper ConstraintTemplates with a {@code K8sNativeValidation} code source, and their constraints, into sets,
 * with the semantics of Gatekeeper's own transform ({@code open-policy-agent/gatekeeper:
 * pkg/drivers/k8scel/transform/make_vap_objects.go}, {@code cel_snippets.go}):
 * <ul>
 *   <li>the policy is {@code gatekeeper-<template>}; its paramKind is the constraint kind
 *       ({@code constraints.gatekeeper.sh/v1beta1}), so the constraints themselves are the params (Gatekeeper's
 *       constraint CRDs must be installed, as for Gatekeeper's own generated policies);</li>
 *   <li>matchConstraints are Gatekeeper's default without a webhook configuration: every resource, CREATE and
 *       UPDATE ({@code buildDefaultMatchConstraints});</li>
 *   <li>matchConditions: the template's own, then {@code gatekeeper_internal_match_excluded_namespaces},
 *       {@code _namespaces}, {@code _name} and {@code _kinds}, which read the constraint's {@code spec.match};</li>
 *   <li>variables {@code anyObject} (oldObject on DELETE) and {@code params} (the constraint's
 *       {@code spec.parameters}) before the template's own;</li>
 *   <li>one binding per constraint, {@code gatekeeper-<kind>-<constraint>} ({@code GetVAPBindingName}), paramRef the
 *       constraint with {@code parameterNotFoundAction: Allow}, its {@code match.labelSelector} and
 *       {@code match.namespaceSelector} as selectors, its enforcementAction as validationActions (deny → Deny,
 *       warn → Warn, dryrun → Audit; {@code ConstraintToBinding}).</li>
 * </ul>
 * A template without a K8sNativeValidation source is refused ({@link ImportRules#REGO}).
 */
public final class GatekeeperImporter {
    static final String TEMPLATE_KIND = "ConstraintTemplate";
    static final String CONSTRAINT_GROUP = "constraints.gatekeeper.sh";
    static final String PARAM_API_VERSION = CONSTRAINT_GROUP + "/v1beta1";
    static final String ENGINE = "K8sNativeValidation";

    private GatekeeperImporter() {}

    public static boolean isTemplate(Document d) {
        return TEMPLATE_KIND.equals(d.kind()) && d.apiVersion().startsWith("templates.gatekeeper.sh/");
    }

    public static boolean isConstraint(Document d) {
        return d.apiVersion().startsWith(CONSTRAINT_GROUP + "/");
    }

    /** Imports every template of {@code documents}, each with the constraints of its kind among them. */
    public static ImportResult importAll(List<Document> documents) {
        ImportResult result = new ImportResult();
        List<Document> templates = documents.stream().filter(GatekeeperImporter::isTemplate).toList();
        List<Document> constraints = new ArrayList<>();
        Map<String, Document> seen = new LinkedHashMap<>();
        for (Document c : documents.stream().filter(GatekeeperImporter::isConstraint).toList()) {
            Document first = seen.putIfAbsent(c.kind() + "/" + c.name(), c);
            if (first == null) {
                constraints.add(c);
            } else {
                // one name, one object in a cluster: a later one would replace the first
                result.add(new ImportFinding(Finding.warning(ImportRules.DUPLICATE, c.kind() + "/" + c.name(), "metadata.name",
                        "another constraint of this kind and name was read first (" + first.source() + ":" + first.line()
                        + "): only the first is imported; rename one of them"), c.source(), c.line()));
            }
        }
        Map<String, ObjectNode> setsByFile = new LinkedHashMap<>();
        List<String> kinds = new ArrayList<>();
        for (Document t : templates) {
            String kind = constraintKind(t.content());
            kinds.add(kind);
            List<Document> own = constraints.stream().filter(c -> c.kind().equals(kind)).toList();
            Optional<ObjectNode> member = member(t, own, result);
            if (member.isEmpty()) {
                continue;
            }
            ObjectNode set = setsByFile.computeIfAbsent(t.source(), f -> SetDocuments.set(
                    SetDocuments.dnsName("gatekeeper-" + t.name()), "gatekeeper:" + f));
            SetDocuments.validatingPolicies(set).add(member.get());
        }
        for (Document c : constraints) {
            if (!kinds.contains(c.kind())) {
                result.add(new ImportFinding(Finding.warning(ImportRules.NO_TEMPLATE, c.kind() + "/" + c.name(), "kind",
                        "no ConstraintTemplate among the inputs defines kind " + c.kind() + ": the constraint is not "
                        + "imported; give its template's file too"), c.source(), c.line()));
            }
        }
        setsByFile.forEach((file, set) -> result.add(new ImportedFile(file, List.of(set), false)));
        return result;
    }

    /** The constraint kind a template defines ({@code spec.crd.spec.names.kind}). */
    static String constraintKind(JsonNode template) {
        return template.path("spec").path("crd").path("spec").path("names").path("kind").asText("");
    }

    /** The policy name Gatekeeper gives a template's policy: {@code gatekeeper-<kind, lower case>}. */
    static String policyName(String kind) {
        return "gatekeeper-" + kind.toLowerCase(Locale.ROOT);
    }

    /** One set member: the template's policy with one binding per constraint; empty (and a finding) when refused. */
    static Optional<ObjectNode> member(Document template, List<Document> constraints, ImportResult result) {
        JsonNode t = template.content();
        String kind = constraintKind(t);
        String object = TEMPLATE_KIND + "/" + template.name();
        JsonNode targets = t.path("spec").path("targets");
        JsonNode source = null;
        for (JsonNode target : targets) {
            for (JsonNode code : target.path("code")) {
                if (ENGINE.equals(code.path("engine").asText())) {
                    source = code.path("source");
                }
            }
        }
        if (source == null) {
            result.add(new ImportFinding(Finding.error(ImportRules.REGO, object, "spec.targets[0].code",
                    "the template has no " + ENGINE + " code source, only Rego, which has no native form: keep it in "
                    + "Gatekeeper, or add a K8sNativeValidation source (CEL) to the template and import again"),
                    template.source(), template.line()));
            return Optional.empty();
        }
        if (kind.isEmpty()) {
            result.add(new ImportFinding(Finding.error(ImportRules.REGO, object, "spec.crd.spec.names.kind",
                    "the template names no constraint kind: give spec.crd.spec.names.kind"), template.source(), template.line()));
            return Optional.empty();
        }
        ObjectNode member = JSON.objectNode();
        member.put("name", policyName(kind));
        member.set("policy", policy(kind, source));
        ArrayNode bindings = member.putArray("bindings");
        for (Document c : constraints) {
            binding(c, kind, result).ifPresent(bindings::add);
        }
        result.countPolicy();
        return Optional.of(member);
    }

    /** {@code TemplateToPolicyDefinitionWithWebhookConfig} without a webhook configuration. */
    static ObjectNode policy(String kind, JsonNode source) {
        ObjectNode spec = JSON.objectNode();
        ObjectNode paramKind = spec.putObject("paramKind");
        paramKind.put("apiVersion", PARAM_API_VERSION);
        paramKind.put("kind", kind);
        ObjectNode rule = spec.putObject("matchConstraints").putArray("resourceRules").addObject();
        rule.putArray("apiGroups").add("*");
        rule.putArray("apiVersions").add("*");
        rule.putArray("resources").add("*");
        rule.putArray("operations").add("CREATE").add("UPDATE");
        ArrayNode conditions = spec.putArray("matchConditions");
        // the source's JSON tag is matchCondition (schema.go: Source.MatchConditions)
        source.path("matchCondition").forEach(c -> conditions.add(c.deepCopy()));
        GatekeeperMatchers.all().forEach((name, expression) -> conditions.addObject().put("name", name).put("expression", expression));
        ArrayNode variables = spec.putArray("variables");
        variables.addObject().put("name", "anyObject")
                .put("expression", "has(request.operation) && request.operation == \"DELETE\" && object == null ? oldObject : object");
        variables.addObject().put("name", "params")
                .put("expression", "!has(params.spec) ? null : !has(params.spec.parameters) ? null: params.spec.parameters");
        source.path("variables").forEach(v -> variables.add(v.deepCopy()));
        ArrayNode validations = spec.putArray("validations");
        for (JsonNode v : source.path("validations")) {
            ObjectNode out = validations.addObject();
            for (String field : List.of("expression", "message", "messageExpression")) {
                if (v.hasNonNull(field) && !v.get(field).asText().isEmpty()) {
                    out.put(field, v.get(field).asText());
                }
            }
        }
        spec.put("failurePolicy", source.path("failurePolicy").asText("Fail"));
        return spec;
    }

    /** {@code ConstraintToBinding}; empty (and a finding) for an enforcementAction without a validation action. */
    static Optional<ObjectNode> binding(Document constraint, String kind, ImportResult result) {
        JsonNode c = constraint.content();
        List<String> actions = enforcementActions(c.path("spec"));
        ObjectNode binding = JSON.objectNode();
        binding.put("name", bindingName(kind, constraint.name()));
        ObjectNode spec = binding.putObject("spec");
        List<String> validationActions = new ArrayList<>();
        for (String action : actions) {
            switch (action.toLowerCase(Locale.ROOT)) {
                case "deny" -> validationActions.add("Deny");
                case "warn" -> validationActions.add("Warn");
                case "dryrun" -> validationActions.add("Audit");
                default -> {
                    result.add(new ImportFinding(Finding.error(ImportRules.ENFORCEMENT_ACTION, kind + "/" + constraint.name(),
                            "spec.enforcementAction", "enforcementAction '" + action + "' has no validation action (Gatekeeper "
                            + "knows deny, warn and dryrun): the constraint is not imported; use one of those"),
                            constraint.source(), constraint.lineOf("spec.enforcementAction")));
                    return Optional.empty();
                }
            }
        }
        ObjectNode paramRef = spec.putObject("paramRef");
        paramRef.put("name", constraint.name());
        paramRef.put("parameterNotFoundAction", "Allow");
        ObjectNode match = spec.putObject("matchResources");
        JsonNode m = c.path("spec").path("match");
        if (m.has("labelSelector")) {
            match.set("objectSelector", m.get("labelSelector").deepCopy());
        }
        if (m.has("namespaceSelector")) {
            match.set("namespaceSelector", m.get("namespaceSelector").deepCopy());
        }
        validationActions.forEach(spec.putArray("validationActions")::add);
        return Optional.of(binding);
    }

    /**
     * deny by default; {@code scoped} takes the actions of the scopedEnforcementActions whose enforcementPoints
     * include {@code validation.gatekeeper.sh} (or {@code *}), Gatekeeper's admission point.
     */
    static List<String> enforcementActions(JsonNode spec) {
        String action = spec.path("enforcementAction").asText("deny");
        if (!"scoped".equalsIgnoreCase(action)) {
            return List.of(action);
        }
        List<String> actions = new ArrayList<>();
        for (JsonNode scoped : spec.path("scopedEnforcementActions")) {
            for (JsonNode point : scoped.path("enforcementPoints")) {
                String name = point.path("name").asText("");
                if (name.equals("validation.gatekeeper.sh") || name.equals("*")) {
                    actions.add(scoped.path("action").asText(""));
                }
            }
        }
        return actions.stream().distinct().toList();
    }

    /** {@code GetVAPBindingName}: {@code gatekeeper-<kind>-<name>}, hashed past 253 characters. */
    static String bindingName(String kind, String constraint) {
        String name = "gatekeeper-" + kind.toLowerCase(Locale.ROOT) + "-" + constraint;
        if (name.length() <= 253) {
            return name;
        }
        String hash = sha256(name).substring(0, 8);
        return name.substring(0, 253 - hash.length() - 1).replaceAll("[-.]+$", "") + "-" + hash;
    }

    private static String sha256(String text) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
