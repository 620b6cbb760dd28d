package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.ExpressionKind;

import java.util.List;

/**
 * {@code validation.go: validateMutatingAdmissionPolicySpec, validateMutation, validateApplyConfiguration,
 * validateJSONPatch}.
 */
final class MutatingPolicyValidation {
    static final List<String> PATCH_TYPES = List.of("ApplyConfiguration", "JSONPatch");
    static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");

    private MutatingPolicyValidation() {}

    static void validate(ObjectNode spec, CelExpressions cel, Errors errors) {
        FieldPath specPath = FieldPath.root("spec");
        PolicyCommon.validateFailurePolicy(Json.string(spec, "failurePolicy"), specPath.child("failurePolicy"), errors);
        PolicyCommon.validateMatching(spec, specPath, cel, errors);
        ObjectNode constraints = Json.object(spec, "matchConstraints");
        if (constraints != null) {
            MatchResourcesValidation.validateMutatingOperations(constraints, specPath.child("matchConstraints"), errors);
        }
        PolicyCommon.validateVariables(Json.objects(spec, "variables"), specPath.child("variables"), cel, errors);
        List<ObjectNode> mutations = Json.objects(spec, "mutations");
        if (mutations.isEmpty()) {
            errors.required(specPath.child("mutations"), "mutations must contain at least one item");
        }
        for (int i = 0; i < mutations.size(); i++) {
            mutation(mutations.get(i), specPath.child("mutations").index(i), cel, errors);
        }
        String reinvocation = Json.text(spec, "reinvocationPolicy");
        if (reinvocation.isEmpty()) {
            errors.required(specPath.child("reinvocationPolicy"), "set Never, or IfNeeded when the policy must see "
                    + "changes made by later mutations (it has no default)");
        } else if (!REINVOCATION_POLICIES.contains(reinvocation)) {
            errors.notSupported(specPath.child("reinvocationPolicy"), reinvocation, REINVOCATION_POLICIES);
        }
    }

    /** An empty or unknown patchType stops the checks of this mutation, as upstream does. */
    private static void mutation(ObjectNode mutation, FieldPath path, CelExpressions cel, Errors errors) {
        String patchType = Json.text(mutation, "patchType");
        ObjectNode apply = Json.object(mutation, "applyConfiguration");
        ObjectNode jsonPatch = Json.object(mutation, "jsonPatch");
        switch (patchType) {
            case "" -> errors.required(path.child("patchType"), "set ApplyConfiguration or JSONPatch");
            case "JSONPatch" -> {
                if (jsonPatch == null) {
                    errors.required(path.child("jsonPatch"), "must be specified when patchType is JSONPatch");
                } else {
                    expression(jsonPatch, path.child("jsonPatch", "expression"), ExpressionKind.MUTATION_JSON_PATCH,
                            cel, errors);
                }
                if (apply != null) {
                    errors.invalid(path.child("applyConfiguration"), "{applyConfiguration}",
                            "must not be specified when patchType is JSONPatch; remove it");
                }
            }
            case "ApplyConfiguration" -> {
                if (apply == null) {
                    errors.required(path.child("applyConfiguration"),
                            "must be specified when patchType is ApplyConfiguration");
                } else {
                    expression(apply, path.child("applyConfiguration", "expression"),
                            ExpressionKind.MUTATION_APPLY_CONFIGURATION, cel, errors);
                }
                if (jsonPatch != null) {
                    errors.invalid(path.child("jsonPatch"), "{jsonPatch}",
                            "must not be specified when patchType is ApplyConfiguration; remove it");
                }
            }
            default -> errors.notSupported(path.child("patchType"), patchType, PATCH_TYPES);
        }
    }

    private static void expression(ObjectNode holder, FieldPath path, ExpressionKind kind, CelExpressions cel,
                                   Errors errors) {
        String expression = Json.text(holder, "expression").strip();
        if (expression.isEmpty()) {
            errors.required(path, kind == ExpressionKind.MUTATION_JSON_PATCH
                    ? "write a CEL expression returning a list of JSONPatch{op, path, value}"
                    : "write a CEL expression returning an Object{...} apply configuration");
        } else {
            cel.check(kind, expression, path);
        }
    }
}
