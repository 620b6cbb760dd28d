package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Renders {@code kubectl kustomize config/default} (the complete install) and checks what a cluster admin
 * relies on: least-privilege RBAC, restricted Pod Security, probes, resources, metrics, the CRD from
 * {@code crds/}. Skips, saying why, when kubectl is not on the PATH (fails instead with
 * {@code -Daps.kubectl.required=true}, as in CI).
 */
class InstallManifestsTest {
    static final String NAMESPACE = "admission-policy-operator";
    static final String ADMISSION_GROUP = "admissionregistration.k8s.io";
    static final String GROUP = "admission.policyset.dev";
    /** SSA is a PATCH (authorized as create too when it creates); nothing PUTs the generated objects. */
    static final Set<String> CRUD = Set.of("get", "list", "watch", "create", "patch", "delete");

    /** The whole grant, one "group/resource:verb" per entry: a change here is a security review. */
    static final Set<String> EXPECTED_CLUSTER_GRANTS = new TreeSet<>();

    static {
        for (String r : List.of("validatingadmissionpolicies", "validatingadmissionpolicybindings",
                "mutatingadmissionpolicies", "mutatingadmissionpolicybindings",
                "validatingwebhookconfigurations", "mutatingwebhookconfigurations")) {
            CRUD.forEach(v -> EXPECTED_CLUSTER_GRANTS.add(ADMISSION_GROUP + "/" + r + ":" + v));
        }
        for (String v : List.of("get", "list", "watch", "update", "patch")) {
            EXPECTED_CLUSTER_GRANTS.add(GROUP + "/admissionpolicysets:" + v);
        }
        for (String v : List.of("get", "update", "patch")) {
            EXPECTED_CLUSTER_GRANTS.add(GROUP + "/admissionpolicysets/status:" + v);
        }
        EXPECTED_CLUSTER_GRANTS.add(GROUP + "/admissionpolicysets/finalizers:update");
        EXPECTED_CLUSTER_GRANTS.add("/events:create");
        // the impact scan's paged lists (aps.impact.kinds): list only, nothing is watched or cached
        for (String r : List.of("/namespaces", "/pods", "apps/deployments", "apps/statefulsets", "apps/daemonsets",
                "apps/replicasets", "batch/jobs", "batch/cronjobs")) {
            EXPECTED_CLUSTER_GRANTS.add(r + ":list");
        }
    }

    static List<JsonNode> install;

    @BeforeAll
    static void render() {
        var kubectl = ProjectFiles.kubectl();
        if (kubectl.isEmpty() && Boolean.getBoolean("aps.kubectl.required")) {
            throw new IllegalStateException("kubectl is not on the PATH and aps.kubectl.required is set (CI): "
                    + "install kubectl, which bundles kustomize");
        }
        assumeTrue(kubectl.isPresent(), "kubectl is not on the PATH: cannot render config/default (install kubectl, "
                + "which bundles kustomize, to run this check)");
        install = ProjectFiles.kustomize(kubectl.get(), ProjectFiles.root().resolve("config/default"));
    }

