package dev.policyset.aps.core.model;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PolicySetReaderTest {
    private static PolicySetReader.Result read(String spec) throws Exception {
        String doc = "apiVersion: admission.policyset.dev/v1alpha1\nkind: AdmissionPolicySet\nmetadata: {name: s}\nspec:\n" + spec;
        return PolicySetReader.read(Yaml.parse("t.yaml", doc).get(0).content());
    }

    private static List<String> fieldsAndRules(PolicySetReader.Result r) {
        return r.findings().stream().map(f -> f.field() + " " + f.rule()).sorted().toList();
    }

    @Test
    void absentDefaultsAreTheBuiltInOnes() throws Exception {
        PolicySet set = read("  validatingPolicies: []\n").set().orElseThrow();
        assertEquals(SetDefaults.NONE_SET, set.defaults());
        assertEquals(List.of("kube-system", "kube-node-lease"), set.defaults().excludedNamespaces());
        assertTrue(set.prune());
        assertFalse(set.paused());
        assertEquals(PolicySet.DeletionPolicy.DELETE, set.deletionPolicy());
        assertEquals(SafetySettings.DEFAULT, set.safety());
    }

    @Test
    void setDefaultsAreRead() throws Exception {
        PolicySet set = read("""
                  defaults:
                    failurePolicy: Ignore
                    validationActions: [Warn, Audit]
                    webhookTimeoutSeconds: 3
                    excludedNamespaces: []
                  safety:
                    enforcement: Warn
                    exemptions:
                      - {rule: APS201, object: ValidatingWebhookConfiguration/x, reason: reviewed}
                  prune: false
                  paused: true
                  deletionPolicy: Orphan
                """).set().orElseThrow();
        assertEquals(new SetDefaults("Ignore", List.of("Warn", "Audit"), 3, List.of()), set.defaults());
        assertEquals(SafetySettings.Enforcement.WARN, set.safety().enforcement());
        assertEquals(List.of(new Exemption("APS201", "ValidatingWebhookConfiguration/x", "reviewed")), set.safety().exemptions());
        assertFalse(set.prune());
        assertTrue(set.paused());
        assertEquals(PolicySet.DeletionPolicy.ORPHAN, set.deletionPolicy());
    }

    @Test
    void absentBindingsDifferFromEmptyBindings() throws Exception {
        PolicySet set = read("""
                  validatingPolicies:
                    - {name: a, policy: {}}
                    - {name: b, policy: {}, bindings: []}
                    - {name: c, policy: {}, bindings: [{name: c-1, spec: {validationActions: [Deny]}}]}
                """).set().orElseThrow();
        assertTrue(set.validatingPolicies().get(0).bindings().isEmpty());
        assertEquals(List.of(), set.validatingPolicies().get(1).bindings().orElseThrow());
        assertEquals("c-1", set.validatingPolicies().get(2).bindings().orElseThrow().get(0).name());
        assertEquals("spec.validatingPolicies[2].bindings[0]", set.validatingPolicies().get(2).bindings().orElseThrow().get(0).path());
    }

    @Test
    void schemaViolationsAreFindingsOnTheSetsFields() throws Exception {
        PolicySetReader.Result r = read("""
                  defaults:
                    failurePolicy: Sometimes
                    webhookTimeoutSeconds: 31
                    validationActions: [Deny, Warn, Deny, Maybe]
                  safety:
                    exemptions:
                      - {rule: api/Invalid, object: X/y}
                  validatingPolicies:
                    - {name: a, policy: {}}
                    - {name: a, policy: {}}
                    - {policy: "not an object"}
                  validatingWebhooks: {}
                  paused: "yes"
                """);
        assertTrue(r.set().isEmpty(), "a set with schema errors is not rendered");
        assertEquals(List.of(
                "paused api/Invalid",
                "safety.exemptions[0].reason api/Required",
                "safety.exemptions[0].rule api/Invalid",
                "defaults.failurePolicy api/NotSupported",
                "defaults.validationActions api/Invalid",
                "defaults.validationActions[2] api/Duplicate",
                "defaults.validationActions[3] api/NotSupported",
                "defaults.webhookTimeoutSeconds api/Invalid",
                "validatingPolicies[1].name api/Duplicate",
                "validatingPolicies[2].name api/Required",
                "validatingPolicies[2].policy api/Invalid",
                "validatingWebhooks api/Invalid").stream().map(s -> "spec." + s).sorted().toList(), fieldsAndRules(r));
        for (Finding f : r.findings()) {
            assertEquals("AdmissionPolicySet/s", f.object());
            assertTrue(f.isError());
            assertFalse(f.message().isBlank());
        }
    }

    @Test
    void bindingsAreCheckedLikeMembers() throws Exception {
        PolicySetReader.Result r = read("""
                  validatingPolicies:
                    - {name: a, policy: {}, bindings: {}}
                    - name: b
                      policy: {}
                      bindings: [{name: b-1}, {name: b-1}, "text", {name: b-2, spec: []}]
                  mutatingWebhooks:
                    - {name: w}
                    - {name: x, webhooks: {}}
                """);
        assertEquals(List.of(
                "spec.mutatingWebhooks[0].webhooks api/Required",
                "spec.mutatingWebhooks[1].webhooks api/Invalid",
                "spec.validatingPolicies[0].bindings api/Invalid",
                "spec.validatingPolicies[1].bindings[1].name api/Duplicate",
                "spec.validatingPolicies[1].bindings[2] api/Invalid",
                "spec.validatingPolicies[1].bindings[3].spec api/Invalid"), fieldsAndRules(r));
    }

    @Test
    void missingSpecAndNameAreRequired() throws Exception {
        PolicySetReader.Result r = PolicySetReader.read(Yaml.parse("t", "kind: AdmissionPolicySet\nmetadata: {}\n").get(0).content());
        assertEquals(List.of("metadata.name api/Required", "spec api/Required"), fieldsAndRules(r));
    }
}
