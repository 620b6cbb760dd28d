package dev.policyset.aps.core.review;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The AdmissionReview the API server sends, as {@code k8s.io/apiserver/pkg/admission/plugin/webhook/request/
 * admissionreview.go: CreateV1AdmissionReview} / {@code CreateV1beta1AdmissionReview} build it (both versions carry
 * the same request fields). Field names and omissions follow the Go types' JSON tags
 * ({@code k8s.io/api/admission/v1/types.go}): {@code subResource}, {@code requestSubResource}, {@code name},
 * {@code namespace} are {@code omitempty}; {@code object}, {@code oldObject} and {@code options} are
 * {@code RawExtension}s that encode a missing object as {@code null}; {@code userInfo} omits its empty fields.
 *
 * <p>No conversion happens here: the webhook is asked about the version the object is in, so {@code kind} equals
 * {@code requestKind} and {@code resource} equals {@code requestResource} (the API server differs only when a rule
 * with {@code matchPolicy: Equivalent} matched another version).
 */
public final class AdmissionReviews {
    /** The version the webhook speaks, in the order the API server prefers none: it takes the first it knows. */
    public static final String V1 = "v1";
    public static final String V1BETA1 = "v1beta1";

    private AdmissionReviews() {}

    /** The whole AdmissionReview for {@code uid} in {@code reviewVersion} ({@value #V1} or {@value #V1BETA1}). */
    public static ObjectNode request(ReviewRequest r, String uid, String reviewVersion) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode review = f.objectNode();
        review.put("kind", "AdmissionReview");
        review.put("apiVersion", "admission.k8s.io/" + reviewVersion);
        ObjectNode q = review.putObject("request");
        q.put("uid", uid);
        gvk(q.putObject("kind"), r);
        gvr(q.putObject("resource"), r);
        if (!r.subresource().isEmpty()) {
            q.put("subResource", r.subresource());
        }
        gvk(q.putObject("requestKind"), r);
        gvr(q.putObject("requestResource"), r);
        if (!r.subresource().isEmpty()) {
            q.put("requestSubResource", r.subresource());
        }
        if (!r.name().isEmpty()) {
            q.put("name", r.name());
        }
        if (!r.namespace().isEmpty()) {
            q.put("namespace", r.namespace());
        }
        q.put("operation", r.operation().name());
        ObjectNode user = q.putObject("userInfo");
        if (!r.username().isEmpty()) {
            user.put("username", r.username());
        }
        if (!r.groups().isEmpty()) {
            ArrayNode groups = user.putArray("groups");
            r.groups().forEach(groups::add);
        }
        q.set("object", r.object() == null ? f.nullNode() : r.object());
        q.set("oldObject", r.oldObject() == null ? f.nullNode() : r.oldObject());
        q.put("dryRun", r.dryRun());
        ObjectNode options = options(r);
        q.set("options", options == null ? f.nullNode() : options);
        return review;
    }

    /**
     * {@code attr.GetOperationOptions()}: the handlers pass the request's {@code CreateOptions} / {@code UpdateOptions}
     * / {@code DeleteOptions} with their type set to {@code meta.k8s.io/v1} ({@code handlers/create.go},
     * {@code update.go}, {@code delete.go}: {@code options.TypeMeta.SetGroupVersionKind(metav1.SchemeGroupVersion
     * .WithKind(...))}); {@code dryRun: [All]} is how a dry run reaches them. CONNECT has no options object
     * ({@code handlers/rest.go ConnectResource} passes nil): its options travel as the object.
     */
    static ObjectNode options(ReviewRequest r) {
        String kind = switch (r.operation()) {
            case CREATE -> "CreateOptions";
            case UPDATE -> "UpdateOptions";
            case DELETE -> "DeleteOptions";
            case CONNECT -> null;
        };
        if (kind == null) {
            return null;
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("kind", kind);
        o.put("apiVersion", "meta.k8s.io/v1");
        if (r.dryRun()) {
            o.putArray("dryRun").add("All");
        }
        return o;
    }

    private static void gvk(ObjectNode n, ReviewRequest r) {
        n.put("group", r.group()).put("version", r.version()).put("kind", r.kind());
    }

    private static void gvr(ObjectNode n, ReviewRequest r) {
        n.put("group", r.resourceGroup()).put("version", r.resourceVersion()).put("resource", r.resource());
    }
}
