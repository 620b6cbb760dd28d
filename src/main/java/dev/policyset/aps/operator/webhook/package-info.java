/**
 * The operator's validating admission webhook for AdmissionPolicySets: the AdmissionReview wire contract
 * ({@link dev.policyset.aps.operator.webhook.AdmissionReviewHandler}, pure: bytes in, status and JSON out), the
 * serving certificate from mounted PEM files or from the self-managed Secret ({@link
 * dev.policyset.aps.operator.webhook.CertificateSource}), and the HTTPS server that reloads it. The self-managed
 * certificates are made here with the JDK alone ({@link dev.policyset.aps.operator.webhook.CertificateIssuer}, a small
 * DER writer) and planned by {@link dev.policyset.aps.operator.webhook.CertificateRotation}, which is pure (time and
 * Secret contents in, contents to write out); talking to the API server is the operator's
 * {@code SelfManagedCertificates}. The decision itself is core's
 * {@link dev.policyset.aps.core.plan.SetAdmission} (the planner's judgement), so the webhook refuses exactly what a
 * reconcile would block; nothing here builds a finding.
 *
 * <p>Invariants: a malformed request is a 400 with a {@code v1 Status}, never a 500 or a stack trace; a set that
 * cannot be judged is admitted with a warning (failurePolicy Ignore semantics: the reconciler is the last word).
 */
package dev.policyset.aps.operator.webhook;