    static List<JsonNode> ofKind(String kind) {
        return install.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    /** The operator's own ClusterRole (the others are the aggregated roles for people). */
    static JsonNode operatorRole() {
        return install.stream().filter(o -> "ClusterRole".equals(o.path("kind").asText())
                && NAMESPACE.equals(o.path("metadata").path("name").asText())).findFirst().orElseThrow();
    }

    static JsonNode named(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(o.path("metadata").path("name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("config/default renders no " + kind + "/" + name));
    }

    static JsonNode one(String kind) {
        List<JsonNode> all = ofKind(kind);
        assertEquals(1, all.size(), "config/default should render exactly one " + kind);
        return all.get(0);
    }

    /** "group/resource:verb" for every rule; fails on wildcards and resourceNames-free surprises alike. */
    static Set<String> grants(JsonNode rules) {
        Set<String> out = new TreeSet<>();
        for (JsonNode rule : rules) {
            assertFalse(rule.has("nonResourceURLs"), "no nonResourceURLs: " + rule);
            for (JsonNode g : rule.path("apiGroups")) {
                for (JsonNode r : rule.path("resources")) {
                    for (JsonNode v : rule.path("verbs")) {
                        for (String s : List.of(g.asText(), r.asText(), v.asText())) {
                            assertFalse(s.contains("*"), "no wildcards in RBAC: " + rule);
                        }
                        out.add(g.asText() + "/" + r.asText() + ":" + v.asText());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void rendersExactlyTheInstallObjects() {
        List<String> kinds = install.stream().map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText())
                .sorted().collect(Collectors.toList());
        assertEquals(List.of(
                "ClusterRole/admission-policy-operator",
                "ClusterRole/admission-policy-operator-aps-admin",
                "ClusterRole/admission-policy-operator-aps-edit",
                "ClusterRole/admission-policy-operator-aps-view",
                "ClusterRole/admission-policy-operator-webhook-ca",
                "ClusterRoleBinding/admission-policy-operator",
                "ClusterRoleBinding/admission-policy-operator-webhook-ca",
                "CustomResourceDefinition/admissionpolicysets.admission.policyset.dev",
                "Deployment/admission-policy-operator",
                "Namespace/admission-policy-operator",
                "Role/admission-policy-operator-leader-election",
                "Role/admission-policy-operator-webhook-certificates",
                "RoleBinding/admission-policy-operator-leader-election",
                "RoleBinding/admission-policy-operator-webhook-certificates",
                "Secret/admission-policy-operator-webhook-tls",
                "Service/admission-policy-operator-metrics",
                "Service/admission-policy-operator-webhook",
                "ServiceAccount/admission-policy-operator",
                "ValidatingWebhookConfiguration/admission-policy-operator"), kinds);
        for (JsonNode o : install) {
            String kind = o.path("kind").asText();
            boolean clusterScoped = Set.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding",
                    "ValidatingWebhookConfiguration").contains(kind);
            assertEquals(clusterScoped ? "" : NAMESPACE, o.path("metadata").path("namespace").asText(),
                    kind + " namespace");
        }
        assertEquals("restricted", one("Namespace").path("metadata").path("labels")
                .path("pod-security.kubernetes.io/enforce").asText(), "namespace enforces restricted Pod Security");
    }

    @Test
    void crdIsTheGeneratedOneFromCrdsFolder() {
        JsonNode fromCrds = ProjectFiles.readAll(ProjectFiles.root().resolve("crds/" + BundleGenerator.CRD_FILE_NAME)).get(0);
        JsonNode installed = one("CustomResourceDefinition");
        assertTrue(ProjectFiles.sameValue(fromCrds.path("spec"), installed.path("spec")),
                "config/crd must install the CRD spec of crds/ unchanged");
        assertEquals("Cluster", fromCrds.path("spec").path("scope").asText());
    }

    @Test
    void clusterRoleIsExactlyTheReviewedLeastPrivilegeGrant() {
        assertEquals(EXPECTED_CLUSTER_GRANTS, grants(operatorRole().path("rules")));
    }

    /**
     * People get AdmissionPolicySets through the built-in view / edit / admin roles: reading for view, writing the
     * spec for edit, deletecollection on top for admin, and never the status (the operator's report). No
     * binding names these roles: aggregation is their only use.
     */
    @Test
    void aggregatedRolesGivePeopleViewEditAndAdminOnSets() {
        Map<String, Set<String>> byAggregation = new TreeMap<>();
        for (JsonNode role : ofKind("ClusterRole")) {
            if (role == operatorRole() || role == named("ClusterRole", "admission-policy-operator-webhook-ca")) {
                continue; // the operator's own (the second: webhook certificates, WebhookConfigurationTest)
            }
            List<String> labels = new ArrayList<>();
            role.path("metadata").path("labels").fields().forEachRemaining(e -> {
                if (e.getKey().startsWith("rbac.authorization.k8s.io/aggregate-to-") && "true".equals(e.getValue().asText())) {
                    labels.add(e.getKey().substring("rbac.authorization.k8s.io/aggregate-to-".length()));
                }
            });
            assertEquals(1, labels.size(), role.path("metadata").path("name").asText() + " aggregates into exactly one role");
            byAggregation.put(labels.get(0), grants(role.path("rules")));
            for (JsonNode binding : install) {
                assertFalse(binding.path("roleRef").path("name").asText().equals(role.path("metadata").path("name").asText()),
                        "aggregated roles are not bound");
            }
        }
        String sets = GROUP + "/admissionpolicysets:";
        Set<String> read = Set.of(sets + "get", sets + "list", sets + "watch");
        Set<String> view = new TreeSet<>(read);
        view.addAll(Set.of(GROUP + "/admissionpolicysets/status:get", GROUP + "/admissionpolicysets/status:list",
                GROUP + "/admissionpolicysets/status:watch"));
        Set<String> edit = new TreeSet<>(read);
        edit.addAll(Set.of(sets + "create", sets + "update", sets + "patch", sets + "delete"));
        Set<String> admin = new TreeSet<>(edit);
        admin.add(sets + "deletecollection");
        assertEquals(Map.of("view", view, "edit", edit, "admin", admin), byAggregation);
    }

    /** patch: fabric8 renews and releases the Lease with a JSON merge patch (PackagedOperatorRealServerIT). */
    @Test
    void leaderElectionIsANamespacedLeaseGrant() {
        assertEquals(Set.of("coordination.k8s.io/leases:get", "coordination.k8s.io/leases:create",
                "coordination.k8s.io/leases:update", "coordination.k8s.io/leases:patch"), grants(named("Role", "admission-policy-operator-leader-election").path("rules")));
    }

    @Test
    void bindingsGrantTheRolesToTheOperatorServiceAccountOnly() {
        String sa = one("ServiceAccount").path("metadata").path("name").asText();
        for (JsonNode binding : install.stream().filter(o -> o.path("kind").asText().endsWith("RoleBinding")).toList()) {
            String kind = binding.path("kind").asText();
            String roleKind = kind.equals("RoleBinding") ? "Role" : "ClusterRole";
            assertEquals(roleKind, binding.path("roleRef").path("kind").asText());
            // Each binding grants the role of its own name (webhook certificates, leader election, the operator's).
            named(roleKind, binding.path("roleRef").path("name").asText());
            assertEquals(binding.path("metadata").path("name").asText(), binding.path("roleRef").path("name").asText());
            assertEquals(1, binding.path("subjects").size(), kind + " subjects");
            JsonNode subject = binding.path("subjects").get(0);
            assertEquals("ServiceAccount", subject.path("kind").asText());
            assertEquals(sa, subject.path("name").asText());
            assertEquals(NAMESPACE, subject.path("namespace").asText(), kind + " subject namespace");
        }
        assertEquals(sa, pod().path("serviceAccountName").asText());
    }

    static JsonNode pod() {
        return one("Deployment").path("spec").path("template").path("spec");
    }

    static JsonNode container() {
        JsonNode containers = pod().path("containers");
        assertEquals(1, containers.size(), "one container");
        return containers.get(0);
    }

    @Test
    void podMeetsTheRestrictedPodSecurityStandard() {
        JsonNode podSc = pod().path("securityContext");
        JsonNode sc = container().path("securityContext");
        assertTrue(podSc.path("runAsNonRoot").asBoolean() || sc.path("runAsNonRoot").asBoolean(), "runAsNonRoot");
        assertFalse(podSc.has("runAsUser"), "no fixed runAsUser: OpenShift assigns one; the image's numeric USER 185 applies elsewhere");
        assertEquals("RuntimeDefault", podSc.path("seccompProfile").path("type").asText(), "pod seccomp");
        assertEquals("RuntimeDefault", sc.path("seccompProfile").path("type").asText(), "container seccomp");
        assertTrue(sc.path("readOnlyRootFilesystem").asBoolean(), "readOnlyRootFilesystem");
        assertFalse(sc.path("allowPrivilegeEscalation").asBoolean(true), "allowPrivilegeEscalation false");
        assertEquals("[\"ALL\"]", sc.path("capabilities").path("drop").toString(), "drop ALL");
        assertFalse(sc.path("capabilities").has("add"), "no added capabilities");
        assertFalse(sc.path("privileged").asBoolean(false), "not privileged");
        for (String hostField : List.of("hostNetwork", "hostPID", "hostIPC")) {
            assertFalse(pod().path(hostField).asBoolean(false), hostField);
        }
        for (JsonNode volume : pod().path("volumes")) {
            assertFalse(volume.has("hostPath"), "no hostPath volumes");
        }
    }

    @Test
    void readOnlyRootFilesystemHasAWritableTmp() {
        String volume = null;
        for (JsonNode m : container().path("volumeMounts")) {
            if ("/tmp".equals(m.path("mountPath").asText())) {
                volume = m.path("name").asText();
            }
        }
        assertTrue(volume != null, "/tmp is mounted");
        boolean emptyDir = false;
        for (JsonNode v : pod().path("volumes")) {
            emptyDir |= v.path("name").asText().equals(volume) && v.has("emptyDir");
        }
        assertTrue(emptyDir, "/tmp is an emptyDir");
    }

    @Test
    void probesUseTheQuarkusHealthEndpoints() {
        JsonNode c = container();
        assertEquals("/q/health/live", c.path("livenessProbe").path("httpGet").path("path").asText());
        assertEquals("/q/health/ready", c.path("readinessProbe").path("httpGet").path("path").asText());
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            String port = c.path(probe).path("httpGet").path("port").asText();
            assertEquals(8080, containerPort(port), probe + " port");
        }
    }

    @Test
    void metricsAreServedOnTheHttpPort() {
        JsonNode annotations = one("Deployment").path("spec").path("template").path("metadata").path("annotations");
        assertEquals("/q/metrics", annotations.path("prometheus.io/path").asText());
        assertEquals("8080", annotations.path("prometheus.io/port").asText());
        JsonNode service = named("Service", "admission-policy-operator-metrics");
        assertEquals("http", service.path("spec").path("ports").get(0).path("targetPort").asText());
        assertEquals(one("Deployment").path("spec").path("selector").path("matchLabels"), service.path("spec").path("selector"));
    }

    @Test
    void resourcesAreRequestedAndLimited() {
        JsonNode resources = container().path("resources");
        for (String kind : List.of("requests", "limits")) {
            for (String r : List.of("cpu", "memory")) {
                assertFalse(resources.path(kind).path(r).asText().isEmpty(), "resources." + kind + "." + r);
            }
        }
    }

    @Test
    void imageIsTheOneConfigManagerSets() {
        assertEquals(ProjectFiles.defaultImage(ProjectFiles.root()), container().path("image").asText());
    }

    static int containerPort(String nameOrNumber) {
        for (JsonNode p : container().path("ports")) {
            if (p.path("name").asText().equals(nameOrNumber) || p.path("containerPort").asText().equals(nameOrNumber)) {
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port " + nameOrNumber);
    }

    @Test
    void samplesKustomizationInstallsOnlySafeSamples() {
        List<String> names = new ArrayList<>();
        for (JsonNode o : ProjectFiles.kustomize(ProjectFiles.kubectl().orElseThrow(), ProjectFiles.root().resolve("config/samples"))) {
            assertEquals("AdmissionPolicySet", o.path("kind").asText());
            names.add(o.path("metadata").path("name").asText());
        }
        assertFalse(names.isEmpty());
        assertFalse(ProjectFiles.kustomizationResources(ProjectFiles.root().resolve("config/samples"))
                .contains(ProjectFiles.root().resolve("config/samples/unsafe-fail-closed-webhook.yaml")),
                "the deliberately unsafe sample must never be installed");
    }
}
