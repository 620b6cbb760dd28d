/**
 * The AdmissionPolicySet custom resource, {@code admission.policyset.dev/v1alpha1}. Field names are a contract
 * (DESIGN §3); the CRD in {@code crds/} is generated from these classes. Data only: no behaviour, no cluster.
 * One exception, about reading data: {@code spec} and {@code status} decode leniently ({@link
 * dev.policyset.aps.api.v1alpha1.LenientDecoder}), because a stored set these classes cannot read (unknown field,
 * wrong type) must be reported, not stop every watch on sets.
 */
package dev.policyset.aps.api.v1alpha1;
