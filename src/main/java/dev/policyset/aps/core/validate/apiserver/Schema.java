package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.model.AdmissionKind;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Go types the API server decodes the six kinds into ({@code k8s.io/api/admissionregistration/v1},
 * identical in v1beta1/v1alpha1 for the fields used here), reduced to what decoding checks: JSON types and
 * known field names. {@link Decoding} walks a document against it.
 */
sealed interface Schema {
    enum Scalar implements Schema {
        STRING("a string"), INT32("a 32-bit integer"), INT64("an integer"), BOOL("a boolean"),
        BYTES("a base64-encoded string"), ANY("any value");

        private final String description;

        Scalar(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }
    }

    record ListOf(Schema element) implements Schema {}

    record MapOf(Schema value) implements Schema {}

    record Struct(String goType, Map<String, Schema> fields) implements Schema {}

    static Struct struct(String goType, Object... nameAndType) {
        Map<String, Schema> fields = new LinkedHashMap<>();
        for (int i = 0; i < nameAndType.length; i += 2) {
            fields.put((String) nameAndType[i], (Schema) nameAndType[i + 1]);
        }
        return new Struct(goType, fields);
    }

    static ListOf list(Schema element) {
        return new ListOf(element);
    }

    Scalar STRING = Scalar.STRING;
    ListOf STRINGS = list(STRING);
    MapOf STRING_MAP = new MapOf(STRING);

    Struct OWNER_REFERENCE = struct("OwnerReference", "apiVersion", STRING, "kind", STRING, "name", STRING,
            "uid", STRING, "controller", Scalar.BOOL, "blockOwnerDeletion", Scalar.BOOL);
    Struct MANAGED_FIELDS_ENTRY = struct("ManagedFieldsEntry", "manager", STRING, "operation", STRING,
            "apiVersion", STRING, "time", STRING, "fieldsType", STRING, "fieldsV1", Scalar.ANY, "subresource", STRING);
    Struct OBJECT_META = struct("ObjectMeta", "name", STRING, "generateName", STRING, "namespace", STRING,
            "selfLink", STRING, "uid", STRING, "resourceVersion", STRING, "generation", Scalar.INT64,
            "creationTimestamp", STRING, "deletionTimestamp", STRING, "deletionGracePeriodSeconds", Scalar.INT64,
            "labels", STRING_MAP, "annotations", STRING_MAP, "ownerReferences", list(OWNER_REFERENCE),
            "finalizers", STRINGS, "managedFields", list(MANAGED_FIELDS_ENTRY));

    Struct LABEL_SELECTOR = struct("LabelSelector", "matchLabels", STRING_MAP,
            "matchExpressions", list(struct("LabelSelectorRequirement", "key", STRING, "operator", STRING,
                    "values", STRINGS)));
    Struct RULE_WITH_OPERATIONS = struct("RuleWithOperations", "operations", STRINGS, "apiGroups", STRINGS,
            "apiVersions", STRINGS, "resources", STRINGS, "scope", STRING);
    Struct NAMED_RULE_WITH_OPERATIONS = struct("NamedRuleWithOperations", "resourceNames", STRINGS,
            "operations", STRINGS, "apiGroups", STRINGS, "apiVersions", STRINGS, "resources", STRINGS, "scope", STRING);
    Struct MATCH_RESOURCES = struct("MatchResources", "namespaceSelector", LABEL_SELECTOR,
            "objectSelector", LABEL_SELECTOR, "resourceRules", list(NAMED_RULE_WITH_OPERATIONS),
            "excludeResourceRules", list(NAMED_RULE_WITH_OPERATIONS), "matchPolicy", STRING);
    Struct MATCH_CONDITION = struct("MatchCondition", "name", STRING, "expression", STRING);
    Struct VARIABLE = struct("Variable", "name", STRING, "expression", STRING);
    Struct PARAM_KIND = struct("ParamKind", "apiVersion", STRING, "kind", STRING);
    Struct PARAM_REF = struct("ParamRef", "name", STRING, "namespace", STRING, "selector", LABEL_SELECTOR,
            "parameterNotFoundAction", STRING);

