package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.PodController;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.schema.UnknownFields;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an AdmissionPolicySet document into a {@link PolicySet}. It checks what the CRD schema would check
 * on the set's own fields (types, enums, ranges, required fields, unique member names) and reports each
 * violation as the API server would ({@code api/<Type>} on the field's path), so a set typed by hand
 * gets the same answer offline as from {@code kubectl apply}. A set with any such finding is not read
 * further: rendering half a set would hide the mistake.
 *
 * <p>That includes a field the CRD does not declare, at any level ({@link SetSchema}): {@code kubectl apply}'s
 * strict field validation refuses the set, and a client without it has the API server prune the field, so a
 * misspelt {@code defaults.failurPolicy} would leave the default {@code Fail} in force and a member's
 * {@code binding:} would leave the default Deny binding on every namespace. Reading on as if the field were not
 * there would render exactly that, so it is an error ({@code api/Invalid}, the API server's nearest field error
 * type for a strict decoding error, as for bare objects) with the name it most likely meant.
 */
public final class PolicySetReader {
    public static final String KIND = "AdmissionPolicySet";

    /** A read set, or the findings that explain why there is none. */
    public record Result(Optional<PolicySet> set, List<Finding> findings) {
        public Result {
            findings = List.copyOf(findings);
        }
    }

    private final List<Finding> findings = new ArrayList<>();
    private final boolean unknownFields;
    private String object;

    private PolicySetReader(boolean unknownFields) {
        this.unknownFields = unknownFields;
    }

    /** Reads a set as written (a file, standard input, a test suite): every field must be one the CRD declares. */
    public static Result read(JsonNode document) {
        return new PolicySetReader(true).readDocument(document);
    }

    /**
     * Reads a set as an API server stored it. The server has already held it to the installed CRD's schema
     * (refused or pruned what that schema does not declare), so a field unknown here can only come from a CRD
     * newer than this operator, and the operator ignores such fields by design (api.v1alpha1.LenientDecoder)
     * rather than block a set that the cluster accepted.
     */
    public static Result readStored(JsonNode document) {
        return new PolicySetReader(false).readDocument(document);
    }

    private Result readDocument(JsonNode document) {
        String name = document.path("metadata").path("name").asText("");
        object = KIND + "/" + name;
        if (name.isEmpty()) {
            required("metadata.name", "give the set a name");
        }
        if (unknownFields) {
            UnknownFields.in(document, SetSchema.DOCUMENT).forEach(this::unknown);
        }
        JsonNode spec = document.get("spec");
        if (spec == null || spec.isNull()) {
            required("spec", "an AdmissionPolicySet needs a spec");
            return new Result(Optional.empty(), findings);
        }
        if (!spec.isObject()) {
            invalid("spec", "must be an object");
            return new Result(Optional.empty(), findings);
        }
        SetDefaults defaults = readDefaults(spec.get("defaults"));
        SafetySettings safety = readSafety(spec.get("safety"));
        List<PolicyMember> validating = readPolicies(spec, "validatingPolicies");
        List<PolicyMember> mutating = readPolicies(spec, "mutatingPolicies");
        List<WebhookMember> validatingWebhooks = readWebhooks(spec, "validatingWebhooks");
        List<WebhookMember> mutatingWebhooks = readWebhooks(spec, "mutatingWebhooks");
        boolean prune = readBoolean(spec, "prune", true);
        boolean paused = readBoolean(spec, "paused", false);
        String deletion = readEnum(spec, "deletionPolicy", "spec.deletionPolicy", List.of("Delete", "Orphan"), "Delete");
        if (findings.stream().anyMatch(f -> f.severity() == Severity.ERROR)) {
            return new Result(Optional.empty(), findings);
        }
        PolicySet set = new PolicySet(name, defaults, safety, validating, mutating, validatingWebhooks,
                mutatingWebhooks, prune, PolicySet.DeletionPolicy.valueOf(deletion.toUpperCase(Locale.ROOT)), paused);
        return new Result(Optional.of(set), findings);
    }

    private SetDefaults readDefaults(JsonNode node) {
        if (node == null || node.isNull()) {
            return SetDefaults.NONE_SET;
        }
        if (!node.isObject()) {
            invalid("spec.defaults", "must be an object");
            return SetDefaults.NONE_SET;
        }
        String failurePolicy = readEnum(node, "failurePolicy", "spec.defaults.failurePolicy",
                List.of("Fail", "Ignore"), SetDefaults.FAILURE_POLICY);
        List<String> actions = readStrings(node, "validationActions", "spec.defaults.validationActions",
                SetDefaults.VALIDATION_ACTIONS);
        String actionsPath = "spec.defaults.validationActions";
        if (node.has("validationActions")) {
            if (actions.isEmpty()) {
                invalid(actionsPath, "must have at least 1 item; use [Deny], [Warn], [Audit] or [Warn, Audit]");
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < actions.size(); i++) {
                String a = actions.get(i);
                if (!List.of("Deny", "Warn", "Audit").contains(a)) {
                    notSupported(actionsPath + "[" + i + "]", a, List.of("Audit", "Deny", "Warn"));
                } else if (!seen.add(a)) {
                    duplicate(actionsPath + "[" + i + "]", a);
                }
            }
            if (actions.contains("Deny") && actions.contains("Warn")) {
                invalid(actionsPath, "Deny and Warn may not be used together: Warn is for staging a policy that does not deny yet");
            }
        }
        int timeout = SetDefaults.WEBHOOK_TIMEOUT_SECONDS;
        JsonNode t = node.get("webhookTimeoutSeconds");
        if (t != null && !t.isNull()) {
            if (!t.isIntegralNumber()) {
                invalid("spec.defaults.webhookTimeoutSeconds", "must be an integer from 1 to 30");
            } else if (t.asLong() < 1 || t.asLong() > 30) {
                invalid("spec.defaults.webhookTimeoutSeconds",
                        "must be between 1 and 30 seconds (the API server's limit for webhook timeouts); got " + t.asText());
            } else {
                timeout = t.asInt();
            }
        }
        List<String> excluded = readStrings(node, "excludedNamespaces", "spec.defaults.excludedNamespaces",
                SetDefaults.EXCLUDED_NAMESPACES);
        return new SetDefaults(failurePolicy, actions, timeout, excluded);
    }

    private SafetySettings readSafety(JsonNode node) {
        if (node == null || node.isNull()) {
            return SafetySettings.DEFAULT;
        }
        if (!node.isObject()) {
            invalid("spec.safety", "must be an object");
            return SafetySettings.DEFAULT;
        }
        String enforcement = readEnum(node, "enforcement", "spec.safety.enforcement", List.of("Block", "Warn"), "Block");
        String typeChecking = readEnum(node, "typeChecking", "spec.safety.typeChecking", List.of("Warn", "Error"), "Warn");
        JsonNode gate = node.get("requireNoViolationsBeforeDeny");
        if (gate != null && !gate.isNull() && !gate.isBoolean()) {
            invalid("spec.safety.requireNoViolationsBeforeDeny", "must be true or false");
        }
        List<Exemption> exemptions = new ArrayList<>();
        JsonNode list = node.get("exemptions");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                invalid("spec.safety.exemptions", "must be a list");
            } else {
                for (int i = 0; i < list.size(); i++) {
                    String path = "spec.safety.exemptions[" + i + "]";
                    JsonNode e = list.get(i);
                    if (!e.isObject()) {
                        invalid(path, "must be an object with rule, object and reason");
                        continue;
                    }
                    String rule = requiredString(e, "rule", path + ".rule", "name the safety rule to waive, e.g. APS201");
                    String target = requiredString(e, "object", path + ".object", "name the object as Kind/name");
                    String reason = requiredString(e, "reason", path + ".reason", "say why the risk is accepted");
                    if (rule != null && !rule.matches("APS[0-9]{3}")) {
                        invalid(path + ".rule", "must be a safety rule ID like APS201; api/* findings cannot be exempted");
                    }
                    exemptions.add(new Exemption(rule, target, reason));
                }
            }
        }
        return new SafetySettings(SafetySettings.Enforcement.valueOf(enforcement.toUpperCase(Locale.ROOT)), exemptions,
                SafetySettings.TypeChecking.valueOf(typeChecking.toUpperCase(Locale.ROOT)));
    }

    /** Reads one member from its object, or returns null after reporting why it cannot be read. */
    @FunctionalInterface
    private interface MemberReader<T> {
        T read(JsonNode member, String path, String name);
    }

    /**
     * The members of the list {@code parent.field}: each must be an object with a name unique in the list; the
     * rest of each member is up to {@code reader}.
     */
    private <T> List<T> readMembers(JsonNode parent, String parentPath, String field, String shape, MemberReader<T> reader) {
        List<T> members = new ArrayList<>();
        Set<String> names = new HashSet<>();
        String listPath = parentPath.isEmpty() ? field : parentPath + "." + field;
        ArrayNode list = readList(parent, field, listPath);
        for (int i = 0; list != null && i < list.size(); i++) {
            String path = listPath + "[" + i + "]";
            JsonNode m = list.get(i);
            if (!m.isObject()) {
                invalid(path, "must be an object with " + shape);
                continue;
            }
            T member = reader.read(m, path, memberName(m, path, names));
            if (member != null) {
                members.add(member);
            }
        }
        return members;
    }

    private List<PolicyMember> readPolicies(JsonNode spec, String field) {
        return readMembers(spec, "spec", field, "name, policy and optionally bindings", (m, path, name) -> {
            JsonNode policy = m.get("policy");
            if (policy == null || policy.isNull()) {
                required(path + ".policy", "give the policy's spec");
                return null;
            }
            if (!policy.isObject()) {
                invalid(path + ".policy", "must be an object (the policy's spec)");
                return null;
            }
            // absent (a default binding is generated) differs from [] (none)
            Optional<List<BindingMember>> bindings = readList(m, "bindings", path + ".bindings") == null
                    ? Optional.empty()
                    : Optional.of(readMembers(m, path, "bindings", "name and spec", this::readBinding));
            List<String> podControllers = field.equals("validatingPolicies") ? podControllers(m, path) : List.of();
            if (!podControllers.isEmpty()) {
                PodControllers.ineligibility(policy).ifPresent(why -> findings.add(Finding.warning("APS406", object,
                        path + ".autogen", "autogen.podControllers is set but no controller policy is rendered: " + why
                        + "; autogen needs a policy that matches v1 pods alone (one resourceRule, no objectSelector, "
                        + "excludeResourceRules or resourceNames): narrow the matchConstraints to pods or remove autogen")));
            }
            return new PolicyMember(name, path, stringMap(m, "labels", path), stringMap(m, "annotations", path),
                    (ObjectNode) policy, bindings, podControllers);
        });
    }

    /** {@code autogen.podControllers}: each a known controller, once. */
    private List<String> podControllers(JsonNode member, String path) {
        JsonNode autogen = member.get("autogen");
        if (autogen == null || autogen.isNull()) {
            return List.of();
        }
        if (!autogen.isObject()) {
            invalid(path + ".autogen", "must be an object with podControllers");
            return List.of();
        }
        List<String> allowed = Arrays.stream(PodController.values()).map(Enum::name).toList();
        List<String> controllers = new ArrayList<>();
        List<String> given = readStrings(autogen, "podControllers", path + ".autogen.podControllers", List.of());
        for (int i = 0; i < given.size(); i++) {
            String at = path + ".autogen.podControllers[" + i + "]";
            if (!allowed.contains(given.get(i))) {
                notSupported(at, given.get(i), allowed);
            } else if (controllers.contains(given.get(i))) {
                duplicate(at, given.get(i));
            } else {
                controllers.add(given.get(i));
            }
        }
        return controllers;
    }

    private BindingMember readBinding(JsonNode b, String path, String name) {
        JsonNode spec = b.get("spec");
        if (spec != null && !spec.isNull() && !spec.isObject()) {
            invalid(path + ".spec", "must be an object (the binding's spec)");
            return null;
        }
        return new BindingMember(name, path, stringMap(b, "labels", path), stringMap(b, "annotations", path),
                spec == null || spec.isNull() ? null : (ObjectNode) spec);
    }

    private List<WebhookMember> readWebhooks(JsonNode spec, String field) {
        return readMembers(spec, "spec", field, "name and webhooks", (m, path, name) -> {
            JsonNode webhooks = m.get("webhooks");
            if (webhooks == null || webhooks.isNull()) {
                required(path + ".webhooks", "list the configuration's webhooks");
                return null;
            }
            if (!webhooks.isArray()) {
                invalid(path + ".webhooks", "must be a list of webhooks");
                return null;
            }
            return new WebhookMember(name, path, stringMap(m, "labels", path), stringMap(m, "annotations", path),
                    (ArrayNode) webhooks);
        });
    }

    private String memberName(JsonNode member, String path, Set<String> seen) {
        String name = requiredString(member, "name", path + ".name", "give the generated object's metadata.name");
        if (name != null && !seen.add(name)) {
            duplicate(path + ".name", name);
        }
        return name == null ? "" : name;
    }

    private Map<String, String> stringMap(JsonNode parent, String field, String parentPath) {
        JsonNode node = parent.get(field);
        Map<String, String> map = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return map;
        }
        if (!node.isObject()) {
            invalid(parentPath + "." + field, "must be a map of strings");
            return map;
        }
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isTextual()) {
                map.put(e.getKey(), e.getValue().asText());
            } else {
                invalid(parentPath + "." + field + "." + e.getKey(), "must be a string");
            }
        });
        return map;
    }

    private ArrayNode readList(JsonNode parent, String field, String path) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            invalid(path, "must be a list");
            return null;
        }
        return (ArrayNode) node;
    }

    private List<String> readStrings(JsonNode parent, String field, String path, List<String> absent) {
        ArrayNode list = readList(parent, field, path);
        if (list == null) {
            return absent;
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).isTextual()) {
                values.add(list.get(i).asText());
            } else {
                invalid(path + "[" + i + "]", "must be a string");
            }
        }
        return values;
    }

    private String readEnum(JsonNode parent, String field, String path, List<String> allowed, String absent) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return absent;
        }
        if (!node.isTextual() || !allowed.contains(node.asText())) {
            notSupported(path, node.asText(), allowed);
            return absent;
        }
        return node.asText();
    }

    private boolean readBoolean(JsonNode parent, String field, boolean absent) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return absent;
        }
        if (!node.isBoolean()) {
            invalid("spec." + field, "must be true or false");
            return absent;
        }
        return node.asBoolean();
    }

    private String requiredString(JsonNode parent, String field, String path, String hint) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull() || (node.isTextual() && node.asText().isEmpty())) {
            required(path, hint);
            return null;
        }
        if (!node.isTextual()) {
            invalid(path, "must be a string");
            return null;
        }
        return node.asText();
    }

    private void required(String path, String hint) {
        findings.add(Finding.error("api/Required", object, path, "Required value: " + hint));
    }

    private void invalid(String path, String what) {
        findings.add(Finding.error("api/Invalid", object, path, "Invalid value: " + what));
    }

    private void unknown(UnknownFields.UnknownField field) {
        String hint = field.suggestion().map(s -> "did you mean \"" + s + "\"? ")
                .orElse(field.known().isEmpty() ? "" : "known fields here: " + String.join(", ", field.known()) + "; ");
        findings.add(Finding.error("api/Invalid", object, field.path(), "Invalid value: \"" + field.name()
                + "\": unknown field \"" + field.path() + "\"; " + hint
                + "AdmissionPolicySet has no such field here (names are case-sensitive): strict field validation "
                + "(kubectl apply's default) rejects the set, and without it the API server drops the field silently; "
                + "correct its spelling or remove it"));
    }

    private void duplicate(String path, String value) {
        findings.add(Finding.error("api/Duplicate", object, path,
                "Duplicate value: \"" + value + "\"; each name may appear once, rename one of them"));
    }

    private void notSupported(String path, String value, List<String> allowed) {
        findings.add(Finding.error("api/NotSupported", object, path,
                "Unsupported value: \"" + value + "\": supported values: \"" + String.join("\", \"", allowed) + "\""));
    }
}
