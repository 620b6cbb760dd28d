/**
 * One model of what an admission configuration intercepts: for a webhook (validating or mutating, v1) and for a
 * policy binding together with its policy's matchConstraints, which requests the API server sends to it.
 *
 * <p>Build an {@link dev.policyset.aps.core.intercept.Interceptor} ({@code ofWebhook}, {@code ofBinding}) and ask it
 * about an {@link dev.policyset.aps.core.intercept.AdmissionRequest}: a concrete request (one operation, the
 * namespace's and the object's labels known exactly) or a symbolic one (several operations, labels known only in
 * part, name unknown). The answer is a {@link dev.policyset.aps.core.intercept.Verdict}: matches, does not match,
 * or undecided, with the reasons (which rule, which selector, which matchCondition). The safety rules, {@code aps
 * test}'s binding selection and {@code aps chain} all ask this one model, so they cannot disagree.
 *
 * <p>Matching mirrors the API server: {@code k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go}
 * (rules), {@code .../predicates/namespace/matcher.go} (namespaceSelector), {@code .../predicates/object/matcher.go}
 * (objectSelector), {@code .../webhook/generic/webhook.go} ShouldCallHook (webhooks, matchPolicy Equivalent) and
 * {@code .../plugin/policy/matching/matching.go} (policies and bindings: excludeResourceRules, resourceNames).
 *
 * <p>Pure: no cluster, no CEL evaluation (a matchCondition is decided only in the few forms
 * {@link dev.policyset.aps.core.intercept.MatchCondition} recognises; otherwise it is reported as undecided and
 * left to a caller that can evaluate CEL). Reads rendered JSON leniently and never throws on bad input (the
 * API-server rules report it). Must not import the validator or any shell.
 */
package dev.policyset.aps.core.intercept;
