package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.suite.Loader;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.policyset.aps.core.importer.SetDocuments.JSON;

/**
 * gator {@code Suite} files ({@code test.gatekeeper.sh/v1alpha1}, {@code open-policy-agent/gatekeeper:
 * pkg/gator/verify/suite.go}) into PolicyTests: each suite test (one template, one constraint) becomes a set file and
 * a test file; each case's object (or AdmissionReview) a case; each assertion a {@code decisions} entry on the
 * template's policy, as gator counts it ({@code assertion.go}): of the violations whose message the assertion's
 * {@code message} regular expression matches (all without one), {@code yes} at least one, {@code no} none, a number
 * exactly that many. The constraint is the params fixture, inventory Namespaces the namespaces fixture. gator's
 * verdict is the policy's whatever its enforcementAction, which is what {@code decisions} asserts.
 */
public final class GatorSuites {
    private GatorSuites() {}

    public static boolean isSuite(Document d) {
        return "Suite".equals(d.kind()) && d.apiVersion().startsWith("test.gatekeeper.sh/");
    }

    /**
     * Converts one suite. {@code loader} reads what the suite names, relative to it; {@code outputDir} is where its
     * files go, relative to the output root.
     */
    public static void convert(Document suite, Loader loader, String outputDir, ImportResult result) {
        JsonNode tests = suite.content().path("tests");
        String suiteName = suite.name().isEmpty() ? "suite" : suite.name();
        for (int i = 0; i < tests.size(); i++) {
            JsonNode t = tests.get(i);
            String at = "tests[" + i + "]";
            String testName = SetDocuments.dnsName(t.path("name").asText("test-" + i));
            if (suite.content().path("skip").asBoolean(false) || t.path("skip").asBoolean(false) || t.path("invalid").asBoolean(false)
                    || t.hasNonNull("expansion")) {
                refuse(result, suite, at, "test '" + testName + "' is " + (t.path("invalid").asBoolean(false)
                        ? "about an invalid template or constraint (nothing to admit)" : t.hasNonNull("expansion")
                        ? "about gator's expansion of generated resources, which has no native form" : "skipped by the suite")
                        + ": not converted");
                continue;
            }
            Optional<Document> template = first(loader, t.path("template").asText(""), suite, at + ".template", result);
            Optional<Document> constraint = first(loader, t.path("constraint").asText(""), suite, at + ".constraint", result);
            if (template.isEmpty() || constraint.isEmpty()) {
                continue;
            }
            String kind = GatekeeperImporter.constraintKind(template.get().content());
            // the template's own findings and count belong to its import as a policy, not to each test using it
            ImportResult own = new ImportResult();
            Optional<ObjectNode> member = GatekeeperImporter.member(template.get(), List.of(constraint.get()), own);
            if (member.isEmpty()) {
                String why = own.findings().stream().map(ImportFinding::reason).distinct().reduce((a, b) -> a + ", " + b).orElse("");
                refuse(result, suite, at, "test '" + testName + "': its template was not imported (" + ImportRules.PREFIX + why
                        + "): its " + t.path("cases").size() + " case(s) are not converted");
                continue;
            }
            own.findings().forEach(result::add);
            String base = (outputDir.isEmpty() ? "" : outputDir + "/") + SetDocuments.dnsName(suiteName) + "-" + testName;
            ObjectNode set = SetDocuments.set(SetDocuments.dnsName("gatekeeper-" + suiteName + "-" + testName),
                    "gatekeeper:" + suite.source() + "#" + at);
            SetDocuments.validatingPolicies(set).add(member.get());
            result.add(new ImportedFile(base + ".set.yaml", List.of(set), false));

            String setFile = base.substring(base.lastIndexOf('/') + 1) + ".set.yaml";
            ObjectNode test = SetDocuments.policyTest(SetDocuments.dnsName(suiteName + "-" + testName), setFile);
            ObjectNode fixtures = test.putObject("fixtures");
            fixtures.putArray("params").add(constraint.get().content().deepCopy());
            ArrayNode namespaces = JSON.arrayNode();
            ArrayNode cases = test.putArray("cases");
            JsonNode suiteCases = t.path("cases");
            for (int c = 0; c < suiteCases.size(); c++) {
                testCase(suiteCases.get(c), at + ".cases[" + c + "]", suite, loader, GatekeeperImporter.policyName(kind),
                        namespaces, result).ifPresent(x -> cases.add(SetDocuments.uniqueName(x, cases)));
            }
            if (!namespaces.isEmpty()) {
                fixtures.set("namespaces", namespaces);
            }
            result.countTestCases(cases.size());
            result.add(new ImportedFile(base + ".test.yaml", List.of(test), true));
        }
    }

