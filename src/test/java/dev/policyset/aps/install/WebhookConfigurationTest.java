package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.cli.ApsCommand;
import dev.policyset.aps.operator.webhook.ServingCertificate;
import dev.policyset.aps.operator.webhook.WebhookServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The operator's own ValidatingWebhookConfiguration and its cert-manager component: our own safety rules have
 * nothing to say about it (`aps validate` as a user would run it), it is narrow and fails open, and
 * {@code config/with-cert-manager} wires Service, port, path, certificate and mount to what the operator serves.
 * The rendering checks need kubectl (skipped without it, failed with {@code -Daps.kubectl.required=true}).
 */
class WebhookConfigurationTest {
    static final Path SOURCE = Path.of("config/webhook/validating_webhook.yaml");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void ourOwnRulesFindNothingInTheWebhookConfiguration() throws Exception {
        JsonNode report = validate(SOURCE);
        assertEquals(0, report.path("summary").path("errors").asInt(), report.toPrettyString());
        assertEquals(0, report.path("summary").path("warnings").asInt(), report.toPrettyString());
        assertEquals(0, report.path("findings").size(), report.toPrettyString());
        assertEquals(1, report.path("summary").path("objects").asInt());
    }

    @Test
    void theRenderedInstallsPassOurOwnRulesToo(@TempDir Path dir) throws Exception {
        for (String variant : List.of("config/default", "config/with-cert-manager")) {
            renderedInstallPassesOurOwnRules(variant, dir.resolve(variant.replace('/', '-') + ".yaml"));
        }
    }

    private static void renderedInstallPassesOurOwnRules(String variant, Path file) throws Exception {
        List<JsonNode> install = render(variant);
        StringBuilder all = new StringBuilder();
        for (JsonNode o : install) {
            all.append("---\n").append(ProjectFiles.writeYaml(o));
        }
        Files.writeString(file, all.toString());
        JsonNode report = validate(file);
        assertEquals(0, report.path("summary").path("errors").asInt(), report.toPrettyString());
        assertEquals(0, report.path("summary").path("warnings").asInt(), report.toPrettyString());
        assertEquals(1, report.path("summary").path("objects").asInt(), "one admission object: the webhook configuration");
    }

    @Test
    void theWebhookIsNarrowFailsOpenAndIsShort() {
        JsonNode webhook = ProjectFiles.readYaml(ProjectFiles.root().resolve(SOURCE)).path("webhooks");
        assertEquals(1, webhook.size());
        JsonNode w = webhook.get(0);
        assertEquals("Ignore", w.path("failurePolicy").asText(), "fail open: the reconciler still refuses a bad set");
        assertTrue(w.path("timeoutSeconds").asInt() >= 1 && w.path("timeoutSeconds").asInt() <= 5, "short timeout");
        assertEquals("None", w.path("sideEffects").asText());
        assertEquals("Equivalent", w.path("matchPolicy").asText());
        assertEquals("[\"v1\"]", w.path("admissionReviewVersions").toString());
        assertEquals(1, w.path("rules").size());
        JsonNode rule = w.path("rules").get(0);
        assertEquals("[\"admission.policyset.dev\"]", rule.path("apiGroups").toString());
        assertEquals("[\"admissionpolicysets\"]", rule.path("resources").toString(), "sets only, not their status");
        assertEquals("[\"CREATE\",\"UPDATE\"]", rule.path("operations").toString());
        assertEquals(WebhookServer.PATH, w.path("clientConfig").path("service").path("path").asText());
        assertFalse(w.has("objectSelector") || w.has("namespaceSelector"), "no label-based way around it");
    }

    /**
     * config/without-webhook (the Helm chart's webhook.mode=off) is config/default without the webhook's seven
     * objects, and tells the operator not to start the webhook, so it neither waits for a Secret nor listens.
     */
    @Test
    void withoutWebhookIsConfigDefaultMinusTheWebhookWithTheWebhookTurnedOff() {
        List<JsonNode> plain = render("config/default");
        List<JsonNode> without = render("config/without-webhook");
        Set<String> removed = new TreeSet<>(ids(plain));
        removed.removeAll(ids(without));
        assertEquals(Set.of("Service/admission-policy-operator-webhook",
                "ValidatingWebhookConfiguration/admission-policy-operator", "Secret/admission-policy-operator-webhook-tls",
                "Role/admission-policy-operator-webhook-certificates", "RoleBinding/admission-policy-operator-webhook-certificates",
                "ClusterRole/admission-policy-operator-webhook-ca", "ClusterRoleBinding/admission-policy-operator-webhook-ca"), removed);
        assertTrue(ids(plain).containsAll(ids(without)), "nothing added: " + ids(without));
        assertEquals(Map.of("APS_WEBHOOK_ENABLED", "false"), webhookEnv(without));
    }

