package dev.policyset.aps.operator.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.plan.SetAdmission;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One AdmissionReview in, one answer out, without HTTP: the wire contract of {@code admission.k8s.io/v1}
 * ({@code k8s.io/api/admission/v1/types.go}) around core's {@link SetAdmission}.
 *
 * <p>The response echoes {@code apiVersion}, {@code kind} and {@code request.uid}; a refusal carries
 * {@code status} {@code {status: Failure, code: 403, reason: Forbidden, message}} as controller-runtime's
 * {@code admission.Denied} does — the API server prefixes the message with
 * {@code admission webhook "<name>" denied the request: } ({@code webhook/errors/statuserror.go: ToStatusErr}).
 * Findings travel as {@code warnings}, shaped for the API server's warning recorder
 * ({@code endpoints/filters/warning.go}: past 4,096 runes in all it cuts every warning to 256 runes and then drops
 * the rest; {@code util/net: NewWarningHeader} refuses invalid text): one line each, at most {@value #MAX_WARNINGS}
 * and a count of the rest, whole while they fit in 4,096 runes and cut to {@value #MAX_WARNING_RUNES} otherwise, so
 * the API server passes them as they are.
 *
 * <p>A request that is not an {@code admission.k8s.io/v1} AdmissionReview is a client error: HTTP 400 with a
 * {@code v1 Status} naming what is wrong (the API server never sends one; a person with curl might). A set the
 * webhook cannot judge (an exception in the judge, e.g. no informer yet) is admitted with a warning: the webhook
 * is an early answer, the reconciler still validates everything before it applies anything.
 */
public final class AdmissionReviewHandler {
    public static final String API_VERSION = "admission.k8s.io/v1";
    public static final String KIND = "AdmissionReview";
    static final String SET_GROUP = "admission.policyset.dev";
    static final String SET_KIND = "AdmissionPolicySet";
    static final int MAX_WARNINGS = 15;
    static final int MAX_WARNING_RUNES = 256;
    static final int MAX_TOTAL_WARNING_RUNES = 4096;
    static final int MAX_LISTED_ERRORS = 20;

    private static final Logger LOG = Logger.getLogger(AdmissionReviewHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SetAdmission admission;
    private final Supplier<ClusterView> cluster;

    /** The HTTP answer: status code and a JSON body, and what it was (for metrics). */
    public record Reply(int status, String body, ReviewOutcome outcome) {}

    /** @param cluster what the cluster holds, asked once per judged request */
    public AdmissionReviewHandler(SetAdmission admission, Supplier<ClusterView> cluster) {
        this.admission = admission;
        this.cluster = cluster;
    }

    public Reply handle(byte[] body) {
        JsonNode review;
        try {
            review = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return badRequest("the request body is not JSON (" + e.getOriginalMessage().lines().findFirst().orElse("")
                    + "); send an admission.k8s.io/v1 AdmissionReview");
        } catch (IOException e) {
            return badRequest("the request body could not be read: " + e.getMessage());
        }
        if (review == null || !review.isObject()) {
            return badRequest("the request body is not a JSON object; send an admission.k8s.io/v1 AdmissionReview");
        }
        if (!API_VERSION.equals(review.path("apiVersion").asText()) || !KIND.equals(review.path("kind").asText())) {
            return badRequest("expected apiVersion " + API_VERSION + " and kind " + KIND + ", got "
                    + describe(review.path("apiVersion")) + " and " + describe(review.path("kind"))
                    + "; this webhook serves admissionReviewVersions [v1] only");
        }
        JsonNode request = review.path("request");
        if (!request.isObject()) {
            return badRequest("request is missing: an AdmissionReview sent to a webhook carries request");
        }
        JsonNode uid = request.path("uid");
        if (!uid.isTextual() || uid.asText().isEmpty()) {
            return badRequest("request.uid is missing or not a string; the response must echo it");
        }
        String operation = request.path("operation").asText("");
        if (!List.of("CREATE", "UPDATE", "DELETE", "CONNECT").contains(operation)) {
            return badRequest("request.operation is " + describe(request.path("operation"))
                    + "; expected CREATE, UPDATE, DELETE or CONNECT");
        }
        JsonNode kind = request.path("kind");
        boolean aSet = SET_GROUP.equals(kind.path("group").asText()) && SET_KIND.equals(kind.path("kind").asText());
        if (!aSet || operation.equals("DELETE") || operation.equals("CONNECT")) {
            // Only writes of sets are judged; anything else the configuration lets through is none of our business.
            return allowed(uid.asText(), List.of());
        }
        if (!(request.get("object") instanceof ObjectNode object)) {
            return badRequest("request.object is missing or not an object; a " + operation + " carries the object");
        }
        ObjectNode old = operation.equals("UPDATE") && request.get("oldObject") instanceof ObjectNode o ? o : null;
        SetAdmission.Decision decision;
        try {
            decision = admission.judge(object, old, cluster.get());
        } catch (RuntimeException e) {
            LOG.warnf(e, "Admitted AdmissionPolicySet %s without judging it", name(object));
            return allowed(uid.asText(), List.of("the operator's webhook could not judge this set (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + "); it was admitted, and the operator validates it before applying anything"));
        }
        List<String> warnings = warnings(decision);
        if (decision.allowed()) {
            return allowed(uid.asText(), warnings);
        }
        return denied(uid.asText(), denial(name(object), decision.denying()), warnings);
    }

    /** The refusal: which set, how many error findings, each as {@code rule object field: message}, what to do. */
    static String denial(String setName, List<Finding> errors) {
        StringBuilder out = new StringBuilder();
        out.append(SET_KIND).append(" \"").append(setName).append("\" has ").append(errors.size())
                .append(errors.size() == 1 ? " error finding" : " error findings")
                .append(" (the operator would not apply it):");
        for (int i = 0; i < Math.min(errors.size(), MAX_LISTED_ERRORS); i++) {
            out.append("\n- ").append(line(errors.get(i)));
        }
        if (errors.size() > MAX_LISTED_ERRORS) {
            out.append("\n- and ").append(errors.size() - MAX_LISTED_ERRORS).append(" more");
        }
        out.append("\nFix them (`aps validate FILE` shows the same findings with file and line), or, for a safety rule "
                + "whose risk is accepted, add an exemption in spec.safety.exemptions.");
        return out.toString();
    }

    static List<String> warnings(SetAdmission.Decision decision) {
        List<String> all = new ArrayList<>();
        decision.ratcheted().forEach(f -> all.add("already in the stored set, so not refused (the operator still applies "
                + "nothing until it is fixed): " + line(f)));
        decision.warnings().forEach(f -> all.add(line(f)));
        List<String> out = new ArrayList<>(all.subList(0, Math.min(all.size(), MAX_WARNINGS)));
        if (all.size() > MAX_WARNINGS) {
            out.add((all.size() - MAX_WARNINGS) + " more warning(s): `aps validate` or the set's status.findings lists them all");
        }
        // Whole warnings while they fit the API server's 4,096 runes; past that it would cut each to 256 runes and
        // drop the rest, so cut them here (with an ellipsis) and keep every one.
        if (out.stream().mapToInt(w -> w.codePointCount(0, w.length())).sum() > MAX_TOTAL_WARNING_RUNES) {
            out.replaceAll(AdmissionReviewHandler::fit);
        }
        return out;
    }

    /** {@code rule object field: message}, on one line (a CEL error's caret lines become spaces). */
    static String line(Finding f) {
        String where = f.object() + (f.field().isEmpty() ? "" : " " + f.field());
        return oneLine(f.rule() + " " + where + ": " + f.message());
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\p{Cntrl}+", " ").replaceAll(" {2,}", " ").strip();
    }

    /** At most {@value #MAX_WARNING_RUNES} runes (code points), cut on a code point with an ellipsis. */
    static String fit(String text) {
        if (text.codePointCount(0, text.length()) <= MAX_WARNING_RUNES) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, MAX_WARNING_RUNES - 1)) + "…";
    }

    private static Reply allowed(String uid, List<String> warnings) {
        ObjectNode review = review(uid, true);
        addWarnings(review, warnings);
        return new Reply(200, review.toString(), warnings.isEmpty() ? ReviewOutcome.ALLOWED : ReviewOutcome.WARNED);
    }

    private static Reply denied(String uid, String message, List<String> warnings) {
        ObjectNode review = review(uid, false);
        ObjectNode status = ((ObjectNode) review.get("response")).putObject("status");
        status.put("status", "Failure");
        status.put("code", 403);
        status.put("reason", "Forbidden");
        status.put("message", message);
        addWarnings(review, warnings);
        return new Reply(200, review.toString(), ReviewOutcome.DENIED);
    }

    private static ObjectNode review(String uid, boolean allowed) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", API_VERSION);
        review.put("kind", KIND);
        review.putObject("response").put("uid", uid).put("allowed", allowed);
        return review;
    }

    private static void addWarnings(ObjectNode review, List<String> warnings) {
        if (!warnings.isEmpty()) {
            ArrayNode list = ((ObjectNode) review.get("response")).putArray("warnings");
            warnings.forEach(list::add);
        }
    }

    /** HTTP 400 with a {@code v1 Status}, the shape every Kubernetes client reads. */
    static Reply badRequest(String message) {
        return status(400, "BadRequest", "malformed AdmissionReview: " + message);
    }

    /** An HTTP error with a {@code v1 Status} body: a request that is not a review it can answer (400, 413). */
    static Reply status(int code, String reason, String message) {
        ObjectNode status = JSON.createObjectNode();
        status.put("apiVersion", "v1");
        status.put("kind", "Status");
        status.put("status", "Failure");
        status.put("code", code);
        status.put("reason", reason);
        status.put("message", message);
        return new Reply(code, status.toString(), ReviewOutcome.MALFORMED);
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }

    private static String describe(JsonNode value) {
        if (value.isMissingNode()) {
            return "nothing";
        }
        String text = value.toString();
        return text.length() > 60 ? text.substring(0, 60) + "…" : text;
    }
}
