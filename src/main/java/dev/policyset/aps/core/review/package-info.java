/**
 * {@code aps review}: the pure half of calling someone's admission webhook with a real AdmissionReview. Builds the
 * request the API server would send ({@link dev.policyset.aps.core.review.AdmissionReviews}), decides whether the API
 * server would send it at all ({@link dev.policyset.aps.core.review.Preflight}: matching, AdmissionReview version,
 * dry run against sideEffects), and checks the answer against the wire contract
 * ({@link dev.policyset.aps.core.review.ResponseCheck}, after upstream's {@code VerifyAdmissionResponse} and the
 * webhook dispatchers), applying a returned JSON Patch with {@code core.evaluate.JsonPatches}.
 *
 * <p>Invariants: no HTTP, no clock, no randomness here: the CLI makes the call, measures the time and picks the uid,
 * and hands them in. Each class that mirrors API-server behaviour names the upstream file and function.
 */
package dev.policyset.aps.core.review;
