package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the checked-in OLM bundle the way {@code operator-sdk bundle validate --select-optional
 * suite=operatorframework} would (required CSV fields, alm-examples, owned CRDs, icon, semver, channels,
 * install modes, capabilities and categories), plus this project's invariants: the CSV installs exactly
 * {@code config/} (permissions, Deployment, image) and owns exactly {@code crds/}. No build needed; whether
 * bundle/ is up to date with the build is {@code BundleInSyncIT}'s job.
 */
class BundleTest {
    static final Pattern SEMVER = Pattern.compile(
            "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$");
    static final Set<String> CAPABILITIES = Set.of("Basic Install", "Seamless Upgrades", "Full Lifecycle",
            "Deep Insights", "Auto Pilot");
    /** OperatorHub's category list (operator-framework/api, validation/internal/operatorhub.go). */
    static final Set<String> CATEGORIES = Set.of("AI/Machine Learning", "Application Runtime", "Big Data",
            "Cloud Provider", "Database", "Developer Tools", "Drivers and plugins", "Integration & Delivery",
            "Logging & Tracing", "Modernization & Migration", "Monitoring", "Networking", "OpenShift Optional",
            "Security", "Storage", "Streaming & Messaging");
    static final Set<String> ICON_TYPES = Set.of("image/gif", "image/jpeg", "image/png", "image/svg+xml");
    static final Set<String> INSTALL_MODES = Set.of("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces");

    static Path root;
    static Path bundle;
    static JsonNode csv;
    static JsonNode crd;

    @BeforeAll
    static void load() {
        root = ProjectFiles.root();
        bundle = root.resolve("bundle");
        csv = ProjectFiles.readYaml(bundle.resolve(BundleGenerator.CSV_FILE));
        crd = ProjectFiles.readYaml(bundle.resolve(BundleGenerator.BUNDLE_CRD_FILE));
    }

