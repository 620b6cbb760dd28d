package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.status.Outcome;
import dev.policyset.aps.core.status.StatusCalculator;
import org.junit.jupiter.api.Test;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.jse.JsePlatform;

import java.nio.file.Files;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * config/argocd/health.lua run by a Lua interpreter on the statuses the status calculator really writes, one per
 * outcome, plus the states around them (no status yet, a newer generation, paused).
 */
class ArgoHealthCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final List<ResourceStatus> ROWS = List.of(new ResourceStatus(
            "admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "p", "Applied", ""));

    record Health(String status, String message) {}

    static Health health(JsonNode set) throws Exception {
        String script = Files.readString(ProjectFiles.root().resolve("config/argocd/health.lua"));
        Globals globals = JsePlatform.standardGlobals();
        globals.set("obj", lua(set));
        LuaValue hs = globals.load(script, "health.lua").call();
        assertTrue(hs.istable(), "the script returns a table");
        return new Health(hs.get("status").tojstring(), hs.get("message").isnil() ? null : hs.get("message").tojstring());
    }

    /** JSON as Argo CD hands an object to Lua: objects and arrays become tables (arrays 1-based). */
    static LuaValue lua(JsonNode node) {
        if (node.isObject()) {
            LuaTable t = new LuaTable();
            node.properties().forEach(e -> t.set(e.getKey(), lua(e.getValue())));
            return t;
        }
        if (node.isArray()) {
            LuaTable t = new LuaTable();
            for (int i = 0; i < node.size(); i++) {
                t.set(i + 1, lua(node.get(i)));
            }
            return t;
        }
        if (node.isTextual()) {
            return LuaValue.valueOf(node.asText());
        }
        if (node.isIntegralNumber()) {
            return LuaValue.valueOf(node.asLong());
        }
        if (node.isNumber()) {
            return LuaValue.valueOf(node.asDouble());
        }
        if (node.isBoolean()) {
            return LuaValue.valueOf(node.asBoolean());
        }
        return LuaValue.NIL;
    }

    static ObjectNode set(long generation, AdmissionPolicySetStatus status, boolean paused) {
        ObjectNode set = JSON.createObjectNode();
        set.put("apiVersion", "admission.policyset.dev/v1alpha1").put("kind", "AdmissionPolicySet");
        set.putObject("metadata").put("name", "baseline").put("generation", generation);
        set.putObject("spec").put("paused", paused);
        if (status != null) {
            set.set("status", JSON.valueToTree(status));
        }
        return set;
    }

    static AdmissionPolicySetStatus status(long generation, Outcome outcome, AdmissionPolicySetStatus previous) {
        List<Finding> findings = outcome == Outcome.VALIDATION_FAILED
                ? List.of(Finding.error("APS201", "ValidatingWebhookConfiguration/w", "webhooks[0]", "kube-system"))
                : List.of();
        return StatusCalculator.compute(new StatusCalculator.Input(generation, outcome, "", findings, ROWS, previous, NOW));
    }

    @Test
    void everyOutcomeMapsToAnArgoHealth() throws Exception {
        Map<Outcome, String> expected = new EnumMap<>(Outcome.class);
        expected.put(Outcome.APPLIED, "Healthy");
        expected.put(Outcome.VALIDATION_FAILED, "Degraded");
        expected.put(Outcome.OWNERSHIP_CONFLICT, "Degraded");
        expected.put(Outcome.DRY_RUN_REJECTED, "Degraded");
        expected.put(Outcome.MUTATING_POLICY_NOT_SERVED, "Degraded");
        expected.put(Outcome.API_ERROR, "Progressing");
        expected.put(Outcome.PAUSED, "Suspended");
        assertEquals(Outcome.values().length, expected.size(), "a new outcome needs a health mapping here");
        AdmissionPolicySetStatus good = status(1, Outcome.APPLIED, null);
        for (Outcome outcome : Outcome.values()) {
            AdmissionPolicySetStatus s = status(2, outcome, good);
            Health h = health(set(2, s, outcome == Outcome.PAUSED));
            assertEquals(expected.get(outcome), h.status(), outcome + ": " + h.message());
            assertTrue(h.message() != null && !h.message().isEmpty(), outcome + " has a message");
        }
    }

    @Test
    void messagesCarryTheConditionsReasonAndMessage() throws Exception {
        Health bad = health(set(3, status(3, Outcome.VALIDATION_FAILED, null), false));
        assertTrue(bad.message().startsWith("ValidationFailed: "), bad.message());
        Health ok = health(set(3, status(3, Outcome.APPLIED, null), false));
        assertEquals("Applied: 1 object(s) applied and in sync", ok.message());
        Health retry = health(set(3, status(3, Outcome.API_ERROR, null), false));
        assertTrue(retry.message().startsWith("ApiError: "), retry.message());
    }

    @Test
    void aSpecTheOperatorHasNotSeenYetIsProgressingNotHealthy() throws Exception {
        Health none = health(set(1, null, false));
        assertEquals(new Health("Progressing", "Waiting for the operator to reconcile the set"), none);
        // A healthy status of generation 4 says nothing about generation 5.
        Health lagging = health(set(5, status(4, Outcome.APPLIED, null), false));
        assertEquals("Progressing", lagging.status());
        assertEquals("Waiting for the operator to reconcile generation 5 (status describes 4)", lagging.message());
        AdmissionPolicySetStatus empty = new AdmissionPolicySetStatus();
        empty.setObservedGeneration(5L);
        assertEquals("Progressing", health(set(5, empty, false)).status(), "no Ready condition yet");
    }

    @Test
    void pausedIsSuspendedWhateverTheStatusSays() throws Exception {
        assertEquals("Suspended", health(set(7, status(2, Outcome.VALIDATION_FAILED, null), true)).status());
        assertEquals("Suspended", health(set(1, null, true)).status());
    }
}
