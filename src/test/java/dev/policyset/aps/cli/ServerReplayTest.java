package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.suite.PolicyTest;
import dev.policyset.aps.core.evaluate.suite.ServerReplay;
import dev.policyset.aps.core.evaluate.suite.TestCase;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code aps test --server} creates and sends, decided offline ({@link ServerReplay}): unique names, a first
 * match condition only the run's requests meet, fixtures kept as written, dry-run requests as the case's user, and
 * the server's messages read back with the test's own names.
 */
class ServerReplayTest {
    private static final PolicyTest TEST = TestRun.run(List.of(Path.of("src/test/resources/aps-test-server/server.test.yaml")),
            System.in, KubeVersion.parse("1.37")).files().get(0).test();

    @Test
    void policiesAndBindingsAreRenamedForTheRunAndMatchOnlyItsRequests() {
        ServerReplay replay = new ServerReplay("r1");
        List<ServerReplay.Setup> setup = replay.setup(TEST);
        assertEquals(List.of("Namespace/aps-server-off", "Namespace/aps-server-test", "ConfigMap/aps-server-test/size-limits",
                        "ValidatingAdmissionPolicy/team-configmaps-aps-r1", "ValidatingAdmissionPolicyBinding/team-configmaps-binding-aps-r1",
                        "ValidatingAdmissionPolicy/dry-run-only-aps-r1", "ValidatingAdmissionPolicyBinding/dry-run-only-binding-aps-r1"),
                setup.stream().map(ServerReplay.Setup::id).toList());
        ObjectNode policy = setup.get(3).object();
        JsonNode first = policy.path("spec").path("matchConditions").path(0);
        assertEquals("has(request.userInfo.extra) && 'aps.policyset.dev/test-run' in request.userInfo.extra "
                + "&& request.userInfo.extra['aps.policyset.dev/test-run'] == ['r1']", first.path("expression").asText());
        assertEquals("r1", policy.path("metadata").path("labels").path(ServerReplay.RUN_LABEL).asText());
        assertEquals("team-configmaps-aps-r1", setup.get(4).object().path("spec").path("policyName").asText());
        assertEquals("size-limits", setup.get(4).object().path("spec").path("paramRef").path("name").asText(),
                "params keep their names: a policy may read them");
        assertTrue(setup.get(2).reuseIfEqual() && !setup.get(3).reuseIfEqual());
    }

    @Test
    void eachCaseIsADryRunAsItsUserWithTheRunsExtra() {
        ServerReplay replay = new ServerReplay("r1");
        replay.setup(TEST);
        TestCase update = TEST.cases().stream().filter(c -> c.name().startsWith("an update")).findFirst().orElseThrow();
        List<String> why = new ArrayList<>();
        ServerReplay.Request r = replay.request(update, why).orElseThrow();
        assertEquals("PUT", r.method());
        assertEquals("/api/v1/namespaces/aps-server-test/configmaps/grows?dryRun=All&fieldValidation=Strict", r.path());
        assertEquals("alice", r.user().username());
        assertEquals(List.of("r1"), r.user().extra().get(ServerReplay.RUN_EXTRA));
        assertEquals("1", r.existing().path("data").path("size").asText(), "the old object is created first");
    }

    @Test
    void theServersMessagesAreReadWithTheTestsOwnNames() throws Exception {
        ServerReplay replay = new ServerReplay("r1");
        replay.setup(TEST);
        JsonNode status = Yaml.mapper().readTree("""
                {"kind": "Status", "status": "Failure", "reason": "Forbidden", "code": 403, "message":
                 "configmaps \\"big\\" is forbidden: ValidatingAdmissionPolicy 'team-configmaps-aps-r1' with binding 'team-configmaps-binding-aps-r1' denied request: size 11 is over 10"}""");
        AdmissionOutcome o = replay.outcome(403, status, List.of());
        assertEquals("configmaps \"big\" is forbidden: ValidatingAdmissionPolicy 'team-configmaps' with binding "
                + "'team-configmaps-binding' denied request: size 11 is over 10", o.message());
        assertEquals("Forbidden", o.reason());
        assertEquals(List.of("a \"quoted\" warning"), ServerTestRun.warnings(List.of("299 - \"a \\\"quoted\\\" warning\"")));
    }

