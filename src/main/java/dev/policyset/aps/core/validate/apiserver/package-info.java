/**
 * The kube-apiserver's create-time checks of the six admission-registration kinds, mirrored so a bad object
 * is caught before anything touches a cluster ({@code api/<ErrorType>} findings, DESIGN §4).
 *
 * <p>Pipeline, as the API server runs it: {@link dev.policyset.aps.core.validate.apiserver.Decoding} (JSON
 * types, unknown fields), {@link dev.policyset.aps.core.validate.apiserver.Defaults} (versioned defaults),
 * create preparation and {@code ObjectMeta}, then one small class per building block of upstream
 * {@code pkg/apis/admissionregistration/validation/validation.go}. Invariants: every error is reported (no
 * first-error-wins); paths and error types are exactly the API server's (webhook configurations have no
 * {@code spec.} prefix); order-dependent upstream quirks are kept; every CEL expression goes through the
 * {@link dev.policyset.aps.core.cel.CelChecker} in one scope per object, in document order.
 *
 * <p>Pure: imports nothing from the operator or the CLI, reads no clock or environment.
 */
package dev.policyset.aps.core.validate.apiserver;
