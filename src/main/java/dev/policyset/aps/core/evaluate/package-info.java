/**
 * Offline admission simulation for {@code aps test}: one write request evaluated against policies,
 * bindings and params the way kube-apiserver's admission plugins do (MutatingAdmissionPolicy, then
 * ValidatingAdmissionPolicy), with fixtures standing in for the cluster (namespaces, params, an
 * authorizer stub).
 *
 * <p>Invariants: pure (no files, clock or environment; the CLI reads files and hands over trees);
 * every CEL expression is evaluated through {@link dev.policyset.aps.core.evaluate.PolicyExpressions},
 * which the cel-eval suite uses too; which policy, binding or webhook a request reaches is decided by
 * the interception model, never by reading match fields here. Each class that mirrors API-server
 * behaviour names the upstream file and function it follows.
 */
package dev.policyset.aps.core.evaluate;
