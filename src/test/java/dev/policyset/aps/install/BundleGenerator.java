package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes {@code bundle/} (the OLM bundle) from QOSDK's generated bundle plus what QOSDK cannot express.
 *
 * <p>QOSDK ({@code mvn package}, metadata in {@code OperatorCsvMetadata}) gives the CSV skeleton and its
 * marketplace fields, the CRD, {@code metadata/annotations.yaml} and {@code bundle.Dockerfile}. This class
 * then makes {@code config/} the single source of the install: the CSV's deployment is
 * {@code config/manager}'s Deployment, its permissions are {@code config/rbac}'s rules, its image is the one
 * {@code config/manager/kustomization.yaml} sets (or {@code --image}); {@code alm-examples} are the safe
 * samples {@code config/samples/kustomization.yaml} lists; spec and status descriptors come from the CRD
 * schema; the scorecard config from {@code config/scorecard}. Output is deterministic, so a stale
 * {@code bundle/} is a plain diff ({@code BundleInSyncIT}).
 *
 * <p>Run by {@code make bundle}: {@code java ... BundleGenerator [--image IMAGE] [--out DIR]}.
 */
public final class BundleGenerator {
    static final String PACKAGE = "admission-policy-operator";
    static final String CSV_FILE = "manifests/" + PACKAGE + ".clusterserviceversion.yaml";
    static final String CRD_FILE_NAME = "admissionpolicysets.admission.policyset.dev-v1.yml";
    static final String BUNDLE_CRD_FILE = "manifests/admissionpolicysets.admission.policyset.dev-v1.crd.yml";
    static final String ANNOTATIONS_FILE = "metadata/annotations.yaml";
    static final String DOCKERFILE = "bundle.Dockerfile";
    static final String SCORECARD_FILE = "tests/scorecard/config.yaml";
    static final String CONDITIONS_DESCRIPTOR = "urn:alm:descriptor:io.kubernetes.conditions";

    /** The native objects a set owns, for the console's resource view (CSV owned[].resources). */
    private static final String[][] OWNED_RESOURCES = {
            {"ValidatingAdmissionPolicy", "v1"}, {"ValidatingAdmissionPolicyBinding", "v1"},
            {"MutatingAdmissionPolicy", "v1beta1"}, {"MutatingAdmissionPolicyBinding", "v1beta1"},
            {"ValidatingWebhookConfiguration", "v1"}, {"MutatingWebhookConfiguration", "v1"}};

    /** Console labels for the fields that get a descriptor; descriptions and widgets come from the schema. */
    private static final Map<String, String> SPEC_FIELDS = new LinkedHashMap<>();
    private static final Map<String, String> STATUS_FIELDS = new LinkedHashMap<>();

    static {
        SPEC_FIELDS.put("defaults", "Defaults");
        SPEC_FIELDS.put("defaults.failurePolicy", "Default failure policy");
        SPEC_FIELDS.put("defaults.validationActions", "Default validation actions");
        SPEC_FIELDS.put("defaults.webhookTimeoutSeconds", "Default webhook timeout (seconds)");
        SPEC_FIELDS.put("defaults.excludedNamespaces", "Excluded namespaces");
        SPEC_FIELDS.put("safety", "Safety");
        SPEC_FIELDS.put("safety.enforcement", "Safety enforcement");
        SPEC_FIELDS.put("safety.exemptions", "Safety exemptions");
        SPEC_FIELDS.put("validatingPolicies", "Validating admission policies");
        SPEC_FIELDS.put("mutatingPolicies", "Mutating admission policies");
        SPEC_FIELDS.put("validatingWebhooks", "Validating webhooks");
        SPEC_FIELDS.put("mutatingWebhooks", "Mutating webhooks");
        SPEC_FIELDS.put("prune", "Prune");
        SPEC_FIELDS.put("deletionPolicy", "Deletion policy");
        SPEC_FIELDS.put("paused", "Paused");
        STATUS_FIELDS.put("summary", "Summary");
        STATUS_FIELDS.put("conditions", "Conditions");
        STATUS_FIELDS.put("observedGeneration", "Observed generation");
        STATUS_FIELDS.put("findings", "Findings");
        STATUS_FIELDS.put("findingsOmitted", "Findings omitted");
        STATUS_FIELDS.put("resources", "Generated resources");
        STATUS_FIELDS.put("lastApplied", "Last applied generation");
        STATUS_FIELDS.put("impact", "Impact on existing objects");
    }

