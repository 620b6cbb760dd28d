/**
 * The Kubernetes CEL environment on cel-java: what kube-apiserver compiles admission expressions in
 * ({@link dev.policyset.aps.core.validate.cel.KubernetesCelEnvironment}), the create-time check of an
 * expression per kind ({@link dev.policyset.aps.core.validate.cel.KubernetesCelChecker}) and evaluation
 * with admission values ({@link dev.policyset.aps.core.validate.cel.CelEvaluator}).
 *
 * <p>Invariants: pure Java (no Quarkus, no Kubernetes client, no clock); error texts are the API server's
 * (cel-go's wording, translated in {@code CelErrors}); expressions compile at the CEL compatibility
 * version (server minor − 1), never at the newest one. The Kubernetes function libraries live in
 * {@code .lib}; this package owns the cel-go extensions, the variables and their types, and the
 * mutation-only types.
 */
package dev.policyset.aps.core.validate.cel;
