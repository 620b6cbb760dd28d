package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.BindingImpactStatus;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.cli.ApsCommand;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator's impact scan on a real kube-apiserver, as its ServiceAccount (config/rbac: list on the scanned kinds,
 * no watch): paged lists of 2 objects give the counts the CLI's {@code aps impact} gives over the same objects; status
 * shows the progress fields and Finished; and a scan made long by many two-object pages (no sleeps) does not hold
 * back a spec change: the reconcile applies the new generation while the scan is still Running.
 */
@QuarkusTest
@TestProfile(ImpactScanRealServerTest.Paged.class)
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ImpactScanRealServerTest {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "scan-shop";
    private static final List<String> CREATED = new ArrayList<>();

    /** Pages of 2, progress every 200 ms; one scan per generation (the interval is longer than the test). */
    public static final class Paged implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("aps.impact.enabled", "true", "aps.impact.interval", "PT1H", "aps.impact.page-size", "2",
                    "aps.impact.progress-interval", "PT0.2S", "aps.impact.kinds", "v1/Namespace,apps/v1/Deployment");
        }
    }

    @jakarta.inject.Inject
    ImpactScans scans;

    private final KubeControlPlane plane = KubeControlPlane.shared();
    private final KubernetesClient admin = plane.admin();

    @AfterAll
    static void deleteSets() {
        Sets.deleteAndWait(KubeControlPlane.shared().admin(), CREATED, WAIT);
    }

    private static String set(String name, String message) {
        return """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: %s}
                spec:
                  defaults: {validationActions: [Warn, Audit]}
                  validatingPolicies:
                  - name: %s-team
                    policy:
                      matchConstraints:
                        resourceRules:
                        - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                      validations:
                      - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                        message: "%s"
                  - name: %s-replicas
                    policy:
                      matchConstraints:
                        resourceRules:
                        - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                        namespaceSelector: {matchLabels: {tier: prod}}
                      validations:
                      - expression: "object.spec.replicas <= 3"
                """.formatted(name, name, message, name);
    }

    @Test
    @Order(1)
    void pagedScanCountsWhatTheCliCountsAndStatusShowsItFinished() throws Exception {
        admin.resource(new NamespaceBuilder().withNewMetadata().withName(NS).addToLabels("tier", "prod").endMetadata().build())
                .create();
        for (int i = 0; i < 23; i++) {
            admin.resource(deployment(NS, "d" + i, i % 3 == 0 ? null : "t", 1 + i % 5)).create();
        }
        AdmissionPolicySet set = create(set("paged", "team label required"));

        ImpactStatus impact = awaitImpact("paged", i -> "Finished".equals(i.getState()) && Long.valueOf(1).equals(i.getGeneration()));
        assertNotNull(impact.getStartedAt());
        assertNotNull(impact.getFinishedAt());
        assertEquals(impact.getObjects(), impact.getScanned(), "every object read was evaluated (no limit)");
        assertNull(impact.getOmitted());
        assertNull(impact.getInconsistent());
        // objects of both kinds in pages of 2: at least half as many pages as objects
        assertTrue(impact.getPages() >= (impact.getObjects() + 1) / 2, impact.getPages() + " pages, " + impact.getObjects());

        // the CLI over the same objects, as the API server returns them
        Path dir = Files.createTempDirectory("scan-real");
        Files.writeString(dir.resolve("set.yaml"), set("paged", "team label required"));
        List<HasMetadata> objects = new ArrayList<>();
        admin.namespaces().list().getItems().forEach(n -> objects.add(withKind(n, "v1", "Namespace")));
        admin.apps().deployments().inAnyNamespace().list().getItems().forEach(d -> objects.add(withKind(d, "apps/v1", "Deployment")));
        assertEquals(objects.size(), impact.getObjects().intValue(), "the scan read every Namespace and Deployment");
        Files.writeString(dir.resolve("objects.yaml"), Serialization.asYaml(new io.fabric8.kubernetes.api.model.KubernetesListBuilder()
                .withItems(objects).build()));
        JsonNode cli = cliImpact(dir.resolve("objects.yaml"), dir.resolve("set.yaml"));
        assertEquals(impact.getObjects().intValue(), cli.path("objects").asInt());
        assertEquals(2, impact.getBindings().size());
        for (BindingImpactStatus row : impact.getBindings()) {
            JsonNode expected = null;
            for (JsonNode b : cli.path("bindings")) {
                if (b.path("binding").asText().equals(row.getBinding())) {
                    expected = b;
                }
            }
            assertNotNull(expected, row.getBinding() + " in " + cli);
            assertEquals(expected.path("matched").asInt(), row.getMatched().intValue(), row.getBinding());
            assertEquals(expected.path("deniedUnderDeny").asInt(), row.getViolations().intValue(), row.getBinding());
            assertEquals(expected.path("errors").asInt(), row.getErrors().intValue(), row.getBinding());
            assertEquals(Boolean.TRUE, row.getComplete());
        }
        // the counts are not trivially equal: 8 of 23 have no team label; d3, d4, d8, ... run over 3 replicas
        assertEquals(8, byBinding(impact, "paged-team-binding").getViolations());
        assertEquals(23, byBinding(impact, "paged-replicas-binding").getMatched());
        assertTrue(byBinding(impact, "paged-replicas-binding").getViolations() > 0);
        assertEquals(set.getMetadata().getUid(), admin.resources(AdmissionPolicySet.class).withName("paged").get().getMetadata().getUid());
    }

    @Test
    @Order(2)
    void aSpecChangeIsAppliedWhileALongScanRuns() {
        // 800 more Deployments in pages of 2: over 400 list requests, each page evaluated before the next
        String ns = "scan-many";
        admin.resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        for (int i = 0; i < 800; i++) {
            admin.resource(deployment(ns, "m" + i, "t", 1)).create();
        }
        create(set("other", "generation one"));
        awaitImpact("other", i -> "Finished".equals(i.getState()));

        // a spec change of "paged": a new generation, so a new scan over every object
        changeSpec("paged", set("paged", "team label required (generation two)"));
        ImpactStatus running = awaitImpact("paged", i -> "Running".equals(i.getState()));
        assertEquals(1L, running.getGeneration(), "while it runs, the counts are the last finished scan's");

        // paged's own spec changes during that scan: applied at once, generation 2's scan abandoned, generation 3 scanned
        int abandonedBefore = scans.abandoned();
        changeSpec("paged", set("paged", "generation three"));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> message("paged-team").equals("generation three"));
        await().atMost(WAIT).until(() -> scans.abandoned() == abandonedBefore + 1);
        awaitImpact("paged", i -> "Running".equals(i.getState()));

        // another set's spec changes during generation 3's scan: its reconcile applies without waiting for the scan
        changeSpec("other", set("other", "generation two"));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> message("other-team").equals("generation two"));
        ImpactStatus meanwhile = admin.resources(AdmissionPolicySet.class).withName("paged").get().getStatus().getImpact();
        assertEquals("Running", meanwhile.getState(), "the scan of paged was still running when other's change was applied");
        assertTrue(meanwhile.getScanned() < 800, meanwhile.getScanned() + " objects read so far");

        ImpactStatus done = awaitImpact("paged", i -> "Finished".equals(i.getState()) && Long.valueOf(3).equals(i.getGeneration()));
        assertEquals(abandonedBefore + 1, scans.abandoned(), "generation 3's scan finished, only generation 2's was abandoned");
        assertTrue(done.getScanned() > 800, done.getScanned() + " objects");
        assertTrue(done.getPages() > 400, done.getPages() + " pages");
        // and the other set's new generation is scanned after it
        awaitImpact("other", i -> "Finished".equals(i.getState()) && Long.valueOf(2).equals(i.getGeneration()));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private AdmissionPolicySet create(String yaml) {
        AdmissionPolicySet set = Sets.parse(yaml);
        CREATED.add(set.getMetadata().getName());
        return admin.resource(set).create();
    }

    private void changeSpec(String name, String yaml) {
        AdmissionPolicySet next = Sets.parse(yaml);
        SetStatus.edit(admin, name, s -> {
            s.setSpec(next.getSpec());
            return s;
        });
    }

    private ImpactStatus awaitImpact(String set, Predicate<ImpactStatus> done) {
        return await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            AdmissionPolicySet s = admin.resources(AdmissionPolicySet.class).withName(set).get();
            return s == null || s.getStatus() == null ? null : s.getStatus().getImpact();
        }, i -> i != null && done.test(i));
    }

    private static BindingImpactStatus byBinding(ImpactStatus impact, String binding) {
        return impact.getBindings().stream().filter(b -> b.getBinding().equals(binding)).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private String message(String policy) {
        GenericKubernetesResource live = admin.genericKubernetesResources(
                ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1")).withName(policy).get();
        if (live == null) {
            return "";
        }
        Map<String, Object> spec = (Map<String, Object>) live.getAdditionalProperties().get("spec");
        return String.valueOf(((List<Map<String, Object>>) spec.get("validations")).get(0).get("message"));
    }

    private static <T extends HasMetadata> T withKind(T o, String apiVersion, String kind) {
        o.setApiVersion(apiVersion);
        if (o instanceof io.fabric8.kubernetes.api.model.Namespace n) {
            n.setKind(kind);
        } else if (o instanceof Deployment d) {
            d.setKind(kind);
        }
        return o;
    }

    private static JsonNode cliImpact(Path objects, Path set) throws Exception {
        PrintStream oldOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            ApsCommand.execute("impact", "--resources", objects.toString(), "--output", "json", set.toString());
        } finally {
            System.setOut(oldOut);
        }
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    private static Deployment deployment(String ns, String name, String team, int replicas) {
        DeploymentBuilder b = new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("registry.example/app:1").endContainer().endSpec()
                .endTemplate().endSpec();
        if (team != null) {
            b.editMetadata().addToLabels("team", team).endMetadata();
        }
        return b.build();
    }
}
