package dev.policyset.aps.core.cel;

/**
 * The places a CEL expression can appear in an admission object. Each has its own variables and its own
 * required result type (reference §6.2): a validation must be bool, a messageExpression string, ...
 */
public enum ExpressionKind {
    /** VAP {@code spec.validations[i].expression}: bool. */
    VALIDATION,
    /** VAP {@code spec.validations[i].messageExpression}: string. */
    MESSAGE_EXPRESSION,
    /** VAP {@code spec.auditAnnotations[i].valueExpression}: string or null. */
    AUDIT_ANNOTATION_VALUE,
    /** VAP/MAP {@code spec.matchConditions[i].expression}: bool. */
    MATCH_CONDITION,
    /** VAP/MAP {@code spec.variables[i].expression}: any type; declares {@code variables.<name>}. */
    VARIABLE,
    /** MAP {@code spec.mutations[i].applyConfiguration.expression}: an {@code Object{...}}. */
    MUTATION_APPLY_CONFIGURATION,
    /** MAP {@code spec.mutations[i].jsonPatch.expression}: a list of {@code JSONPatch{...}}. */
    MUTATION_JSON_PATCH,
    /** Webhook {@code webhooks[i].matchConditions[j].expression}: bool; no params, no variables. */
    WEBHOOK_MATCH_CONDITION
}