    private static Optional<ObjectNode> testCase(JsonNode c, String at, Document suite, Loader loader, String policy,
                                                 ArrayNode namespaces, ImportResult result) {
        String name = c.path("name").asText(at);
        if (c.path("skip").asBoolean(false)) {
            refuse(result, suite, at, "case '" + name + "' is skipped by the suite: not converted");
            return Optional.empty();
        }
        for (JsonNode inventory : c.path("inventory")) {
            try {
                for (Document d : loader.load(inventory.asText())) {
                    if ("Namespace".equals(d.kind())) {
                        namespaces.add(d.content().deepCopy());
                    }
                }
            } catch (Loader.LoadException e) {
                refuse(result, suite, at + ".inventory", "case '" + name + "': inventory '" + inventory.asText() + "': " + e.getMessage());
                return Optional.empty();
            }
        }
        Optional<Document> object = first(loader, c.path("object").asText(""), suite, at + ".object", result);
        if (object.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode out = JSON.objectNode();
        out.put("name", name);
        JsonNode o = object.get().content();
        if ("AdmissionReview".equals(object.get().kind())) {
            JsonNode request = o.path("request");
            out.put("operation", request.path("operation").asText("CREATE"));
            if (request.path("object").isObject()) {
                out.set("object", request.get("object").deepCopy());
            }
            if (request.path("oldObject").isObject()) {
                out.set("oldObject", request.get("oldObject").deepCopy());
            }
            if (request.path("userInfo").isObject()) {
                out.set("user", request.get("userInfo").deepCopy());
            }
            if (!request.path("namespace").asText("").isEmpty()) {
                out.put("namespace", request.get("namespace").asText());
            }
        } else {
            out.set("object", o.deepCopy());
        }
        ObjectNode expect = out.putObject("expect");
        ArrayNode decisions = expect.putArray("decisions");
        JsonNode assertions = c.path("assertions");
        for (JsonNode a : assertions) {
            ObjectNode d = decisions.addObject().put("policy", policy);
            JsonNode violations = a.get("violations");
            // YAML 1.1 reads an unquoted yes/no as a boolean
            String v = violations == null || violations.isNull() ? "yes"
                    : violations.isBoolean() ? (violations.asBoolean() ? "yes" : "no") : violations.asText();
            if (v.equals("yes")) {
                d.put("violated", true);
            } else if (v.equals("no")) {
                d.put("violated", false);
            } else if (v.matches("[0-9]+")) {
                d.put("count", Integer.parseInt(v));
            } else {
                refuse(result, suite, at, "case '" + name + "': violations must be yes, no or a number, not '" + v + "'");
                return Optional.empty();
            }
            if (a.hasNonNull("message")) {
                d.put("messageMatches", a.get("message").asText());
            }
        }
        if (assertions.isEmpty()) {
            refuse(result, suite, at, "case '" + name + "' has no assertions: not converted");
            return Optional.empty();
        }
        return Optional.of(out);
    }

    private static Optional<Document> first(Loader loader, String path, Document suite, String at, ImportResult result) {
        if (path.isEmpty()) {
            refuse(result, suite, at, at + " names no file");
            return Optional.empty();
        }
        try {
            List<Document> docs = new ArrayList<>(loader.load(path));
            docs.removeIf(d -> !d.content().isObject());
            if (docs.isEmpty()) {
                refuse(result, suite, at, at + " '" + path + "' holds no object");
                return Optional.empty();
            }
            return Optional.of(docs.get(0));
        } catch (Loader.LoadException e) {
            refuse(result, suite, at, at + " '" + path + "': " + e.getMessage());
            return Optional.empty();
        }
    }

    private static void refuse(ImportResult result, Document suite, String at, String message) {
        result.add(new ImportFinding(Finding.warning(ImportRules.TEST, "Suite/" + suite.name(), at, message),
                suite.source(), suite.lineOf(at)));
    }
}
