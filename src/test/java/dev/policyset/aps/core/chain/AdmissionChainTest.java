package dev.policyset.aps.core.chain;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Verdict;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chain of one request: order, matched / not reached / undecided steps, and the worst-case latency. */
class AdmissionChainTest {
    static List<RenderedObject> objects(String yaml) {
        List<RenderedObject> out = new ArrayList<>();
        try {
            for (var d : Yaml.parse("t.yaml", yaml)) {
                out.add(new RenderedObject(AdmissionKind.fromKind(d.kind()).orElseThrow(), d.apiVersion(), d.name(),
                        (ObjectNode) d.content(), ""));
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return out;
    }

    private static final String PODS = "rules: [{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}]";

    // Configuration names out of order on purpose: the API server sorts configurations by name.
    private static final String WEBHOOKS = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata: {name: zz-last}
            webhooks:
              - name: z1.example.com
                %s
                timeoutSeconds: 5
                reinvocationPolicy: IfNeeded
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata: {name: aa-first}
            webhooks:
              - name: a2.example.com
                %s
                failurePolicy: Ignore
                timeoutSeconds: 3
              - name: a1.example.com
                %s
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata: {name: checks}
            webhooks:
              - name: fast.example.com
                %s
                timeoutSeconds: 2
              - name: slow.example.com
                %s
                timeoutSeconds: 7
                matchConditions:
                  - {name: not-nodes, expression: "!request.userInfo.username.startsWith('system:node:')"}
              - name: deployments.example.com
                rules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                timeoutSeconds: 30
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: no-privileged}
            spec:
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              validations: [{expression: "true"}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: no-privileged-prod}
            spec:
              policyName: no-privileged
              validationActions: [Deny, Audit]
              matchResources:
                namespaceSelector: {matchLabels: {env: prod}}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: unbound}
            spec:
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              validations: [{expression: "true"}]
            """.formatted(PODS, PODS, PODS, PODS, PODS);

    private static AdmissionRequest podCreate(Map<String, String> nsLabels) {
        return AdmissionRequest.of("", "v1", "pods", Operation.CREATE).inNamespace("team-a", nsLabels);
    }

    private static List<String> names(List<ChainStep> steps) {
        return steps.stream().map(ChainStep::name).toList();
    }

    @Test
    void stepsFollowTheApiServerOrder() {
        AdmissionChain.Result r = AdmissionChain.of(objects(WEBHOOKS), podCreate(Map.of("env", "prod")));
        assertEquals(List.of("NamespaceLifecycle", "LimitRanger", "ServiceAccount", "Priority", "DefaultTolerationSeconds",
                        "RuntimeClass", "PodTopologyLabels", "a2.example.com", "a1.example.com", "z1.example.com",
                        "reinvocation round", "schema and strategy validation", "LimitRanger", "ServiceAccount",
                        "PodSecurity", "RuntimeClass", "no-privileged", "fast.example.com", "slow.example.com",
                        "ResourceQuota"),
                names(r.steps()), "built-in plugins in AllOrderedPlugins order, configurations by name, webhooks in list order");
        ChainStep a2 = r.steps().get(7);
        assertEquals("Ignore", a2.failurePolicy());
        assertEquals(3, a2.timeoutSeconds());
        ChainStep a1 = r.steps().get(8);
        assertEquals("Fail", a1.failurePolicy(), "the API server's default");
        assertEquals(10, a1.timeoutSeconds(), "the API server's default");
        ChainStep reinvocation = r.steps().get(10);
        assertEquals(List.of("MutatingWebhookConfiguration/zz-last z1.example.com"), reinvocation.reasons());
        ChainStep policy = r.steps().get(16);
        assertEquals(List.of("Deny", "Audit"), policy.validationActions());
        assertEquals("ValidatingAdmissionPolicyBinding/no-privileged-prod", policy.object());
    }

    @Test
    void unmatchedStepsAreListedApartWithTheirReason() {
        AdmissionChain.Result r = AdmissionChain.of(objects(WEBHOOKS), podCreate(Map.of("env", "dev")));
        assertFalse(names(r.steps()).contains("no-privileged"));
        ChainStep binding = r.notReached().stream().filter(s -> s.name().equals("no-privileged")).findFirst().orElseThrow();
        assertTrue(binding.reasons().get(0).contains("namespaceSelector excludes namespace team-a"), binding.reasons().toString());
        ChainStep deployments = r.notReached().stream().filter(s -> s.name().equals("deployments.example.com")).findFirst().orElseThrow();
        assertTrue(deployments.reasons().get(0).startsWith("no rule of webhooks[2]"), deployments.reasons().toString());
        ChainStep unbound = r.notReached().stream().filter(s -> s.name().equals("unbound")).findFirst().orElseThrow();
        assertTrue(unbound.reasons().get(0).contains("no binding"), unbound.reasons().toString());
    }

    @Test
    void aMatchConditionTheModelCannotEvaluateLeavesTheStepUndecided() {
        AdmissionChain.Result r = AdmissionChain.of(objects(WEBHOOKS), podCreate(Map.of()));
        ChainStep slow = r.steps().stream().filter(s -> s.name().equals("slow.example.com")).findFirst().orElseThrow();
        assertEquals(Verdict.Outcome.UNDECIDED, slow.outcome());
        assertEquals(1, slow.openConditions().size());
        assertTrue(slow.openConditions().get(0).contains("\"not-nodes\""), slow.openConditions().toString());
    }

    @Test
    void worstCaseLatencyCountsSequentialMutatingReinvocationAndTheSlowestValidating() {
        AdmissionChain.Result r = AdmissionChain.of(objects(WEBHOOKS), podCreate(Map.of()));
        // mutating 3 + 10 + 5 in sequence, z1 (IfNeeded) 5 again, validating max(2, 7; undecided counts: worst case)
        assertEquals(18, r.latency().mutatingSeconds());
        assertEquals(5, r.latency().reinvocationSeconds());
        assertEquals(7, r.latency().slowestValidatingSeconds());
        assertEquals(30, r.latency().totalSeconds());
        assertFalse(r.latency().overBudget(), "30 s is the budget itself");
        assertEquals(5, r.steps().stream().filter(s -> s.type() == ChainStep.Type.REINVOCATION).findFirst()
                .orElseThrow().timeoutSeconds(), "the reinvocation round's own time");
    }

    @Test
    void aRequestNothingMatchesHasOnlyBuiltinSteps() {
        AdmissionChain.Result r = AdmissionChain.of(objects(WEBHOOKS),
                AdmissionRequest.of("example.com", "v1", "widgets", Operation.DELETE).inNamespace("team-a", Map.of()));
        assertEquals(List.of(), names(r.steps()), "NamespaceLifecycle lets the DELETE of a namespaced object through "
                + "untouched; no schema validation and no quota on DELETE");
        assertEquals(0, r.latency().totalSeconds());
        assertEquals(8, r.notReached().size(), "6 webhooks, 1 binding and the unbound policy");
    }

    @Test
    void pluginsActOnTheirSubresourcesOnly() {
        AdmissionChain.Result binding = AdmissionChain.of(List.of(),
                AdmissionRequest.of("", "v1", "pods", Operation.CREATE).withSubresource("binding").inNamespace("a", Map.of()));
        assertEquals(List.of("NamespaceLifecycle", "PodTopologyLabels", "schema and strategy validation"),
                names(binding.steps()), "the pods' own plugins, PodSecurity and the quota do not act on pods/binding");
    }

    @Test
    void clusterScopedRequestsSkipNamespacedPlugins() {
        AdmissionChain.Result r = AdmissionChain.of(List.of(),
                AdmissionRequest.of("", "v1", "nodes", Operation.CREATE));
        assertEquals(List.of("TaintNodesByCondition", "schema and strategy validation"), names(r.steps()));
    }

    /** The table's plugins in one phase (ResourceQuota, a step of its own, left out). */
    private static List<String> plugins(ChainStep.Phase phase, AdmissionRequest request) {
        return AdmissionChain.of(List.of(), request).steps().stream()
                .filter(s -> s.phase() == phase && s.type() == ChainStep.Type.BUILTIN_PLUGIN)
                .map(ChainStep::name).filter(n -> !n.equals("ResourceQuota")).toList();
    }

    private static AdmissionRequest pods(Operation op, String subresource) {
        return AdmissionRequest.of("", "v1", "pods", op).withSubresource(subresource).inNamespace("a", Map.of());
    }

    /** NamespaceLifecycle is a mutating plugin (Admit, no Validate): namespace/lifecycle/admission.go. */
    @Test
    void namespaceLifecycleRunsInTheMutatingPhaseAndGuardsOnlyWritesAndNamespaceDeletion() {
        assertEquals(List.of("NamespaceLifecycle"), plugins(ChainStep.Phase.MUTATING,
                AdmissionRequest.of("", "v1", "configmaps", Operation.UPDATE).inNamespace("a", Map.of())));
        assertEquals(List.of(), plugins(ChainStep.Phase.VALIDATING,
                AdmissionRequest.of("", "v1", "configmaps", Operation.UPDATE).inNamespace("a", Map.of())));
        assertEquals(List.of("NamespaceLifecycle"), plugins(ChainStep.Phase.MUTATING,
                AdmissionRequest.of("", "v1", "namespaces", Operation.DELETE).withName("kube-system")
                        .inNamespace("kube-system", Map.of())), "deleting an immortal namespace is refused here");
        assertEquals(List.of(), plugins(ChainStep.Phase.MUTATING,
                AdmissionRequest.of("authorization.k8s.io", "v1", "localsubjectaccessreviews", Operation.CREATE)
                        .inNamespace("a", Map.of())), "access reviews are always allowed");
        assertEquals(List.of(), plugins(ChainStep.Phase.MUTATING, pods(Operation.CONNECT, "exec")),
                "NamespaceLifecycle handles CREATE, UPDATE and DELETE only");
    }

    /** Each half of a plugin has its own filter (the plugin sources named in BuiltinPlugin). */
    @Test
    void pluginHalvesFollowTheirOwnFilters() {
        // LimitRanger: no pod UPDATE (SupportsAttributes), pods/resize UPDATE, PVCs validated but never mutated
        assertEquals(List.of("NamespaceLifecycle", "Priority", "DefaultTolerationSeconds"),
                plugins(ChainStep.Phase.MUTATING, pods(Operation.UPDATE, "")));
        assertEquals(List.of("LimitRanger"), plugins(ChainStep.Phase.MUTATING, pods(Operation.UPDATE, "resize"))
                .stream().filter(n -> !n.equals("NamespaceLifecycle")).toList());
        assertEquals(List.of("LimitRanger", "PodSecurity", "PodResizeValidator"),
                plugins(ChainStep.Phase.VALIDATING, pods(Operation.UPDATE, "resize")));
        AdmissionRequest claimUpdate = AdmissionRequest.of("", "v1", "persistentvolumeclaims", Operation.UPDATE)
                .inNamespace("a", Map.of());
        assertEquals(List.of("NamespaceLifecycle"), plugins(ChainStep.Phase.MUTATING, claimUpdate));
        assertEquals(List.of("LimitRanger", "PersistentVolumeClaimResize"), plugins(ChainStep.Phase.VALIDATING, claimUpdate));
        // ServiceAccount: mutates pods on CREATE only, validates ephemeral containers on UPDATE
        assertEquals(List.of("ServiceAccount", "PodSecurity"),
                plugins(ChainStep.Phase.VALIDATING, pods(Operation.UPDATE, "ephemeralcontainers")));
        assertFalse(plugins(ChainStep.Phase.MUTATING, pods(Operation.UPDATE, "ephemeralcontainers")).contains("ServiceAccount"));
        // Priority: Admit on pods, Validate on priorityclasses
        assertFalse(plugins(ChainStep.Phase.VALIDATING, pods(Operation.CREATE, "")).contains("Priority"));
        AdmissionRequest priorityClass = AdmissionRequest.of("scheduling.k8s.io", "v1", "priorityclasses", Operation.CREATE);
        assertEquals(List.of(), plugins(ChainStep.Phase.MUTATING, priorityClass));
        assertEquals(List.of("Priority"), plugins(ChainStep.Phase.VALIDATING, priorityClass));
        // StorageObjectInUseProtection protects VolumeAttributesClasses too
        assertEquals(List.of("StorageObjectInUseProtection"), plugins(ChainStep.Phase.MUTATING,
                AdmissionRequest.of("storage.k8s.io", "v1", "volumeattributesclasses", Operation.CREATE)));
        // PodSecurity ignores exec, attach, binding, eviction, log, portforward, proxy and status
        assertFalse(plugins(ChainStep.Phase.VALIDATING, pods(Operation.UPDATE, "status")).contains("PodSecurity"));
    }

    @Test
    void latencyArithmetic() {
        WorstCaseLatency l = new WorstCaseLatency();
        l.addMutating(10, true);
        l.addMutating(4, false);
        l.addValidating(5);
        l.addValidating(9);
        l.addValidating(1);
        assertEquals(14, l.mutatingSeconds());
        assertEquals(10, l.reinvocationSeconds());
        assertEquals(9, l.slowestValidatingSeconds());
        assertEquals(33, l.totalSeconds());
        assertTrue(l.overBudget());
        assertFalse(l.overRequestTimeout());
        l.addMutating(30, true);
        assertTrue(l.overRequestTimeout(), "93 s: the request would time out in admission");
    }
}
