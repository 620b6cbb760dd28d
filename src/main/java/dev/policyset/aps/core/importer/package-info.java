/**
 * {@code aps import}: policies of other engines (Gatekeeper ConstraintTemplates with a K8sNativeValidation source,
 * Kyverno ValidatingPolicies, MutatingPolicies and CEL ClusterPolicies) into AdmissionPolicySets, and their engines' own tests
 * (gator Suites, kyverno-test.yaml) into PolicyTests. Pure: documents in (read by the CLI, with a {@code Loader} for
 * what a suite names), documents and findings out. What has no native form is refused per policy or rule with an
 * {@code import/<Reason>} finding (docs/import.md); nothing is guessed.
 */
package dev.policyset.aps.core.importer;
