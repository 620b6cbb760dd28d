package dev.policyset.aps.core.review;

import dev.policyset.aps.core.intercept.Verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the API server would send this request to the webhook at all, and in which AdmissionReview version,
 * decided before anything goes on the wire.
 *
 * <ul>
 *   <li>Matching: the interception model's verdict on the webhook's rules, selectors and matchConditions
 *       ({@code generic/webhook.go: ShouldCallHook}). A request it does not match is not sent (the API server never
 *       would), unless the user asks for it anyway.</li>
 *   <li>Version: the first of {@code admissionReviewVersions} the API server knows, in the webhook's order
 *       ({@code request/admissionreview.go: CreateAdmissionObjects}); none known is a call failure.</li>
 *   <li>Dry run: {@code mutating/dispatcher.go: callAttrMutatingHook} and {@code validating/dispatcher.go:
 *       callHook} never call a webhook for a dry-run request unless {@code sideEffects} is None or NoneOnDryRun:
 *       a missing sideEffects is a call failure (failurePolicy applies), Some or Unknown refuses the whole request
 *       with 400 {@code admission webhook "NAME" does not support dry run} whatever the failurePolicy.</li>
 * </ul>
 */
public final class Preflight {
    /**
     * @param send          false: nothing goes on the wire ({@code findings} say why and what the API server does)
     * @param reviewVersion {@value AdmissionReviews#V1} or {@value AdmissionReviews#V1BETA1}
     */
    public record Plan(boolean send, String reviewVersion, List<ReviewFinding> findings) {
        public Plan {
            findings = List.copyOf(findings);
        }
    }

    private Preflight() {}

    /**
     * @param target        the webhook from {@code --config}, or null for a bare {@code --url}
     * @param verdict       the interception model's answer for {@code target}, or null without one
     * @param sendUnmatched send even when the webhook's rules do not match the request
     * @param scheme        the scheme of the URL that will be called
     */
    public static Plan check(ReviewRequest request, WebhookTarget target, Verdict verdict, boolean sendUnmatched,
                             String scheme) {
        List<ReviewFinding> findings = new ArrayList<>();
        boolean send = true;
        String version = AdmissionReviews.V1;
        if (!"https".equalsIgnoreCase(scheme)) {
            findings.add(ReviewFinding.warning("clientConfig.url", "the URL's scheme is " + scheme
                    + ": the API server calls webhooks over https only (a configuration with another scheme is refused), "
                    + "so this call proves nothing about TLS"));
        }
        if (target == null) {
            if (request.dryRun()) {
                findings.add(ReviewFinding.info("sideEffects", "dry-run request sent to --url: the API server calls a "
                        + "webhook on dry-run requests only when its sideEffects is None or NoneOnDryRun (and then it must "
                        + "have no side effects for this request); give --config to check the declaration"));
            }
            return new Plan(true, version, findings);
        }
        String label = "webhook " + target.name() + " (" + target.configuration() + ")";
        if (verdict != null) {
            switch (verdict.outcome()) {
                case NO_MATCH -> {
                    if (sendUnmatched) {
                        findings.add(ReviewFinding.warning("match", "the API server would not call " + label
                                + " for this request (" + verdict.explain() + "); sent anyway (--send-unmatched)"));
                    } else {
                        findings.add(ReviewFinding.error("match", "the API server would not call " + label + " for "
                                + request.operation() + " " + request.describeResource() + ": " + verdict.explain()
                                + "; nothing was sent. Check the request (--namespace, --namespace-labels, the object's "
                                + "labels) or the webhook's rules, or add --send-unmatched to call it anyway"));
                        send = false;
                    }
                }
                case UNDECIDED -> findings.add(ReviewFinding.info("match", label + " is called for this request "
                        + "unless a condition this tool does not evaluate says otherwise: " + verdict.explain()));
                case MATCHES -> findings.add(ReviewFinding.info("match", label + " matches: " + verdict.explain()));
            }
        }
        version = target.admissionReviewVersions().stream()
                .filter(v -> v.equals(AdmissionReviews.V1) || v.equals(AdmissionReviews.V1BETA1)).findFirst().orElse(null);
        if (version == null) {
            findings.add(ReviewFinding.error("admissionReviewVersions", label + " accepts " + target.admissionReviewVersions()
                    + ": the API server knows v1 and v1beta1 only, so every call fails (webhook does not accept known "
                    + "AdmissionReview versions); list v1"));
            return new Plan(false, AdmissionReviews.V1, findings);
        }
        if (request.dryRun()) {
            String se = target.sideEffects();
            if (se == null) {
                findings.add(ReviewFinding.error("sideEffects", label + " declares no sideEffects: the API server does "
                        + "not call it for a dry-run request (Webhook SideEffects is nil; failurePolicy "
                        + target.failurePolicy() + " decides). Declare sideEffects None or NoneOnDryRun"));
                send = false;
            } else if (!se.equals("None") && !se.equals("NoneOnDryRun")) {
                findings.add(ReviewFinding.error("sideEffects", label + " declares sideEffects " + se + ": the API server "
                        + "does not call it for a dry-run request and refuses the whole request with 400: admission webhook \""
                        + target.name() + "\" does not support dry run (whatever its failurePolicy). If it has no side "
                        + "effects on dry runs, declare None or NoneOnDryRun"));
                send = false;
            } else if (se.equals("NoneOnDryRun")) {
                findings.add(ReviewFinding.info("sideEffects", label + " declares NoneOnDryRun: it must not cause side "
                        + "effects for this request (dryRun: true); review cannot observe side effects, check its logic"));
            }
        }
        return new Plan(send, version, findings);
    }
}