    static Map<String, String> annotations() {
        Map<String, String> out = new LinkedHashMap<>();
        ProjectFiles.readYaml(bundle.resolve(BundleGenerator.ANNOTATIONS_FILE)).path("annotations").properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    @Test
    void bundleLayoutAndAnnotations() {
        for (String f : List.of(BundleGenerator.CSV_FILE, BundleGenerator.BUNDLE_CRD_FILE,
                BundleGenerator.ANNOTATIONS_FILE, BundleGenerator.DOCKERFILE, BundleGenerator.SCORECARD_FILE)) {
            assertTrue(Files.isRegularFile(bundle.resolve(f)), "bundle/" + f + " exists");
        }
        Map<String, String> a = annotations();
        assertEquals("registry+v1", a.get("operators.operatorframework.io.bundle.mediatype.v1"));
        assertEquals("manifests/", a.get("operators.operatorframework.io.bundle.manifests.v1"));
        assertEquals("metadata/", a.get("operators.operatorframework.io.bundle.metadata.v1"));
        assertEquals(BundleGenerator.PACKAGE, a.get("operators.operatorframework.io.bundle.package.v1"));
        List<String> channels = List.of(a.getOrDefault("operators.operatorframework.io.bundle.channels.v1", "").split(","));
        assertFalse(channels.isEmpty() || channels.get(0).isBlank(), "at least one channel");
        String defaultChannel = a.get("operators.operatorframework.io.bundle.channel.default.v1");
        assertTrue(channels.contains(defaultChannel), "default channel " + defaultChannel + " is one of " + channels);
        assertEquals("tests/scorecard/", a.get("operators.operatorframework.io.test.config.v1"));
    }

    @Test
    void dockerfileLabelsEqualTheAnnotations() throws Exception {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String line : Files.readAllLines(bundle.resolve(BundleGenerator.DOCKERFILE))) {
            if (line.startsWith("LABEL ")) {
                String kv = line.substring(6);
                labels.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        assertEquals(annotations(), labels);
    }

    @Test
    void csvRequiredFields() {
        assertEquals("operators.coreos.com/v1alpha1", csv.path("apiVersion").asText());
        assertEquals("ClusterServiceVersion", csv.path("kind").asText());
        JsonNode spec = csv.path("spec");
        String version = spec.path("version").asText();
        assertTrue(SEMVER.matcher(version).matches(), "spec.version is semver: " + version);
        assertEquals(BundleGenerator.PACKAGE + ".v" + version, csv.path("metadata").path("name").asText());
        assertEquals(projectVersion(), version, "CSV version is the project version (pom.xml)");
        for (String field : List.of("displayName", "description", "maturity", "minKubeVersion")) {
            assertFalse(spec.path(field).asText().isBlank(), "spec." + field);
        }
        assertTrue(SEMVER.matcher(spec.path("minKubeVersion").asText()).matches(), "minKubeVersion is semver");
        assertEquals("1.30.0", spec.path("minKubeVersion").asText(), "ValidatingAdmissionPolicy is GA since 1.30");
        assertFalse(spec.path("provider").path("name").asText().isBlank(), "spec.provider.name");
        assertTrue(spec.path("keywords").size() > 0, "keywords");
        assertTrue(spec.path("maintainers").size() > 0, "maintainers");
        for (JsonNode m : spec.path("maintainers")) {
            assertTrue(m.path("email").asText().matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+"), "maintainer email " + m);
            assertFalse(m.path("name").asText().isBlank(), "maintainer name");
        }
        for (JsonNode l : spec.path("links")) {
            assertTrue(l.path("url").asText().startsWith("https://"), "link url " + l);
        }
        JsonNode annotations = csv.path("metadata").path("annotations");
        assertTrue(CAPABILITIES.contains(annotations.path("capabilities").asText()), "capabilities level");
        for (String c : annotations.path("categories").asText().split(",")) {
            assertTrue(CATEGORIES.contains(c.trim()), "category " + c);
        }
        assertTrue(annotations.path("repository").asText().startsWith("https://"), "repository");
    }

    @Test
    void iconIsASmallBase64ImageOfAKnownType() {
        JsonNode icons = csv.path("spec").path("icon");
        assertEquals(1, icons.size(), "one icon");
        JsonNode icon = icons.get(0);
        assertTrue(ICON_TYPES.contains(icon.path("mediatype").asText()), "icon mediatype " + icon.path("mediatype"));
        byte[] data = Base64.getDecoder().decode(icon.path("base64data").asText());
        assertTrue(data.length > 0 && data.length < 16 * 1024, "icon size " + data.length);
        if (icon.path("mediatype").asText().equals("image/svg+xml")) {
            assertTrue(new String(data).startsWith("<svg"), "an SVG document");
        }
    }

    @Test
    void installModesAreAllNamespacesOnly() {
        Map<String, Boolean> modes = new LinkedHashMap<>();
        csv.path("spec").path("installModes").forEach(m -> modes.put(m.path("type").asText(), m.path("supported").asBoolean()));
        assertEquals(INSTALL_MODES, modes.keySet(), "all four install modes are declared");
        modes.forEach((type, supported) -> assertEquals(type.equals("AllNamespaces"), supported, type));
    }

    @Test
    void ownedCrdIsTheCrdInCrdsFolder() throws Exception {
        assertEquals(Files.readString(root.resolve("crds/" + BundleGenerator.CRD_FILE_NAME)),
                Files.readString(bundle.resolve(BundleGenerator.BUNDLE_CRD_FILE)),
                "bundle CRD must be crds/ unchanged: run `make bundle`");
        JsonNode owned = csv.path("spec").path("customresourcedefinitions").path("owned");
        assertEquals(1, owned.size(), "one owned CRD");
        JsonNode o = owned.get(0);
        assertEquals(crd.path("metadata").path("name").asText(), o.path("name").asText());
        assertEquals(crd.path("spec").path("names").path("kind").asText(), o.path("kind").asText());
        assertTrue(served(o.path("version").asText()) != null, "owned version is served by the CRD");
        assertFalse(o.path("displayName").asText().isBlank(), "owned CRD displayName");
        assertFalse(o.path("description").asText().isBlank(), "owned CRD description");
        assertFalse(csv.path("spec").path("customresourcedefinitions").has("required"), "no required CRDs");
    }

    static JsonNode served(String version) {
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(version) && v.path("served").asBoolean()) {
                return v;
            }
        }
        return null;
    }

    @Test
    void almExamplesParseMatchAnOwnedCrdAndValidateAgainstItsSchema() throws Exception {
        JsonNode examples = ProjectFiles.JSON.readTree(csv.path("metadata").path("annotations").path("alm-examples").asText());
        assertTrue(examples.isArray() && examples.size() > 0, "alm-examples is a non-empty JSON array");
        String group = crd.path("spec").path("group").asText();
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode example : examples) {
            String apiVersion = example.path("apiVersion").asText();
            String name = example.path("metadata").path("name").asText();
            assertTrue(names.add(name), "example names are unique: " + name);
            assertEquals(crd.path("spec").path("names").path("kind").asText(), example.path("kind").asText());
            assertTrue(apiVersion.startsWith(group + "/"), "example group: " + apiVersion);
            JsonNode version = served(apiVersion.substring(group.length() + 1));
            assertTrue(version != null, "example version is served: " + apiVersion);
            JsonNode schema = version.path("schema").path("openAPIV3Schema").path("properties").path("spec");
            SchemaCheck.check(example.path("spec"), schema).forEach(e -> problems.add(name + ": spec" + e));
            assertFalse(example.has("status"), "examples carry no status");
        }
        assertEquals(List.of(), problems, "alm-examples must be valid against the CRD schema");
        assertEquals(examples, ProjectFiles.JSON.readTree(BundleGenerator.almExamples(root)),
                "alm-examples are config/samples' safe samples: run `make bundle`");
        assertFalse(examples.toString().contains("unsafe-catch-all"), "the unsafe sample is never an example");
    }

