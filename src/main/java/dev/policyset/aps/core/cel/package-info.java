/**
 * A foundation room: the Kubernetes CEL environment on cel-java, for every part of the core that compiles,
 * checks, plans, runs or prices an admission expression. Validation asks it to compile and check; evaluation
 * ({@code aps test}, impact) asks it to run. It is what kube-apiserver compiles admission expressions in
 * ({@link dev.policyset.aps.core.cel.KubernetesCelEnvironment}), the create-time check of an
 * expression per kind ({@link dev.policyset.aps.core.cel.KubernetesCelChecker}) and evaluation
 * with admission values ({@link dev.policyset.aps.core.cel.CelEvaluator}).
 *
 * <p>Invariants: pure Java (no Quarkus, no Kubernetes client, no clock); error texts are the API server's
 * (cel-go's wording, translated in {@code CelErrors}); expressions compile at the CEL compatibility
 * version (server minor − 1), never at the newest one. The Kubernetes function libraries live in
 * {@code .lib}; this package owns the cel-go extensions, the variables and their types, and the
 * mutation-only types; {@code .cost} estimates and counts cost as the API server does.
 *
 * <p>Floor: it stands on {@code core.model} (Kubernetes versions), {@code core.util} and cel-java only. Nothing
 * here imports {@code core.validate}, {@code core.evaluate} or any room above them ({@code LayeringTest}).
 */
package dev.policyset.aps.core.cel;
