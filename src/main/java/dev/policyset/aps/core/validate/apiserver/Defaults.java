package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;

/**
 * The versioned defaults the API server applies after decoding and before validation (reference §2;
 * {@code pkg/apis/admissionregistration/v1/defaults.go}, {@code v1beta1}, {@code v1alpha1}). Without them a
 * validator would call defaulted fields missing. Works on a copy; a default fills a field only when it is
 * absent or {@code null} (an explicit {@code 0} or {@code ""} stays and is judged as written).
 */
final class Defaults {
    private Defaults() {}

    /** A defaulted deep copy of {@code manifest}. */
    static ObjectNode apply(AdmissionKind kind, String apiVersion, ObjectNode manifest) {
        ObjectNode object = manifest.deepCopy();
        boolean alpha = apiVersion.endsWith("/v1alpha1");
        if (kind.hasSpec() && Json.object(object, "spec") == null) {
            object.putObject("spec"); // a value struct in Go: defaulted even when the document has none
        }
        switch (kind) {
            case VALIDATING_ADMISSION_POLICY, MUTATING_ADMISSION_POLICY -> {
                ObjectNode spec = Json.object(object, "spec");
                if (spec != null) {
                    setIfAbsent(spec, "failurePolicy", "Fail");
                    matchResources(Json.object(spec, "matchConstraints"));
                }
            }
            case VALIDATING_ADMISSION_POLICY_BINDING, MUTATING_ADMISSION_POLICY_BINDING -> {
                ObjectNode spec = Json.object(object, "spec");
                if (spec != null) {
                    matchResources(Json.object(spec, "matchResources"));
                    ObjectNode paramRef = Json.object(spec, "paramRef");
                    if (alpha && paramRef != null) {
                        // v1alpha1 SetDefaults_ParamRef; v1beta1 and v1 leave it unset (Required).
                        setIfAbsent(paramRef, "parameterNotFoundAction", "Deny");
                    }
                }
            }
            case VALIDATING_WEBHOOK_CONFIGURATION, MUTATING_WEBHOOK_CONFIGURATION -> {
                for (ObjectNode hook : Json.objects(object, "webhooks")) {
                    webhook(hook, kind == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION);
                }
            }
        }
        return object;
    }

    /** {@code SetDefaults_MatchResources}, only when the struct is there. */
    private static void matchResources(ObjectNode match) {
        if (match == null) {
            return;
        }
        setIfAbsent(match, "matchPolicy", "Equivalent");
        emptyObjectIfAbsent(match, "namespaceSelector");
        emptyObjectIfAbsent(match, "objectSelector");
        for (ObjectNode rule : Json.objects(match, "resourceRules")) {
            setIfAbsent(rule, "scope", "*");
        }
        for (ObjectNode rule : Json.objects(match, "excludeResourceRules")) {
            setIfAbsent(rule, "scope", "*");
        }
    }

    /** {@code SetDefaults_ValidatingWebhook}, {@code SetDefaults_MutatingWebhook}, {@code SetDefaults_ServiceReference}. */
    private static void webhook(ObjectNode hook, boolean mutating) {
        setIfAbsent(hook, "failurePolicy", "Fail");
        setIfAbsent(hook, "matchPolicy", "Equivalent");
        emptyObjectIfAbsent(hook, "namespaceSelector");
        emptyObjectIfAbsent(hook, "objectSelector");
        if (!Json.has(hook, "timeoutSeconds")) {
            hook.put("timeoutSeconds", 10);
        }
        if (mutating) {
            setIfAbsent(hook, "reinvocationPolicy", "Never");
        }
        for (ObjectNode rule : Json.objects(hook, "rules")) {
            setIfAbsent(rule, "scope", "*");
        }
        ObjectNode service = Json.object(Json.object(hook, "clientConfig"), "service");
        if (service != null && !Json.has(service, "port")) {
            service.put("port", 443);
        }
    }

    private static void setIfAbsent(ObjectNode node, String field, String value) {
        if (!Json.has(node, field)) {
            node.put(field, value);
        }
    }

    private static void emptyObjectIfAbsent(ObjectNode node, String field) {
        JsonNode value = Json.field(node, field);
        if (value == null) {
            node.putObject(field);
        }
    }
}
