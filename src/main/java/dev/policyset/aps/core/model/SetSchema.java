package dev.policyset.aps.core.model;

import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.ModelDefinition;
import dev.policyset.aps.core.schema.Schema;

/**
 * The fields an AdmissionPolicySet document may have, at every level: what the CRD's schema declares, so that
 * a field the API server would refuse under strict field validation (and prune without it) is reported before
 * the set reaches a cluster. The set's own levels are written here; the verbatim native specs inside
 * ({@code policy}, {@code bindings[].spec}, {@code webhooks[]}) are the schemas of the same fabric8 model classes
 * the CRD is generated from ({@code api.v1alpha1}), so they agree with it field for field. {@code SetSchemaTest}
 * compares the whole tree with {@code crds/}, which catches a field added to the API types and not here. The model
 * classes are named, not referenced: reading a set loads none of them ({@code BuiltinSchemas}).
 *
 * <p>{@code status} is written by the operator and dropped by the API server on create; it is not checked.
 */
final class SetSchema {
    private static final Schema ANY = Schema.ANY;
    private static final Schema STRING = Schema.string();
    private static final Schema STRINGS = array(STRING);
    private static final Schema STRING_MAP = Schema.builder().type("object").additionalProperties(STRING).build();
    private static final Schema BOOLEAN = Schema.builder().type("boolean").build();
    private static final Schema INTEGER = Schema.builder().type("integer").build();

    /** The whole document: apiVersion, kind, metadata, spec and status. */
    static final Schema DOCUMENT = document();

    private static final String V1 = ModelDefinition.MODEL_PACKAGE + "admissionregistration.v1.";
    private static final String V1ALPHA1 = ModelDefinition.MODEL_PACKAGE + "admissionregistration.v1alpha1.";

    private SetSchema() {}

    private static Schema document() {
        BuiltinSchemas model = BuiltinSchemas.instance();
        Schema defaults = object()
                .property("failurePolicy", STRING)
                .property("validationActions", STRINGS)
                .property("webhookTimeoutSeconds", INTEGER)
                .property("excludedNamespaces", STRINGS)
                .build();
        Schema exemption = object()
                .property("rule", STRING)
                .property("object", STRING)
                .property("reason", STRING)
                .build();
        Schema safety = object()
                .property("enforcement", STRING)
                .property("typeChecking", STRING)
                .property("exemptions", array(exemption))
                .property("requireNoViolationsBeforeDeny", BOOLEAN)
                .build();
        Schema validatingBinding = member().property("spec", model.schemaOf(V1 + "ValidatingAdmissionPolicyBindingSpec")).build();
        Schema mutatingBinding = member().property("spec", model.schemaOf(V1ALPHA1 + "MutatingAdmissionPolicyBindingSpec")).build();
        Schema validatingPolicy = member()
                .property("policy", model.schemaOf(V1 + "ValidatingAdmissionPolicySpec"))
                .property("bindings", array(validatingBinding))
                .property("autogen", object().property("podControllers", STRINGS).build())
                .build();
        Schema mutatingPolicy = member()
                .property("policy", model.schemaOf(V1ALPHA1 + "MutatingAdmissionPolicySpec"))
                .property("bindings", array(mutatingBinding))
                .build();
        Schema validatingWebhooks = member().property("webhooks", array(model.schemaOf(V1 + "ValidatingWebhook"))).build();
        Schema mutatingWebhooks = member().property("webhooks", array(model.schemaOf(V1 + "MutatingWebhook"))).build();
        Schema spec = object()
                .property("defaults", defaults)
                .property("safety", safety)
                .property("validatingPolicies", array(validatingPolicy))
                .property("mutatingPolicies", array(mutatingPolicy))
                .property("validatingWebhooks", array(validatingWebhooks))
                .property("mutatingWebhooks", array(mutatingWebhooks))
                .property("prune", BOOLEAN)
                .property("deletionPolicy", STRING)
                .property("paused", BOOLEAN)
                .build();
        return object()
                .property("apiVersion", STRING)
                .property("kind", STRING)
                .property("metadata", model.objectMeta())
                .property("spec", spec)
                .property("status", ANY)
                .build();
    }

    /** What every member and binding has: the generated object's name, labels and annotations. */
    private static Schema.Builder member() {
        return object().property("name", STRING).property("labels", STRING_MAP).property("annotations", STRING_MAP);
    }

    private static Schema.Builder object() {
        return Schema.builder().type("object");
    }

    private static Schema array(Schema items) {
        return Schema.builder().type("array").items(items).build();
    }
}
