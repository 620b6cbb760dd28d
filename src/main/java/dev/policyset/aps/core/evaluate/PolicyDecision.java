package dev.policyset.aps.core.evaluate;

/**
 * One validation's verdict ({@code validating/interface.go: PolicyDecision}).
 *
 * @param deny       the action: true for {@code ActionDeny} (a false validation, or an error under failurePolicy Fail)
 * @param error      true when the evaluation failed ({@code EvalError})
 * @param index      the validation's index ({@code expressionIndex} of the audit annotation); -1 for whole-policy errors
 */
record PolicyDecision(boolean deny, boolean error, String message, String reason, int index) {
}
