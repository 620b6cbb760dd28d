package dev.policyset.aps.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.testing.kube.KubeBinaries;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native sets and pod-security-admission itself, side by side on one real kube-apiserver: each level's set at
 * the server's minor version is bound with {@code [Deny]} to a namespace of its own, and a second namespace carries
 * PSA's {@code pod-security.kubernetes.io/enforce=<level>} label at the same version. Every PSA fixture of that level
 * and version is created in both with a server-side dry run, and the two verdicts (allowed, or the status code) must
 * be the same; PSA's denial lists every failed check, the policy's the first one, which must be among them.
 */
@RealApiServer
class PodSecurityRealServerTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String LABEL = "aps.policyset.dev/pss-test";

    @Test
    void theNativeSetsAndPodSecurityAdmissionGiveTheSameVerdicts(KubeControlPlane plane) throws Exception {
        Path fixtures = PodSecurityFixturesTest.fetchedFixtures();
        int minor = KubeVersion.parse(KubeBinaries.version()).minor();
        assumeMinor(minor);
        KubernetesClient admin = plane.admin();
        List<GenericKubernetesResource> created = new ArrayList<>();
        try {
            StringBuilder figures = new StringBuilder();
            for (String level : PodSecuritySets.LEVELS) {
                String psa = "aps-pss-psa-" + level;
                String vap = "aps-pss-vap-" + level;
                admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(psa)
                        .addToLabels("pod-security.kubernetes.io/enforce", level)
                        .addToLabels("pod-security.kubernetes.io/enforce-version", "v1." + minor).endMetadata().build()).serverSideApply();
                admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(vap)
                        .addToLabels(LABEL, level).endMetadata().build()).serverSideApply();
                created.addAll(applySet(admin, level, minor));
                awaitPolicies(admin, vap, level);
                // the admission plugin loads each policy through its informer: one in effect does not mean all are, so
                // a policy that allows what PSA denies is asked again until this deadline (the other way round, never)
                Instant loaded = Instant.now().plus(Duration.ofSeconds(60));

                int fixturesRun = 0;
                int same = 0;
                Map<Integer, Integer> byCode = new TreeMap<>(); // the agreed answers: 0 allowed, 403 denied, 422 invalid
                List<String> different = new ArrayList<>();
                for (JsonNode v : PodSecurityFixturesTest.verdicts(fixtures)) {
                    if (!v.path("level").asText().equals(level) || !v.path("version").asText().equals("1." + minor)) {
                        continue;
                    }
                    JsonNode pod = YAML.readTree(fixtures.resolve("testdata").resolve(v.path("file").asText()).toFile());
                    Answer byPsa = dryRunCreate(admin, psa, pod);
                    Answer byPolicies = dryRunCreate(admin, vap, pod);
                    while (byPolicies.code() == 0 && byPsa.code() != 0 && Instant.now().isBefore(loaded)) {
                        Thread.sleep(250);
                        byPolicies = dryRunCreate(admin, vap, pod);
                    }
                    fixturesRun++;
                    boolean agree = byPsa.code() == byPolicies.code()
                            && (byPolicies.code() != 403 || byPsa.message().contains(firstCheckMessage(byPolicies.message())));
                    if (agree) {
                        same++;
                        byCode.merge(byPsa.code(), 1, Integer::sum);
                    } else {
                        different.add(v.path("file").asText() + ": PSA " + byPsa + "; policies " + byPolicies);
                    }
                }
                figures.append(String.format("  %-10s 1.%d: %d fixtures, %d same verdict (by code, 0 = allowed: %s), %d different%n",
                        level, minor, fixturesRun, same, byCode, different.size()));
                assertTrue(fixturesRun > 0, "no " + level + " fixtures for 1." + minor);
                assertEquals(List.of(), different, level + ": the set and PSA answer differently on the server");
            }
            System.out.print("pod-security sets vs pod-security-admission on kube-apiserver " + KubeBinaries.version() + ":\n" + figures);
        } finally {
            for (int i = created.size() - 1; i >= 0; i--) { // bindings before their policies
                admin.resource(created.get(i)).delete();
            }
            for (String level : PodSecuritySets.LEVELS) {
                admin.namespaces().withName("aps-pss-psa-" + level).delete();
                admin.namespaces().withName("aps-pss-vap-" + level).delete();
            }
        }
    }

    private static void assumeMinor(int minor) {
        org.junit.jupiter.api.Assumptions.assumeTrue(PodSecuritySets.MINORS.contains(minor),
                "the sets are written for 1." + PodSecuritySets.MINORS + ", the server is 1." + minor);
    }

    /** The set of the level at the version, with [Deny], its bindings limited to the namespace labelled for it. */
    private static List<GenericKubernetesResource> applySet(KubernetesClient admin, String level, int minor) throws Exception {
        ObjectNode set = (ObjectNode) YAML.readTree(PodSecuritySetsTest.DIR.resolve("v1." + minor).resolve(level + ".yaml").toFile());
        set.with("spec").with("defaults").putArray("validationActions").add("Deny");
        List<RenderedObject> objects = Renderer.render(PolicySetReader.read(set).set().orElseThrow(),
                RenderOptions.forKubeVersion(new KubeVersion(1, minor)));
        List<GenericKubernetesResource> applied = new ArrayList<>();
        for (AdmissionKind kind : List.of(AdmissionKind.VALIDATING_ADMISSION_POLICY, AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING)) {
            for (RenderedObject o : objects) {
                if (o.kind() != kind) {
                    continue;
                }
                ObjectNode manifest = o.manifest().deepCopy();
                if (kind == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING) {
                    // the server is shared with other suites: the Deny bindings must reach this test's namespace only
                    manifest.with("spec").with("matchResources").with("namespaceSelector").with("matchLabels").put(LABEL, level);
                }
                GenericKubernetesResource g = Serialization.unmarshal(manifest.toString(), GenericKubernetesResource.class);
                applied.add(admin.resource(g).serverSideApply());
            }
        }
        return applied;
    }

    /** The policies take effect once the server's informers hold them: wait until a host-network pod is denied by one of them. */
    private static void awaitPolicies(KubernetesClient admin, String namespace, String level) throws Exception {
        JsonNode probe = YAML.readTree("""
                apiVersion: v1
                kind: Pod
                metadata: {name: probe}
                spec: {hostNetwork: true, containers: [{name: c, image: registry.k8s.io/pause}]}""");
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        Answer last = null;
        while (Instant.now().isBefore(until)) {
            last = dryRunCreate(admin, namespace, probe);
            // any of the set's policies: the server asks them in its informer's order, not the set's
            if (last.code() == 403 && last.message().contains("ValidatingAdmissionPolicy 'pss-" + level + "-")) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the " + level + " policies did not take effect in 60 s; last answer: " + last);
    }

    /** 0 when allowed, else the status code and message. */
    record Answer(int code, String message) {
        @Override
        public String toString() {
            return code == 0 ? "allowed" : code + " " + message;
        }
    }

    private static Answer dryRunCreate(KubernetesClient admin, String namespace, JsonNode fixture) {
        ObjectNode pod = PodSecuritySetRunner.defaulted(fixture);
        pod.with("metadata").put("namespace", namespace);
        // fixture names are check IDs (capabilities_baseline0): not DNS names, which the server would refuse first
        pod.with("metadata").put("name", pod.path("metadata").path("name").asText().replace('_', '-').toLowerCase());
        GenericKubernetesResource g = Serialization.unmarshal(pod.toString(), GenericKubernetesResource.class);
        try {
            admin.resource(g).dryRun().create();
            return new Answer(0, "");
        } catch (KubernetesClientException e) {
            String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
            return new Answer(e.getCode(), message);
        }
    }

    /** {@code ... denied request: <reason> (<detail>)}: the check's own message, which PSA's denial also lists. */
    private static String firstCheckMessage(String policyDenial) {
        int at = policyDenial.indexOf("denied request: ");
        return at < 0 ? policyDenial : policyDenial.substring(at + "denied request: ".length());
    }
}
