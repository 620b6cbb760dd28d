package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contested mutation semantics of {@code aps-test/mutating-server-semantics} judged by the real kube-apiserver:
 * its policies are created, and each case's object is sent as a dry-run create; the server's verdict, message and
 * mutated object must be what the offline expectation says (the same file {@code aps test} passes in
 * {@code TestCommandTest}). JSON Patch semantics (evanphx/json-patch v4), compile failures, type names of Object
 * initializers and strict decoding are decided by the server here, not by reading its code.
 */
@RealApiServer
class MutationSemanticsRealServerTest {
    private static final Path SUITE = Path.of("src/test/resources/aps-test/mutating-server-semantics");
    private static final Path REFUSED = Path.of("src/test/resources/aps-test-failing/refused-mutations");

    @Test
    void theServerMutatesAndRefusesAsTheOfflineSuiteExpects(KubeControlPlane plane) throws Exception {
        KubernetesClient admin = plane.admin();
        List<String> created = new ArrayList<>();
        Map<String, String> refused = new LinkedHashMap<>();
        try {
            for (JsonNode doc : documents(SUITE.resolve("policies.yaml"))) {
                GenericKubernetesResource r = Yaml.mapper().treeToValue(doc, GenericKubernetesResource.class);
                admin.resource(r).create();
                created.add(doc.path("kind").asText() + "/" + r.getMetadata().getName());
            }
            // the API server compiles a policy's mutations when it is written: one that does not compile cannot
            // exist, so no request ever meets it (aps test fails the cases that load it: RefusedObjects)
            for (JsonNode doc : documents(REFUSED.resolve("policies.yaml"))) {
                GenericKubernetesResource r = Yaml.mapper().treeToValue(doc, GenericKubernetesResource.class);
                try {
                    admin.resource(r).create();
                    created.add(doc.path("kind").asText() + "/" + r.getMetadata().getName());
                } catch (KubernetesClientException e) {
                    refused.put(r.getMetadata().getName(), e.getStatus().getMessage());
                }
            }
            assertEquals(List.of("wrong-root-type", "wrong-root-type-ignored", "json-patch-of-strings"),
                    List.copyOf(refused.keySet()), refused.toString());
            assertTrue(refused.values().stream().allMatch(m -> m.contains("must evaluate to ")), refused.toString());
            JsonNode test = Yaml.parse("semantics.test.yaml", Files.readString(SUITE.resolve("semantics.test.yaml")))
                    .get(0).content();
            // the policies' informers catch up asynchronously, each on its own: a pass is repeated until the
            // server agrees on every case or a minute has gone by, and the last pass is reported
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<String> disagreements;
            do {
                disagreements = new ArrayList<>();
                for (JsonNode c : test.path("cases")) {
                    Outcome o = send(admin, c.path("object"));
                    String verdict = compare(c.path("expect"), o);
                    if (verdict != null) {
                        disagreements.add(c.path("name").asText() + ": " + verdict);
                    }
                }
                if (!disagreements.isEmpty()) {
                    Thread.sleep(1000);
                }
            } while (!disagreements.isEmpty() && System.nanoTime() < deadline);
            assertEquals(List.of(), disagreements);
        } finally {
            for (String k : created) {
                String[] kn = k.split("/");
                admin.genericKubernetesResources("admissionregistration.k8s.io/v1", kn[0]).withName(kn[1]).delete();
            }
        }
    }

    private static List<JsonNode> documents(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (Document d : Yaml.parse(file.toString(), Files.readString(file))) {
            out.add(d.content());
        }
        return out;
    }

    private record Outcome(JsonNode object, String message, int code) {}

    private static Outcome send(KubernetesClient admin, JsonNode object) throws Exception {
        GenericKubernetesResource r = Yaml.mapper().treeToValue(object, GenericKubernetesResource.class);
        try {
            GenericKubernetesResource out = admin.resource(r).dryRun().create();
            return new Outcome(Yaml.mapper().valueToTree(out), null, 201);
        } catch (KubernetesClientException e) {
            return new Outcome(null, e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage(), e.getCode());
        }
    }

    private static String compare(JsonNode expect, Outcome o) {
        boolean allowed = expect.path("allowed").asBoolean(true);
        if (allowed != (o.message() == null)) {
            return "expected " + (allowed ? "allowed" : "denied") + ", the server " + (o.message() == null ? "allowed" : "denied");
        }
        if (expect.has("code") && expect.get("code").asInt() != o.code()) {
            return "expected code " + expect.get("code").asInt() + ", the server answered " + o.code();
        }
        for (String key : List.of("message", "messageContains")) {
            if (expect.has(key) && !o.message().contains(expect.get(key).asText())) {
                return "the server's message does not contain the expected " + key;
            }
        }
        if (expect.has("object") && !contains(o.object(), expect.get("object"))) {
            return "the server's object " + o.object() + " does not hold " + expect.get("object");
        }
        return null;
    }

    /** Every field of {@code expected} is in {@code actual} (the server adds defaults). */
    private static boolean contains(JsonNode actual, JsonNode expected) {
        if (expected.isObject()) {
            if (!actual.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!actual.has(e.getKey()) || !contains(actual.get(e.getKey()), e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                return false;
            }
            for (int i = 0; i < expected.size(); i++) {
                if (!contains(actual.get(i), expected.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return actual.asText().equals(expected.asText());
    }
}
