/**
 * The AdmissionPolicySet custom resource, {@code admission.policyset.dev/v1alpha1}. Field names are a contract
 * (DESIGN §3); the CRD in {@code crds/} is generated from these classes. Data only: no behaviour, no cluster.
 */
package dev.policyset.aps.api.v1alpha1;