    /** kaptest lets a case update one object from another's old state; no server update can: the case is not sent. */
    @Test
    void anUpdateWhoseOldObjectHasAnotherNameIsNotSent() {
        PolicyTest kaptest = TestRun.run(List.of(Path.of("src/test/resources/aps-test/kaptest/replicas.test/kaptest.yaml")),
                System.in, KubeVersion.parse("1.37")).files().get(0).test();
        ServerReplay replay = new ServerReplay("r1");
        replay.setup(kaptest);
        TestCase paused = kaptest.cases().stream().filter(c -> c.name().contains("(UPDATE) Deployment:paused")).findFirst().orElseThrow();
        List<String> why = new ArrayList<>();
        assertTrue(replay.request(paused, why).isEmpty(), "not sent");
        assertEquals(List.of("not sent to the server: the old object 'small' and the object 'paused' have different names, "
                + "which no update on a server can have"), why);
        TestCase small = kaptest.cases().get(0);
        assertTrue(replay.request(small, new ArrayList<>()).isPresent(), "a create is sent");
    }

    /**
     * A run waits for each informer its cases need (found by the behaviour suite: mutations and selector params were
     * missing from runs whose only probe was a validating policy), and the probes never meet the run's own policies.
     */
    @Test
    void theRunWaitsForTheMutatingPoliciesAndTheLastParamOfEachKind() {
        PolicyTest validating = TestRun.run(List.of(Path.of("src/test/resources/aps-test/validating/validating.test.yaml")),
                System.in, KubeVersion.parse("1.37")).files().get(0).test();
        List<dev.policyset.aps.core.evaluate.suite.ServerProbes.Probe> probes = dev.policyset.aps.core.evaluate.suite.ServerProbes.of(validating, "r1");
        assertEquals(List.of("ValidatingAdmissionPolicy", "params of kind ConfigMap"), probes.stream().map(p -> p.what()).toList());
        JsonNode paramRef = probes.get(1).objects().get(1).path("spec").path("paramRef");
        assertEquals("dev-large", paramRef.path("name").asText(), "the last ConfigMap param the run creates");
        assertEquals("policy-params", paramRef.path("namespace").asText());
        String condition = probes.get(0).objects().get(0).path("spec").path("matchConditions").path(0).path("expression").asText();
        assertTrue(condition.endsWith("== ['r1-probe']"), condition);

        PolicyTest mutating = TestRun.run(List.of(Path.of("src/test/resources/aps-test/mutating/mutating.test.yaml")),
                System.in, KubeVersion.parse("1.37")).files().get(0).test();
        List<dev.policyset.aps.core.evaluate.suite.ServerProbes.Probe> m = dev.policyset.aps.core.evaluate.suite.ServerProbes.of(mutating, "r1");
        assertEquals(List.of("ValidatingAdmissionPolicy", "MutatingAdmissionPolicy"), m.stream().map(p -> p.what()).toList());
        assertEquals("admissionregistration.k8s.io/v1beta1", m.get(1).objects().get(0).path("apiVersion").asText(),
                "the apiVersion the test's own mutating policies are created at");
        ObjectNode labelled = m.get(1).request().deepCopy();
        ((ObjectNode) labelled.with("metadata").with("labels")).put("aps-probe", "loaded");
        assertTrue(m.get(1).answered(new AdmissionOutcome(true, 0, "", "", List.of(), java.util.Map.of(), labelled, List.of(), List.of(), List.of())));
        assertTrue(!m.get(1).answered(new AdmissionOutcome(true, 0, "", "", List.of(), java.util.Map.of(), m.get(1).request(), List.of(), List.of(), List.of())),
                "not mutated yet");
    }
}
