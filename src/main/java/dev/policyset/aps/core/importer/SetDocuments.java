package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.suite.PolicyTestReader;
import dev.policyset.aps.core.model.PolicySetReader;

/** The documents an import writes: an AdmissionPolicySet and a PolicyTest skeleton. */
final class SetDocuments {
    static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final String SET_API_VERSION = "admission.policyset.dev/v1alpha1";

    private SetDocuments() {}

    /**
     * An empty set named after {@code name} with the annotation saying where it came from; members go to spec. The
     * set's name is also the value of every generated object's set label, so it is cut to 63 characters (a label
     * value), with a hash of the whole name when cut.
     */
    static ObjectNode set(String name, String importedFrom) {
        ObjectNode set = JSON.objectNode();
        set.put("apiVersion", SET_API_VERSION);
        set.put("kind", PolicySetReader.KIND);
        ObjectNode metadata = set.putObject("metadata");
        metadata.put("name", labelValue(dnsName(name)));
        metadata.putObject("annotations").put("admission.policyset.dev/imported-from", importedFrom);
        set.putObject("spec");
        return set;
    }

    static ArrayNode validatingPolicies(ObjectNode set) {
        ObjectNode spec = (ObjectNode) set.get("spec");
        return spec.has("validatingPolicies") ? (ArrayNode) spec.get("validatingPolicies") : spec.putArray("validatingPolicies");
    }

    static ArrayNode mutatingPolicies(ObjectNode set) {
        ObjectNode spec = (ObjectNode) set.get("spec");
        return spec.has("mutatingPolicies") ? (ArrayNode) spec.get("mutatingPolicies") : spec.putArray("mutatingPolicies");
    }

    /** A PolicyTest over {@code policyFiles} (relative to the test), cases to be added. */
    static ObjectNode policyTest(String name, String... policyFiles) {
        ObjectNode test = JSON.objectNode();
        test.put("apiVersion", PolicyTestReader.API_VERSION);
        test.put("kind", PolicyTestReader.KIND);
        test.putObject("metadata").put("name", name);
        ArrayNode policies = test.putArray("policies");
        for (String f : policyFiles) {
            policies.add(f);
        }
        return test;
    }

    static String labelValue(String name) {
        if (name.length() <= 63) {
            return name;
        }
        String hash = Integer.toHexString(name.hashCode() & 0x7fffffff);
        return name.substring(0, 62 - hash.length()).replaceAll("[-.]+$", "") + "-" + hash;
    }

    /** A DNS-1123 subdomain made from any name: lower case, other characters to '-', at most 253. */
    static String dnsName(String name) {
        String s = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-").replaceAll("^[-.]+|[-.]+$", "");
        if (s.length() > 253) {
            s = s.substring(0, 253).replaceAll("[-.]+$", "");
        }
        return s.isEmpty() ? "imported" : s;
    }

    /** A PolicyTest names each case once: a repeated name (gator and Kyverno allow them) gets " (2)", " (3)", ... */
    static ObjectNode uniqueName(ObjectNode testCase, ArrayNode cases) {
        String name = testCase.path("name").asText();
        java.util.Set<String> taken = new java.util.HashSet<>();
        cases.forEach(c -> taken.add(c.path("name").asText()));
        String unique = name;
        for (int n = 2; taken.contains(unique); n++) {
            unique = name + " (" + n + ")";
        }
        testCase.put("name", unique);
        return testCase;
    }
}