    /**
     * config/default installs the webhook with self-managed certificates; config/with-cert-manager swaps the Secret
     * and its by-name grants for cert-manager's Issuer and Certificate and turns the self-managed mode off;
     * config/with-webhook (the old path) is config/with-cert-manager.
     */
    @Test
    void bothVariantsBuildAndDifferOnlyInWhereTheCertificateComesFrom() {
        List<JsonNode> plain = render("config/default");
        List<JsonNode> withWebhook = render("config/with-cert-manager");
        assertEquals(1, plain.stream().filter(o -> o.path("kind").asText().equals("ValidatingWebhookConfiguration")).count(),
                "config/default installs the webhook (no cert-manager needed)");
        Set<String> added = new TreeSet<>(ids(withWebhook));
        added.removeAll(ids(plain));
        assertEquals(Set.of("Certificate/admission-policy-operator-webhook", "Issuer/admission-policy-operator-selfsigned"), added);
        Set<String> removed = new TreeSet<>(ids(plain));
        removed.removeAll(ids(withWebhook));
        assertEquals(Set.of("Secret/admission-policy-operator-webhook-tls",
                "Role/admission-policy-operator-webhook-certificates", "RoleBinding/admission-policy-operator-webhook-certificates",
                "ClusterRole/admission-policy-operator-webhook-ca", "ClusterRoleBinding/admission-policy-operator-webhook-ca"), removed);
        assertEquals(Map.of(), webhookEnv(plain), "config/default: the operator's default, self-managed");
        assertEquals(Map.of("APS_WEBHOOK_CERTIFICATES", "mounted"), webhookEnv(withWebhook));
        assertEquals(withWebhook, render("config/with-webhook"), "the old path renders the same install");
        for (JsonNode o : withWebhook) {
            String kind = o.path("kind").asText();
            if (!Set.of("ValidatingWebhookConfiguration", "Namespace", "CustomResourceDefinition", "ClusterRole",
                    "ClusterRoleBinding").contains(kind)) {
                assertEquals(InstallManifestsTest.NAMESPACE, o.path("metadata").path("namespace").asText(), kind);
            }
        }
    }

