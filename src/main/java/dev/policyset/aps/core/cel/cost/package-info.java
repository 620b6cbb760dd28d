/**
 * CEL cost, as the API server counts it: the static estimate of an expression's cost range
 * (cel-go {@code checker/cost.go} with the Kubernetes library costs of
 * {@code k8s.io/apiserver/pkg/cel/library/cost.go}) and the runtime cost of one evaluation
 * (cel-go {@code interpreter/runtimecost.go} with the same library's {@code CallCost}).
 *
 * <p>Invariants: pure Java; numbers are cel-go's (uint64 there, saturated at {@link java.lang.Long#MAX_VALUE}
 * here, which is far above every limit that is compared against); a change of a cost here must follow an
 * upstream change, cited.
 */
package dev.policyset.aps.core.cel.cost;
