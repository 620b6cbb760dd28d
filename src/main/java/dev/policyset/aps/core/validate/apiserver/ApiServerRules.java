package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The API server's create-time rules for the six admission kinds (reference document
 * {@code apiserver-admission-rules.md}), in the API server's order: decode (types, unknown fields), apply the
 * versioned defaults, prepare the create (generated name, namespace cleared), then {@code Validate<Kind>}.
 * Every error is reported, not the first one; see {@code docs/apiserver-rules.md}.
 */
public final class ApiServerRules {
    private ApiServerRules() {}

    /** Every {@code api/*} finding the API server would return for creating this object. */
    public static List<Finding> check(RenderedObject object, KubeVersion version, CelChecker cel) {
        AdmissionKind kind = object.kind();
        Errors errors = new Errors(object.id());
        ObjectNode manifest = object.manifest();

        String apiVersion = manifest.path("apiVersion").isTextual() ? manifest.get("apiVersion").asText() : object.apiVersion();
        int typeErrors = Decoding.check(manifest, Schema.of(kind), errors);
        if (typeErrors > 0) {
            return errors.findings(); // the API server stops at a decoding error
        }
        List<String> served = ServedVersions.of(kind, version);
        if (served.isEmpty()) {
            // Only the mutating policies are missing from a supported server (below 1.32): an empty
            // "supported values:" would not say what to do.
            errors.notServed(FieldPath.root("apiVersion"), apiVersion, MutatingPolicyVersions.noneServableMessage(version));
        } else if (!served.contains(apiVersion)) {
            errors.notSupported(FieldPath.root("apiVersion"), apiVersion, served);
        }

        ObjectNode defaulted = Defaults.apply(kind, apiVersion == null ? "" : apiVersion, manifest);
        ObjectNode metadata = objectOrEmpty(defaulted.get("metadata"));
        ObjectMetaValidation.validate(metadata, version, errors);
        String name = ObjectMetaValidation.effectiveName(metadata);

        List<Finding> findings = new ArrayList<>();
        CelExpressions expressions = null;
        switch (kind) {
            case VALIDATING_ADMISSION_POLICY -> {
                ObjectNode spec = objectOrEmpty(defaulted.get("spec"));
                expressions = new CelExpressions(cel, CelChecker.PolicyType.VALIDATING,
                        Json.object(spec, "paramKind") != null, version, errors);
                ValidatingPolicyValidation.validate(name, spec, expressions, errors);
            }
            case MUTATING_ADMISSION_POLICY -> {
                ObjectNode spec = objectOrEmpty(defaulted.get("spec"));
                expressions = new CelExpressions(cel, CelChecker.PolicyType.MUTATING,
                        Json.object(spec, "paramKind") != null, version, errors);
                MutatingPolicyValidation.validate(spec, expressions, errors);
            }
            case VALIDATING_ADMISSION_POLICY_BINDING ->
                    BindingValidation.validate(objectOrEmpty(defaulted.get("spec")), false, errors);
            case MUTATING_ADMISSION_POLICY_BINDING ->
                    BindingValidation.validate(objectOrEmpty(defaulted.get("spec")), true, errors);
            case VALIDATING_WEBHOOK_CONFIGURATION, MUTATING_WEBHOOK_CONFIGURATION -> {
                expressions = new CelExpressions(cel, CelChecker.PolicyType.WEBHOOK, false, version, errors);
                WebhookValidation.validate(defaulted, kind == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION,
                        expressions, errors);
            }
        }
        findings.addAll(errors.findings());
        if (expressions != null) {
            findings.addAll(expressions.unchecked());
        }
        return findings;
    }

    private static ObjectNode objectOrEmpty(JsonNode node) {
        return node instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    }
}