    Struct VAP_SPEC = struct("ValidatingAdmissionPolicySpec", "paramKind", PARAM_KIND,
            "matchConstraints", MATCH_RESOURCES,
            "validations", list(struct("Validation", "expression", STRING, "message", STRING, "reason", STRING,
                    "messageExpression", STRING)),
            "failurePolicy", STRING,
            "auditAnnotations", list(struct("AuditAnnotation", "key", STRING, "valueExpression", STRING)),
            "matchConditions", list(MATCH_CONDITION), "variables", list(VARIABLE));
    Struct VAPB_SPEC = struct("ValidatingAdmissionPolicyBindingSpec", "policyName", STRING, "paramRef", PARAM_REF,
            "matchResources", MATCH_RESOURCES, "validationActions", STRINGS);
    Struct EXPRESSION = struct("Expression", "expression", STRING);
    Struct MAP_SPEC = struct("MutatingAdmissionPolicySpec", "paramKind", PARAM_KIND,
            "matchConstraints", MATCH_RESOURCES, "variables", list(VARIABLE),
            "mutations", list(struct("Mutation", "patchType", STRING, "applyConfiguration", EXPRESSION,
                    "jsonPatch", EXPRESSION)),
            "failurePolicy", STRING, "matchConditions", list(MATCH_CONDITION), "reinvocationPolicy", STRING);
    Struct MAPB_SPEC = struct("MutatingAdmissionPolicyBindingSpec", "policyName", STRING, "paramRef", PARAM_REF,
            "matchResources", MATCH_RESOURCES);

    Struct CLIENT_CONFIG = struct("WebhookClientConfig", "url", STRING,
            "service", struct("ServiceReference", "namespace", STRING, "name", STRING, "path", STRING,
                    "port", Scalar.INT32),
            "caBundle", Scalar.BYTES);

    static Struct webhook(boolean mutating) {
        Struct hook = struct(mutating ? "MutatingWebhook" : "ValidatingWebhook", "name", STRING,
                "clientConfig", CLIENT_CONFIG, "rules", list(RULE_WITH_OPERATIONS), "failurePolicy", STRING,
                "matchPolicy", STRING, "namespaceSelector", LABEL_SELECTOR, "objectSelector", LABEL_SELECTOR,
                "sideEffects", STRING, "timeoutSeconds", Scalar.INT32, "admissionReviewVersions", STRINGS,
                "matchConditions", list(MATCH_CONDITION));
        if (mutating) {
            hook.fields().put("reinvocationPolicy", STRING);
        }
        return hook;
    }

    /** The whole object of a kind; {@code status} is cleared on create, so its content is not checked. */
    static Struct of(AdmissionKind kind) {
        return switch (kind) {
            case VALIDATING_ADMISSION_POLICY -> top(kind, "spec", VAP_SPEC, "status", Scalar.ANY);
            case VALIDATING_ADMISSION_POLICY_BINDING -> top(kind, "spec", VAPB_SPEC);
            case MUTATING_ADMISSION_POLICY -> top(kind, "spec", MAP_SPEC, "status", Scalar.ANY);
            case MUTATING_ADMISSION_POLICY_BINDING -> top(kind, "spec", MAPB_SPEC);
            case VALIDATING_WEBHOOK_CONFIGURATION -> top(kind, "webhooks", list(webhook(false)));
            case MUTATING_WEBHOOK_CONFIGURATION -> top(kind, "webhooks", list(webhook(true)));
        };
    }

    private static Struct top(AdmissionKind kind, Object... content) {
        Struct struct = struct(kind.kind(), "apiVersion", STRING, "kind", STRING, "metadata", OBJECT_META);
        for (int i = 0; i < content.length; i += 2) {
            struct.fields().put((String) content[i], (Schema) content[i + 1]);
        }
        return struct;
    }
}
