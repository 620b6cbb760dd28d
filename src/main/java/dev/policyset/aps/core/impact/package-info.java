/**
 * Impact preview (APS8xx): what the validating policies of a configuration would do to objects that already
 * exist, per policy and binding, before a binding is switched to {@code Deny}; and what its mutating policies would
 * change, or make the server refuse. Each object is evaluated through
 * {@link dev.policyset.aps.core.evaluate.ExistingObjectReview} and
 * {@link dev.policyset.aps.core.evaluate.ExistingObjectMutation}, the same dispatchers and interception model that
 * {@code aps test} uses; this package only chooses the inputs, counts, samples and reports, and models the one thing
 * after admission that decides a mutated write's fate ({@code ImmutableFields}, the kinds' update validation).
 *
 * <p>Invariants: pure (the CLI reads files, the operator reads informer caches; both hand over JSON trees); bounded
 * output (a fixed number of samples per binding, counts for the rest); deterministic order (configuration order
 * of policies and bindings, input order of objects).
 */
package dev.policyset.aps.core.impact;