    @Test
    void descriptorsPointIntoTheSchemaAndConditionsUseTheConditionsDescriptor() {
        JsonNode owned = csv.path("spec").path("customresourcedefinitions").path("owned").get(0);
        JsonNode schema = served(owned.path("version").asText()).path("schema").path("openAPIV3Schema").path("properties");
        for (String kind : List.of("spec", "status")) {
            JsonNode descriptors = owned.path(kind + "Descriptors");
            assertTrue(descriptors.size() > 0, kind + "Descriptors");
            Set<String> topLevel = new HashSet<>();
            for (JsonNode d : descriptors) {
                JsonNode p = schema.path(kind);
                for (String part : d.path("path").asText().split("\\.")) {
                    p = p.path("properties").path(part);
                }
                assertFalse(p.isMissingNode(), kind + " descriptor path " + d.path("path").asText() + " is in the schema");
                assertFalse(d.path("displayName").asText().isBlank(), "descriptor displayName " + d);
                topLevel.add(d.path("path").asText().split("\\.")[0]);
            }
            Set<String> schemaFields = new HashSet<>();
            schema.path(kind).path("properties").fieldNames().forEachRemaining(schemaFields::add);
            assertEquals(schemaFields, topLevel, "every top-level " + kind + " field has a descriptor (scorecard olm-"
                    + kind + "-descriptors)");
        }
        boolean conditions = false;
        for (JsonNode d : owned.path("statusDescriptors")) {
            if (d.path("path").asText().equals("conditions")) {
                conditions = d.path("x-descriptors").toString().contains(BundleGenerator.CONDITIONS_DESCRIPTOR);
            }
        }
        assertTrue(conditions, "status.conditions carries " + BundleGenerator.CONDITIONS_DESCRIPTOR);
        assertTrue(owned.path("resources").size() > 0, "owned resources (scorecard olm-crds-have-resources)");
    }

