package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.util.NameFormats;

import java.util.Map;

/**
 * {@code metadata} of the six cluster-scoped kinds: the REST layer's create preparation
 * ({@code rest.BeforeCreate}: a name generated from {@code generateName}, {@code namespace} cleared), then
 * {@code ValidateObjectMeta(meta, namespaced=false, NameIsDNSSubdomain)} and the reserved
 * {@code .static.k8s.io} suffix ({@code static_suffix.go}).
 */
final class ObjectMetaValidation {
    static final String STATIC_SUFFIX = ".static.k8s.io";
    /** {@code names.SimpleNameGenerator}: at most 58 characters of the prefix, then 5 random ones. */
    private static final int MAX_GENERATED_PREFIX = 58;
    private static final int ANNOTATIONS_SIZE_LIMIT = 256 * 1024;
    private static final FieldPath METADATA = FieldPath.root("metadata");

    private ObjectMetaValidation() {}

    /**
     * The name the object will have when validation runs: {@code metadata.name}, or one generated from
     * {@code generateName} (its random part is lower-case alphanumeric, so it never changes the verdict).
     */
    static String effectiveName(ObjectNode metadata) {
        String name = Json.text(metadata, "name");
        String generateName = Json.text(metadata, "generateName");
        if (name.isEmpty() && !generateName.isEmpty()) {
            String prefix = generateName.length() > MAX_GENERATED_PREFIX
                    ? generateName.substring(0, MAX_GENERATED_PREFIX) : generateName;
            return prefix + "x7k2q";
        }
        return name;
    }

    static void validate(ObjectNode metadata, KubeVersion version, Errors errors) {
        String generateName = Json.text(metadata, "generateName");
        if (!generateName.isEmpty()) {
            for (String problem : NameFormats.nameIsDnsSubdomain(generateName, true)) {
                errors.invalid(METADATA.child("generateName"), generateName, problem);
            }
        }
        String name = effectiveName(metadata);
        if (name.isEmpty()) {
            errors.required(METADATA.child("name"), "name or generateName is required; set metadata.name");
        } else {
            for (String problem : NameFormats.subdomainProblems(name)) {
                errors.invalid(METADATA.child("name"), name, problem);
            }
            if (version.atLeast(1, 37) && name.endsWith(STATIC_SUFFIX)) {
                // ManifestBasedAdmissionControlConfig is beta (on) from 1.37; on 1.36 it is only a warning.
                errors.invalid(METADATA.child("name"), name, "names ending with \"" + STATIC_SUFFIX
                        + "\" are reserved for static manifest-based configurations and cannot be managed via the API; "
                        + "choose another name");
            }
        }
        // metadata.namespace: cleared by the REST layer for cluster-scoped kinds, so never an error through the API.
        validateLabels(Json.stringMap(metadata, "labels"), METADATA.child("labels"), errors);
        validateAnnotations(Json.stringMap(metadata, "annotations"), errors);
        validateOwnerReferences(metadata, errors);
        validateFinalizers(metadata, errors);
    }

    /** {@code metav1validation.ValidateLabels}: errors are reported on the map itself, not on the key. */
    static void validateLabels(Map<String, String> labels, FieldPath path, Errors errors) {
        for (Map.Entry<String, String> label : labels.entrySet()) {
            for (String problem : NameFormats.qualifiedNameProblems(label.getKey())) {
                errors.invalid(path, label.getKey(), problem);
            }
            for (String problem : NameFormats.labelValueProblems(label.getValue())) {
                errors.invalid(path, label.getValue(), problem);
            }
        }
    }

    /** {@code ValidateAnnotations}: keys are qualified names, case-insensitively; total size at most 256 KiB. */
    private static void validateAnnotations(Map<String, String> annotations, Errors errors) {
        FieldPath path = METADATA.child("annotations");
        long size = 0;
        for (Map.Entry<String, String> annotation : annotations.entrySet()) {
            for (String problem : NameFormats.qualifiedNameProblems(annotation.getKey().toLowerCase(java.util.Locale.ROOT))) {
                errors.invalid(path, annotation.getKey(), problem);
            }
            size += NameFormats.byteLength(annotation.getKey()) + NameFormats.byteLength(annotation.getValue());
        }
        if (size > ANNOTATIONS_SIZE_LIMIT) {
            errors.tooLong(path, ANNOTATIONS_SIZE_LIMIT, "the annotations total " + size
                    + " bytes; move large content elsewhere");
        }
    }

    /** {@code ValidateOwnerReferences}: the paths carry no index, as upstream's do. */
    private static void validateOwnerReferences(ObjectNode metadata, Errors errors) {
        FieldPath path = METADATA.child("ownerReferences");
        String firstController = null;
        for (ObjectNode ref : Json.objects(metadata, "ownerReferences")) {
            String apiVersion = Json.text(ref, "apiVersion");
            String kind = Json.text(ref, "kind");
            String version = versionOf(apiVersion);
            if (version.isEmpty()) {
                errors.invalid(path.child("apiVersion"), apiVersion, "version must not be empty");
            }
            if (kind.isEmpty()) {
                errors.invalid(path.child("kind"), kind, "must not be empty");
            }
            if (Json.text(ref, "name").isEmpty()) {
                errors.invalid(path.child("name"), "", "must not be empty");
            }
            if (Json.text(ref, "uid").isEmpty()) {
                errors.invalid(path.child("uid"), "", "must not be empty");
            }
            if (apiVersion.equals("v1") && kind.equals("Event")) {
                errors.invalid(path, apiVersion + ", Kind=" + kind, "/v1, Kind=Event is disallowed from being an owner");
            }
            if (ref.path("controller").asBoolean(false)) {
                String current = kind + "/" + Json.text(ref, "name");
                if (firstController != null) {
                    errors.invalid(path, "ownerReferences", "Only one reference can have Controller set to true. Found "
                            + "\"true\" in references for " + firstController + " and " + current);
                } else {
                    firstController = current;
                }
            }
        }
    }

    /** {@code schema.ParseGroupVersion}'s version part; empty when it does not parse. */
    private static String versionOf(String apiVersion) {
        long slashes = apiVersion.chars().filter(c -> c == '/').count();
        if (slashes == 0) {
            return apiVersion;
        }
        return slashes == 1 ? apiVersion.substring(apiVersion.indexOf('/') + 1) : "";
    }

    /** {@code ValidateFinalizers}: qualified names; orphan and foregroundDeletion exclude each other. */
    private static void validateFinalizers(ObjectNode metadata, Errors errors) {
        FieldPath path = METADATA.child("finalizers");
        boolean orphan = false;
        boolean foreground = false;
        for (String finalizer : Json.strings(metadata, "finalizers")) {
            for (String problem : NameFormats.qualifiedNameProblems(finalizer)) {
                errors.invalid(path, finalizer, problem);
            }
            orphan |= finalizer.equals("orphan");
            foreground |= finalizer.equals("foregroundDeletion");
        }
        if (orphan && foreground) {
            errors.invalid(path, Json.strings(metadata, "finalizers"),
                    "finalizer orphan and foregroundDeletion cannot be both set; keep one");
        }
    }
}