    private BundleGenerator() {}

    /**
     * The bundle's place in OLM's upgrade graph: its version and the released version it replaces (none for the
     * first release). With a previous version the CSV gets {@code spec.replaces} (the edge OLM follows) and
     * {@code olm.skipRange >=PREVIOUS <VERSION}, so a cluster on any version in between upgrades in one step.
     */
    record Upgrade(String version, String replaces) {
        Upgrade {
            replaces = replaces == null || replaces.isBlank() ? null : replaces.strip();
        }
    }

    /** {@code config/olm/upgrade.yaml}'s previous version, for the bundle of the version QOSDK wrote. */
    static Upgrade upgrade(Path root, Path qosdkBundle) {
        String version = ProjectFiles.readYaml(qosdkBundle.resolve(CSV_FILE)).path("spec").path("version").asText();
        String replaces = ProjectFiles.readYaml(root.resolve("config/olm/upgrade.yaml")).path("replaces").asText("");
        return new Upgrade(version, replaces);
    }

    public static void main(String[] args) throws IOException {
        Path root = ProjectFiles.root();
        String image = null;
        Path out = root.resolve("bundle");
        String version = null;
        String replaces = null;
        String digest = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--image" -> image = args[++i];
                case "--out" -> out = root.resolve(args[++i]);
                case "--version" -> version = args[++i];
                case "--replaces" -> replaces = args[++i];
                case "--digest" -> digest = args[++i];
                default -> throw new IllegalArgumentException(
                        "usage: BundleGenerator [--image IMAGE] [--digest sha256:HEX] [--out DIR] [--version V --replaces PREVIOUS]");
            }
        }
        if (image == null || image.isBlank()) {
            image = ProjectFiles.defaultImage(root);
        }
        if (digest != null && !digest.isBlank()) {
            image = byDigest(image, digest);
        }
        Path qosdk = qosdkBundle(root);
        Upgrade upgrade = upgrade(root, qosdk);
        if (version != null) {
            upgrade = new Upgrade(version, replaces);
        }
        Map<String, String> files = generate(root, qosdk, image, upgrade);
        write(files, out);
        System.out.println("wrote " + files.size() + " files to " + root.relativize(out) + "/ (image " + image + ")");
    }

    /**
     * {@code image} pinned to {@code digest} ({@code registry/name@sha256:...}, the tag dropped): what a release that
     * has pushed its image knows, so that the CSV, its {@code relatedImages} (which disconnected mirroring copies) and
     * the Deployment name exactly the bytes that were tested. OLM and {@code operator-sdk bundle validate} accept both
     * forms; a digest is what {@code disconnected: true} promises a mirror can resolve without the registry.
     */
    static String byDigest(String image, String digest) {
        if (!digest.matches("sha256:[0-9a-f]{64}")) {
            throw new IllegalArgumentException("--digest " + digest + " is not sha256:<64 lower-case hex digits> (what "
                    + "`docker buildx imagetools inspect " + image + " --format '{{.Manifest.Digest}}'` prints)");
        }
        String name = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int slash = name.lastIndexOf('/');
        int colon = name.lastIndexOf(':');
        if (colon > slash) {
            name = name.substring(0, colon); // the tag; a colon before the last slash is a registry port
        }
        return name + "@" + digest;
    }

    /** Where QOSDK writes the bundle during {@code mvn package}. */
    static Path qosdkBundle(Path root) {
        Path dir = root.resolve("target/bundle/" + PACKAGE);
        if (!Files.isRegularFile(dir.resolve(CSV_FILE))) {
            throw new IllegalStateException(root.relativize(dir) + "/" + CSV_FILE + " is missing: run `mvn package` "
                    + "first (QOSDK writes it; it writes none while the application has no Reconciler)");
        }
        return dir;
    }

    /** Every file of the bundle, by path relative to the bundle directory, in a stable order. */
    static Map<String, String> generate(Path root, Path qosdkBundle, String image) throws IOException {
        return generate(root, qosdkBundle, image, upgrade(root, qosdkBundle));
    }

    /** Every file of the bundle of {@code upgrade.version()}, by path relative to the bundle directory. */
    static Map<String, String> generate(Path root, Path qosdkBundle, String image, Upgrade upgrade) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        String crd = Files.readString(root.resolve("crds/" + CRD_FILE_NAME));
        String generatedCrd = Files.readString(qosdkBundle.resolve(BUNDLE_CRD_FILE));
        if (!crd.equals(CrdPrinterColumns.ordered(generatedCrd))) {
            throw new IllegalStateException("crds/" + CRD_FILE_NAME + " differs from the CRD the build generated: "
                    + "run `make manifests` first");
        }
        JsonNode crdNode = ProjectFiles.readAllYaml(crd).get(0);
        ObjectNode csv = (ObjectNode) ProjectFiles.readYaml(qosdkBundle.resolve(CSV_FILE));
        completeCsv(root, csv, crdNode, image);
        upgradeEdge(csv, upgrade);

        Map<String, String> annotations = new LinkedHashMap<>();
        ProjectFiles.readYaml(qosdkBundle.resolve(ANNOTATIONS_FILE)).path("annotations").fields()
                .forEachRemaining(e -> annotations.put(e.getKey(), e.getValue().asText()));
        annotations.put("operators.operatorframework.io.test.mediatype.v1", "scorecard+v1");
        annotations.put("operators.operatorframework.io.test.config.v1", "tests/scorecard/");

        files.put(CSV_FILE, ProjectFiles.writeYaml(csv));
        files.put(BUNDLE_CRD_FILE, crd);
        files.put(ANNOTATIONS_FILE, annotationsYaml(annotations));
        files.put(DOCKERFILE, dockerfile(annotations));
        files.put(SCORECARD_FILE, Files.readString(root.resolve("config/scorecard/config.yaml")));
        return files;
    }

    private static void completeCsv(Path root, ObjectNode csv, JsonNode crd, String image) {
        ObjectNode metadata = (ObjectNode) csv.path("metadata");
        ObjectNode annotations = metadata.has("annotations")
                ? (ObjectNode) metadata.get("annotations") : metadata.putObject("annotations");
        annotations.put("containerImage", image);
        annotations.put("alm-examples", almExamples(root));

        ObjectNode spec = (ObjectNode) csv.path("spec");
        for (JsonNode owned : spec.path("customresourcedefinitions").path("owned")) {
            if (crd.path("metadata").path("name").asText().equals(owned.path("name").asText())) {
                describe((ObjectNode) owned, crd);
            }
        }
        spec.set("install", install(root, image));
        spec.set("webhookdefinitions", webhookDefinitions(root));
        ArrayNode related = spec.putArray("relatedImages");
        related.addObject().put("name", PACKAGE).put("image", image);
    }

    private static void upgradeEdge(ObjectNode csv, Upgrade upgrade) {
        ObjectNode metadata = (ObjectNode) csv.path("metadata");
        ObjectNode annotations = (ObjectNode) metadata.path("annotations");
        ObjectNode spec = (ObjectNode) csv.path("spec");
        metadata.put("name", PACKAGE + ".v" + upgrade.version());
        spec.put("version", upgrade.version());
        spec.remove("replaces");
        annotations.remove("olm.skipRange");
        if (upgrade.replaces() != null) {
            spec.put("replaces", PACKAGE + ".v" + upgrade.replaces());
            annotations.put("olm.skipRange", ">=" + upgrade.replaces() + " <" + upgrade.version());
        }
    }

    /** CSV install strategy from config/rbac and config/manager. */
    private static ObjectNode install(Path root, String image) {
        Path rbac = root.resolve("config/rbac");
        String serviceAccount = ProjectFiles.find(rbac, "ServiceAccount").path("metadata").path("name").asText();
        ObjectNode install = JsonNodeFactory.instance.objectNode().put("strategy", "deployment");
        ObjectNode spec = install.putObject("spec");
        spec.putArray("clusterPermissions").addObject()
                .put("serviceAccountName", serviceAccount)
                .set("rules", ProjectFiles.operatorClusterRole(root).path("rules").deepCopy());
        spec.putArray("permissions").addObject()
                .put("serviceAccountName", serviceAccount)
                .set("rules", ProjectFiles.find(rbac, "Role").path("rules").deepCopy());

        ObjectNode deployment = ProjectFiles.find(root.resolve("config/manager"), "Deployment");
        ObjectNode deploymentSpec = deployment.path("spec").deepCopy();
        for (JsonNode container : deploymentSpec.path("template").path("spec").path("containers")) {
            if ("controller".equals(container.path("image").asText())) {
                ((ObjectNode) container).put("image", image);
                // OLM issues, mounts and rotates the webhook's certificate itself (webhookdefinitions): the
                // operator's self-managed certificates are off, as cert-manager's component turns them off.
                ArrayNode env = container.has("env") ? (ArrayNode) container.get("env") : ((ObjectNode) container).putArray("env");
                env.insertObject(0).put("name", "APS_WEBHOOK_CERTIFICATES").put("value", "mounted");
            }
        }
        ObjectNode entry = spec.putArray("deployments").addObject();
        entry.put("name", deployment.path("metadata").path("name").asText());
        entry.set("label", deployment.path("metadata").path("labels").deepCopy());
        entry.set("spec", deploymentSpec);
        return install;
    }

    /**
     * The operator's validating webhook as OLM {@code webhookdefinitions}, from the same
     * ValidatingWebhookConfiguration config/webhook installs: OLM creates the Service
     * ({@code <deployment>-service}), issues and rotates the serving certificate (mounted at
     * {@code /apiserver.local.config/certificates}, one of the places the operator looks), creates the
     * configuration with the CA and a namespaceSelector of its own (operator-framework/api {@code WebhookDescription}).
     * The Service port is the container port, as OLM's {@code getServicePort} uses it for both.
     */
    static ArrayNode webhookDefinitions(Path root) {
        Path component = root.resolve("config/webhook");
        JsonNode configuration = ProjectFiles.find(component, "ValidatingWebhookConfiguration");
        ObjectNode deployment = ProjectFiles.find(root.resolve("config/manager"), "Deployment");
        String targetPort = ProjectFiles.find(component, "Service").path("spec").path("ports").get(0).path("targetPort").asText();
        int port = -1;
        for (JsonNode c : deployment.path("spec").path("template").path("spec").path("containers")) {
            for (JsonNode p : c.path("ports")) {
                if (targetPort.equals(p.path("name").asText())) {
                    port = p.path("containerPort").asInt();
                }
            }
        }
        if (port < 0) {
            throw new IllegalStateException("config/manager's Deployment has no container port named " + targetPort);
        }
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode w : configuration.path("webhooks")) {
            ObjectNode d = out.addObject();
            d.put("type", "ValidatingAdmissionWebhook");
            d.put("generateName", w.path("name").asText());
            d.put("deploymentName", deployment.path("metadata").path("name").asText());
            d.put("containerPort", port);
            d.put("targetPort", port);
            d.put("webhookPath", w.path("clientConfig").path("service").path("path").asText());
            for (String field : List.of("admissionReviewVersions", "failurePolicy", "matchPolicy", "objectSelector",
                    "rules", "sideEffects", "timeoutSeconds")) {
                if (w.has(field)) {
                    d.set(field, w.get(field).deepCopy());
                }
            }
        }
        return out;
    }

    /** The safe samples, as the JSON array OLM's console offers as templates. */
    static String almExamples(Path root) {
        ArrayNode examples = JsonNodeFactory.instance.arrayNode();
        for (Path sample : ProjectFiles.kustomizationResources(root.resolve("config/samples"))) {
            ProjectFiles.readAll(sample).forEach(examples::add);
        }
        try {
            return ProjectFiles.JSON.writeValueAsString(examples) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void describe(ObjectNode owned, JsonNode crd) {
        JsonNode version = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(owned.path("version").asText())) {
                version = v;
            }
        }
        if (version == null) {
            throw new IllegalStateException("CSV owns version " + owned.path("version").asText() + " the CRD does not have");
        }
        JsonNode schema = version.path("schema").path("openAPIV3Schema").path("properties");
        owned.put("displayName", owned.path("displayName").asText("Admission Policy Set"));
        ArrayNode resources = owned.putArray("resources");
        for (String[] r : OWNED_RESOURCES) {
            resources.addObject().put("kind", r[0]).put("name", "").put("version", r[1]);
        }
        owned.set("specDescriptors", descriptors(schema.path("spec"), SPEC_FIELDS, "spec"));
        owned.set("statusDescriptors", descriptors(schema.path("status"), STATUS_FIELDS, "status"));
    }

    private static ArrayNode descriptors(JsonNode schema, Map<String, String> fields, String where) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (Map.Entry<String, String> field : fields.entrySet()) {
            JsonNode property = schema;
            for (String part : field.getKey().split("\\.")) {
                property = property.path("properties").path(part);
            }
            if (property.isMissingNode()) {
                throw new IllegalStateException(where + "." + field.getKey() + " is not in the CRD schema: "
                        + "update BundleGenerator's descriptor table");
            }
            ObjectNode d = out.addObject();
            d.put("path", field.getKey());
            d.put("displayName", field.getValue());
            d.put("description", property.path("description").asText());
            List<String> x = new ArrayList<>(widgets(field.getKey(), property));
            if (!x.isEmpty()) {
                ArrayNode xs = d.putArray("x-descriptors");
                x.forEach(xs::add);
            }
        }
        return out;
    }

    /** Console widgets, from the schema: enums become selects, booleans switches, integers numbers. */
    private static List<String> widgets(String path, JsonNode property) {
        if (path.equals("conditions")) {
            return List.of(CONDITIONS_DESCRIPTOR);
        }
        List<String> x = new ArrayList<>();
        String type = property.path("type").asText();
        if (property.has("enum")) {
            property.get("enum").forEach(e -> x.add("urn:alm:descriptor:com.tectonic.ui:select:" + e.asText()));
        } else if ("boolean".equals(type)) {
            x.add("urn:alm:descriptor:com.tectonic.ui:booleanSwitch");
        } else if ("integer".equals(type)) {
            x.add("urn:alm:descriptor:com.tectonic.ui:number");
        }
        int dot = path.indexOf('.');
        if (dot > 0) {
            x.add("urn:alm:descriptor:com.tectonic.ui:fieldGroup:" + path.substring(0, dot));
        }
        if (path.endsWith("Policies") || path.endsWith("Webhooks") || path.equals("findings")
                || path.equals("resources") || path.equals("safety.exemptions")) {
            x.add("urn:alm:descriptor:com.tectonic.ui:advanced");
        }
        return x;
    }

    private static String annotationsYaml(Map<String, String> annotations) {
        StringBuilder out = new StringBuilder("annotations:\n");
        annotations.forEach((k, v) -> out.append("  ").append(k).append(": ").append(v).append('\n'));
        return out.toString();
    }

    private static String dockerfile(Map<String, String> annotations) {
        StringBuilder out = new StringBuilder("FROM scratch\n\n# Bundle labels; the same as metadata/annotations.yaml.\n");
        annotations.forEach((k, v) -> out.append("LABEL ").append(k).append('=').append(v).append('\n'));
        out.append("\n# Copy files to locations specified by labels.\n")
                .append("COPY manifests /manifests/\n")
                .append("COPY metadata /metadata/\n")
                .append("COPY tests/scorecard /tests/scorecard/\n");
        return out.toString();
    }

    /** Replaces DIR's content with the bundle (files not in the bundle are removed). */
    static void write(Map<String, String> files, Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    if (!p.equals(dir)) {
                        Files.delete(p);
                    }
                }
            }
        }
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path target = dir.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }
    }
}