    @Test
    void serviceCertificateAndMountMeetWhatTheOperatorServes() throws Exception {
        List<JsonNode> install = render("config/with-cert-manager");
        String ns = InstallManifestsTest.NAMESPACE;
        JsonNode webhook = one(install, "ValidatingWebhookConfiguration").path("webhooks").get(0);
        JsonNode service = one(install, "Service", "admission-policy-operator-webhook");
        JsonNode certificate = one(install, "Certificate");
        JsonNode deployment = one(install, "Deployment");

        JsonNode ref = webhook.path("clientConfig").path("service");
        assertEquals(service.path("metadata").path("name").asText(), ref.path("name").asText());
        assertEquals(ns, ref.path("namespace").asText());
        JsonNode port = service.path("spec").path("ports").get(0);
        assertEquals(ref.path("port").asInt(), port.path("port").asInt());
        assertEquals(deployment.path("spec").path("selector").path("matchLabels"), service.path("spec").path("selector"));

        JsonNode container = deployment.path("spec").path("template").path("spec").path("containers").get(0);
        int containerPort = -1;
        for (JsonNode p : container.path("ports")) {
            if (p.path("name").asText().equals(port.path("targetPort").asText())) {
                containerPort = p.path("containerPort").asInt();
            }
        }
        Properties properties = new Properties();
        try (var in = Files.newInputStream(ProjectFiles.root().resolve("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        assertEquals(Integer.parseInt(properties.getProperty("aps.webhook.port")), containerPort,
                "the Service's target port is the port the operator listens on");

        assertEquals(ns + "/" + certificate.path("metadata").path("name").asText(),
                one(install, "ValidatingWebhookConfiguration").path("metadata").path("annotations")
                        .path("cert-manager.io/inject-ca-from").asText(), "cert-manager injects this Certificate's CA");
        List<String> dnsNames = new ArrayList<>();
        certificate.path("spec").path("dnsNames").forEach(n -> dnsNames.add(n.asText()));
        assertTrue(dnsNames.contains(service.path("metadata").path("name").asText() + "." + ns + ".svc"),
                "the API server calls <service>.<namespace>.svc: " + dnsNames);

        String secret = certificate.path("spec").path("secretName").asText();
        String volume = null;
        for (JsonNode v : deployment.path("spec").path("template").path("spec").path("volumes")) {
            if (secret.equals(v.path("secret").path("secretName").asText())) {
                volume = v.path("name").asText();
            }
        }
        assertTrue(volume != null, "the Deployment mounts the Certificate's Secret");
        String mountPath = null;
        for (JsonNode m : container.path("volumeMounts")) {
            if (m.path("name").asText().equals(volume)) {
                mountPath = m.path("mountPath").asText();
                assertTrue(m.path("readOnly").asBoolean(), "read-only mount");
            }
        }
        assertEquals(ServingCertificate.DEFAULT_LOCATIONS.get(0).get(0).getParent().toString(), mountPath,
                "mounted where the operator looks first");
    }

    /**
     * The self-managed pieces of config/default name what the operator's defaults name: the Secret it fills, the
     * configuration it injects into, the Service its certificate is for; the grants are by those names only.
     */
    @Test
    void selfManagedCertificatesAgreeWithTheOperatorsDefaults() throws Exception {
        List<JsonNode> install = render("config/default");
        Properties p = new Properties();
        try (var in = Files.newInputStream(ProjectFiles.root().resolve("src/main/resources/application.properties"))) {
            p.load(in);
        }
        assertEquals("self-managed", p.getProperty("aps.webhook.certificates"));
        String secret = p.getProperty("aps.webhook.self-managed.secret");
        String configuration = p.getProperty("aps.webhook.self-managed.configuration");
        JsonNode s = one(install, "Secret", secret);
        assertEquals(InstallManifestsTest.NAMESPACE, s.path("metadata").path("namespace").asText());
        assertFalse(s.has("data") || s.has("stringData"), "installed empty: applying it again keeps the certificates");
        one(install, "ValidatingWebhookConfiguration", configuration);
        one(install, "Service", p.getProperty("aps.webhook.self-managed.service"));
        JsonNode role = one(install, "Role", "admission-policy-operator-webhook-certificates");
        assertEquals(Set.of("/secrets:get@" + secret, "/secrets:update@" + secret), grantsByName(role));
        JsonNode clusterRole = one(install, "ClusterRole", "admission-policy-operator-webhook-ca");
        assertEquals(Set.of("admissionregistration.k8s.io/validatingwebhookconfigurations:get@" + configuration,
                "admissionregistration.k8s.io/validatingwebhookconfigurations:patch@" + configuration), grantsByName(clusterRole));
        for (String binding : List.of("RoleBinding", "ClusterRoleBinding")) {
            JsonNode b = one(install, binding, binding.equals("RoleBinding") ? "admission-policy-operator-webhook-certificates"
                    : "admission-policy-operator-webhook-ca");
            assertEquals("[{\"kind\":\"ServiceAccount\",\"name\":\"admission-policy-operator\",\"namespace\":\""
                    + InstallManifestsTest.NAMESPACE + "\"}]", b.path("subjects").toString(), binding);
        }
    }

    /** Each rule's grants as group/resource:verb@name: a rule without resourceNames would show no @. */
    private static Set<String> grantsByName(JsonNode role) {
        Set<String> out = new TreeSet<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode g : rule.path("apiGroups")) {
                for (JsonNode r : rule.path("resources")) {
                    for (JsonNode v : rule.path("verbs")) {
                        if (rule.path("resourceNames").isEmpty()) {
                            out.add(g.asText() + "/" + r.asText() + ":" + v.asText());
                        }
                        for (JsonNode n : rule.path("resourceNames")) {
                            out.add(g.asText() + "/" + r.asText() + ":" + v.asText() + "@" + n.asText());
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The Deployment's APS_WEBHOOK_* environment: how the overlay configures the operator's webhook. */
    private static Map<String, String> webhookEnv(List<JsonNode> install) {
        Map<String, String> out = new java.util.HashMap<>();
        for (JsonNode e : one(install, "Deployment").at("/spec/template/spec/containers/0/env")) {
            if (e.path("name").asText().startsWith("APS_WEBHOOK_")) {
                out.put(e.path("name").asText(), e.path("value").asText());
            }
        }
        return out;
    }

    static List<JsonNode> render(String dir) {
        var kubectl = ProjectFiles.kubectl();
        if (kubectl.isEmpty() && Boolean.getBoolean("aps.kubectl.required")) {
            throw new IllegalStateException("kubectl is not on the PATH and aps.kubectl.required is set (CI)");
        }
        assumeTrue(kubectl.isPresent(), "kubectl is not on the PATH: cannot render " + dir);
        return ProjectFiles.kustomize(kubectl.get(), ProjectFiles.root().resolve(dir));
    }

    private static Set<String> ids(List<JsonNode> objects) {
        Set<String> out = new TreeSet<>();
        objects.forEach(o -> out.add(o.path("kind").asText() + "/" + o.path("metadata").path("name").asText()));
        return out;
    }

    private static JsonNode one(List<JsonNode> objects, String kind) {
        List<JsonNode> all = objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
        assertEquals(1, all.size(), kind);
        return all.get(0);
    }

    private static JsonNode one(List<JsonNode> objects, String kind, String name) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())
                && name.equals(o.path("metadata").path("name").asText())).findFirst().orElseThrow();
    }

    /** {@code aps validate --output json FILE}, as a user would run it; fails on any exit but 0. */
    static JsonNode validate(Path file) throws Exception {
        Aps run = aps("validate", "--output", "json", file.toString());
        ObjectNode report = (ObjectNode) JSON.readTree(run.out());
        assertEquals(0, run.exit(), report.toPrettyString());
        return report;
    }

    /** One CLI run: its exit code and what it printed. */
    record Aps(int exit, String out) {}

    static Aps aps(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            return new Aps(ApsCommand.execute(args), out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }
}