    @Test
    void installIsExactlyConfigRbacAndConfigManager() {
        JsonNode install = csv.path("spec").path("install");
        assertEquals("deployment", install.path("strategy").asText());
        Path rbac = root.resolve("config/rbac");
        String sa = ProjectFiles.find(rbac, "ServiceAccount").path("metadata").path("name").asText();
        JsonNode cluster = install.path("spec").path("clusterPermissions");
        assertEquals(1, cluster.size());
        assertEquals(sa, cluster.get(0).path("serviceAccountName").asText());
        assertEquals(ProjectFiles.find(rbac, "ClusterRole").path("rules"), cluster.get(0).path("rules"),
                "clusterPermissions are config/rbac's ClusterRole: run `make bundle`");
        assertEquals(InstallManifestsTest.EXPECTED_CLUSTER_GRANTS, InstallManifestsTest.grants(cluster.get(0).path("rules")));
        JsonNode ns = install.path("spec").path("permissions");
        assertEquals(1, ns.size());
        assertEquals(sa, ns.get(0).path("serviceAccountName").asText());
        assertEquals(ProjectFiles.find(rbac, "Role").path("rules"), ns.get(0).path("rules"),
                "permissions are config/rbac's leader-election Role: run `make bundle`");

        JsonNode deployments = install.path("spec").path("deployments");
        assertEquals(1, deployments.size());
        JsonNode manager = ProjectFiles.find(root.resolve("config/manager"), "Deployment");
        assertEquals(manager.path("metadata").path("name").asText(), deployments.get(0).path("name").asText());
        JsonNode podSpec = deployments.get(0).path("spec").path("template").path("spec");
        assertEquals(sa, podSpec.path("serviceAccountName").asText());
        String image = podSpec.path("containers").get(0).path("image").asText();
        assertEquals(image, csv.path("metadata").path("annotations").path("containerImage").asText(), "containerImage");
        assertEquals(image, csv.path("spec").path("relatedImages").get(0).path("image").asText(), "relatedImages");
        assertEquals(ProjectFiles.defaultImage(root), image, "the bundle uses config/manager's image");
        assertTrue(image.matches(".+:[0-9A-Za-z._-]+$|.+@sha256:[0-9a-f]{64}$"), "image has a tag or digest: " + image);
        JsonNode expected = manager.path("spec").deepCopy();
        com.fasterxml.jackson.databind.node.ObjectNode container =
                (com.fasterxml.jackson.databind.node.ObjectNode) expected.path("template").path("spec").path("containers").get(0);
        container.put("image", image);
        // OLM brings the webhook's certificate, so the operator's self-managed ones are off.
        ((com.fasterxml.jackson.databind.node.ArrayNode) container.path("env")).insertObject(0)
                .put("name", "APS_WEBHOOK_CERTIFICATES").put("value", "mounted");
        assertEquals(expected, deployments.get(0).path("spec"), "the CSV Deployment is config/manager's: run `make bundle`");
    }

    /**
     * OLM installs the operator's validating webhook from {@code webhookdefinitions} (and issues and rotates its
     * certificate): the same webhook as config/webhook's configuration, served by the CSV's
     * Deployment on a port it declares.
     */
    @Test
    void webhookDefinitionIsConfigWebhooksWebhook() {
        JsonNode definitions = csv.path("spec").path("webhookdefinitions");
        assertEquals(1, definitions.size(), "one webhook");
        JsonNode d = definitions.get(0);
        JsonNode source = ProjectFiles.readYaml(root.resolve(WebhookConfigurationTest.SOURCE)).path("webhooks").get(0);
        assertEquals("ValidatingAdmissionWebhook", d.path("type").asText());
        assertEquals(source.path("name").asText(), d.path("generateName").asText());
        assertEquals(source.path("clientConfig").path("service").path("path").asText(), d.path("webhookPath").asText());
        for (String field : List.of("admissionReviewVersions", "failurePolicy", "matchPolicy", "rules", "sideEffects",
                "timeoutSeconds")) {
            assertEquals(source.path(field), d.path(field), field);
        }
        JsonNode deployment = csv.path("spec").path("install").path("spec").path("deployments").get(0);
        assertEquals(deployment.path("name").asText(), d.path("deploymentName").asText());
        boolean declared = false;
        for (JsonNode p : deployment.path("spec").path("template").path("spec").path("containers").get(0).path("ports")) {
            declared |= p.path("containerPort").asInt() == d.path("targetPort").asInt();
        }
        assertTrue(declared, "the Deployment declares the webhook's target port " + d.path("targetPort"));
    }

    @Test
    void scorecardConfigIsTheSource() throws Exception {
        assertEquals(Files.readString(root.resolve("config/scorecard/config.yaml")),
                Files.readString(bundle.resolve(BundleGenerator.SCORECARD_FILE)));
        JsonNode config = ProjectFiles.readYaml(bundle.resolve(BundleGenerator.SCORECARD_FILE));
        assertEquals("Configuration", config.path("kind").asText());
    }

    static String projectVersion() {
        try {
            String pom = Files.readString(root.resolve("pom.xml"));
            var m = Pattern.compile("</modelVersion>\\s*<groupId>[^<]+</groupId>\\s*<artifactId>[^<]+</artifactId>\\s*<version>([^<]+)</version>")
                    .matcher(pom);
            assertTrue(m.find(), "project version in pom.xml");
            return m.group(1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
