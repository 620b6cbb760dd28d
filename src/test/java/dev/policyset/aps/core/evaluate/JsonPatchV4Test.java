package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library the API server applies JSON patches with, case by case: the tables of
 * evanphx/json-patch v4 {@code patch_test.go} ({@code Cases}, {@code MutationTestCases}, {@code BadCases},
 * {@code TestCases}; v4.13.0, the version kube-apiserver 1.37 vendors) with the outcome its {@code patch.go} gives,
 * error texts included (read from the code: the upstream test checks only that an error occurs). The one upstream
 * case that is not here is the empty document (a Kubernetes object is never empty). Upstream compares array documents
 * as maps, so its expected results for them were never checked; the results here are what {@code patch.go} does
 * ({@code copy} inserts into an array and replaces a member).
 */
class JsonPatchV4Test {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A document, a patch and either the result or the library's error (testFailed: ErrTestFailed). */
    record Case(String name, String doc, String patch, String result, String error, long copyLimit) {
        static Case ok(String name, String doc, String patch, String result) {
            return new Case(name, doc, patch, result, null, 0);
        }

        static Case bad(String name, String doc, String patch, String error) {
            return new Case(name, doc, patch, null, error, 0);
        }

        Case withCopyLimit(long limit) {
            return new Case(name, doc, patch, result, error, limit);
        }
    }

    private static final String A48 = "A".repeat(48);
    private static final String A49 = "A".repeat(49);

    static final List<Case> CASES = List.of(
            // Cases
            Case.ok("add-member", "{ \"foo\": \"bar\"}", "[{ \"op\": \"add\", \"path\": \"/baz\", \"value\": \"qux\" }]",
                    "{\"baz\": \"qux\", \"foo\": \"bar\"}"),
            Case.ok("add-array-index", "{ \"foo\": [ \"bar\", \"baz\" ] }", "[{ \"op\": \"add\", \"path\": \"/foo/1\", \"value\": \"qux\" }]",
                    "{ \"foo\": [ \"bar\", \"qux\", \"baz\" ] }"),
            Case.ok("add-negative-index", "{ \"foo\": [ \"bar\", \"baz\" ] }", "[{ \"op\": \"add\", \"path\": \"/foo/-1\", \"value\": \"qux\" }]",
                    "{ \"foo\": [ \"bar\", \"baz\", \"qux\" ] }"),
            Case.ok("remove-member", "{ \"baz\": \"qux\", \"foo\": \"bar\" }", "[ { \"op\": \"remove\", \"path\": \"/baz\" } ]",
                    "{ \"foo\": \"bar\" }"),
            Case.ok("remove-element", "{ \"foo\": [ \"bar\", \"qux\", \"baz\" ] }", "[ { \"op\": \"remove\", \"path\": \"/foo/1\" } ]",
                    "{ \"foo\": [ \"bar\", \"baz\" ] }"),
            Case.ok("replace-member", "{ \"baz\": \"qux\", \"foo\": \"bar\" }", "[ { \"op\": \"replace\", \"path\": \"/baz\", \"value\": \"boo\" } ]",
                    "{ \"baz\": \"boo\", \"foo\": \"bar\" }"),
            Case.ok("move-member", "{\"foo\": {\"bar\": \"baz\", \"waldo\": \"fred\"}, \"qux\": {\"corge\": \"grault\"}}",
                    "[ { \"op\": \"move\", \"from\": \"/foo/waldo\", \"path\": \"/qux/thud\" } ]",
                    "{\"foo\": {\"bar\": \"baz\"}, \"qux\": {\"corge\": \"grault\", \"thud\": \"fred\"}}"),
            Case.ok("move-element-to-end", "{ \"foo\": [ \"all\", \"grass\", \"cows\", \"eat\" ] }",
                    "[ { \"op\": \"move\", \"from\": \"/foo/1\", \"path\": \"/foo/3\" } ]", "{ \"foo\": [ \"all\", \"cows\", \"eat\", \"grass\" ] }"),
            Case.ok("move-element", "{ \"foo\": [ \"all\", \"grass\", \"cows\", \"eat\" ] }",
                    "[ { \"op\": \"move\", \"from\": \"/foo/1\", \"path\": \"/foo/2\" } ]", "{ \"foo\": [ \"all\", \"cows\", \"grass\", \"eat\" ] }"),
            Case.ok("add-object", "{ \"foo\": \"bar\" }", "[ { \"op\": \"add\", \"path\": \"/child\", \"value\": { \"grandchild\": { } } } ]",
                    "{ \"foo\": \"bar\", \"child\": { \"grandchild\": { } } }"),
            Case.ok("append-array", "{ \"foo\": [\"bar\"] }", "[ { \"op\": \"add\", \"path\": \"/foo/-\", \"value\": [\"abc\", \"def\"] } ]",
                    "{ \"foo\": [\"bar\", [\"abc\", \"def\"]] }"),
            Case.ok("remove-null-member", "{ \"foo\": \"bar\", \"qux\": { \"baz\": 1, \"bar\": null } }",
                    "[ { \"op\": \"remove\", \"path\": \"/qux/bar\" } ]", "{ \"foo\": \"bar\", \"qux\": { \"baz\": 1 } }"),
            Case.ok("add-null", "{ \"foo\": \"bar\" }", "[ { \"op\": \"add\", \"path\": \"/baz\", \"value\": null } ]",
                    "{ \"baz\": null, \"foo\": \"bar\" }"),
            Case.ok("replace-only-element", "{ \"foo\": [\"bar\"]}", "[ { \"op\": \"replace\", \"path\": \"/foo/0\", \"value\": \"baz\"}]",
                    "{ \"foo\": [\"baz\"]}"),
            Case.ok("replace-first-element", "{ \"foo\": [\"bar\",\"baz\"]}", "[ { \"op\": \"replace\", \"path\": \"/foo/0\", \"value\": \"bum\"}]",
                    "{ \"foo\": [\"bum\",\"baz\"]}"),
            Case.ok("replace-middle-element", "{ \"foo\": [\"bar\",\"qux\",\"baz\"]}", "[ { \"op\": \"replace\", \"path\": \"/foo/1\", \"value\": \"bum\"}]",
                    "{ \"foo\": [\"bar\", \"bum\",\"baz\"]}"),
            Case.ok("replace-in-array-document", "[ {\"foo\": [\"bar\",\"qux\",\"baz\"]}]", "[ { \"op\": \"replace\", \"path\": \"/0/foo/0\", \"value\": \"bum\"}]",
                    "[ {\"foo\": [\"bum\",\"qux\",\"baz\"]}]"),
            Case.ok("copy-element", "[ {\"foo\": [\"bar\",\"qux\",\"baz\"], \"bar\": [\"qux\",\"baz\"]}]",
                    "[ { \"op\": \"copy\", \"from\": \"/0/foo/0\", \"path\": \"/0/bar/0\"}]",
                    "[ {\"foo\": [\"bar\",\"qux\",\"baz\"], \"bar\": [\"bar\", \"qux\", \"baz\"]}]"),
            Case.ok("copy-element-over-member", "[ {\"foo\": [\"bar\",\"qux\",\"baz\"], \"bar\": [\"qux\",\"baz\"]}]",
                    "[ { \"op\": \"copy\", \"from\": \"/0/foo/0\", \"path\": \"/0/bar\"}]",
                    "[ {\"foo\": [\"bar\",\"qux\",\"baz\"], \"bar\": \"bar\"}]"),
            Case.ok("copy-array", "[ { \"foo\": {\"bar\": [\"qux\",\"baz\"]}, \"baz\": {\"qux\": \"bum\"}}]",
                    "[ { \"op\": \"copy\", \"from\": \"/0/foo/bar\", \"path\": \"/0/baz/bar\"}]",
                    "[ { \"baz\": {\"bar\": [\"qux\",\"baz\"], \"qux\":\"bum\"}, \"foo\": {\"bar\": [\"qux\",\"baz\"]}}]"),
            Case.ok("copy-into-itself", "{ \"foo\": [\"bar\"]}", "[{\"op\": \"copy\", \"path\": \"/foo/0\", \"from\": \"/foo\"}]",
                    "{ \"foo\": [[\"bar\"], \"bar\"]}"),
            Case.ok("remove-negative-index", "{ \"foo\": [\"bar\",\"qux\",\"baz\"]}", "[ { \"op\": \"remove\", \"path\": \"/foo/-2\"}]",
                    "{ \"foo\": [\"bar\", \"baz\"]}"),
            Case.ok("add-negative-index-empty", "{ \"foo\": []}", "[ { \"op\": \"add\", \"path\": \"/foo/-1\", \"value\": \"qux\"}]",
                    "{ \"foo\": [\"qux\"]}"),
            Case.ok("replace-null-member", "{ \"bar\": [{\"baz\": null}]}", "[ { \"op\": \"replace\", \"path\": \"/bar/0/baz\", \"value\": 1 } ]",
                    "{ \"bar\": [{\"baz\": 1}]}"),
            Case.ok("replace-with-null", "{ \"bar\": [{\"baz\": 1}]}", "[ { \"op\": \"replace\", \"path\": \"/bar/0/baz\", \"value\": null } ]",
                    "{ \"bar\": [{\"baz\": null}]}"),
            Case.ok("replace-null-element", "{ \"bar\": [null]}", "[ { \"op\": \"replace\", \"path\": \"/bar/0\", \"value\": 1 } ]",
                    "{ \"bar\": [1]}"),
            Case.ok("replace-element-with-null", "{ \"bar\": [1]}", "[ { \"op\": \"replace\", \"path\": \"/bar/0\", \"value\": null } ]",
                    "{ \"bar\": [null]}"),
            Case.ok("copies-within-limit", "{ \"foo\": [\"A\", \"" + A48 + "\"] }",
                    "[ { \"op\": \"copy\", \"path\": \"/foo/-\", \"from\": \"/foo/1\" }, { \"op\": \"copy\", \"path\": \"/foo/-\", \"from\": \"/foo/1\" }]",
                    "{ \"foo\": [\"A\", \"" + A48 + "\", \"" + A48 + "\", \"" + A48 + "\"] }").withCopyLimit(100),
            Case.ok("test-then-replace-document", "{\"id\": \"0\", \"parentID\": \"0\"}",
                    "[{\"op\": \"test\", \"path\": \"\", \"value\": {\"id\": \"0\", \"parentID\": \"0\"}},"
                            + " {\"op\": \"replace\", \"path\": \"\", \"value\": {\"id\": \"7\", \"originalID\": \"bar\", \"parentID\": \"0\"}}]",
                    "{\"id\": \"7\", \"originalID\": \"bar\", \"parentID\": \"0\"}"),
            // MutationTestCases: the patch changes the document
            Case.ok("remove-null-member-changes", "{ \"foo\": \"bar\", \"qux\": { \"baz\": 1, \"bar\": null } }",
                    "[ { \"op\": \"remove\", \"path\": \"/qux/bar\" } ]", "{ \"foo\": \"bar\", \"qux\": { \"baz\": 1 } }"),
            Case.ok("replace-with-null-changes", "{ \"foo\": \"bar\", \"qux\": { \"baz\": 1, \"bar\": null } }",
                    "[ { \"op\": \"replace\", \"path\": \"/qux/baz\", \"value\": null } ]",
                    "{ \"foo\": \"bar\", \"qux\": { \"baz\": null, \"bar\": null } }"),
            // BadCases
            Case.bad("add-below-missing", "{ \"foo\": \"bar\" }", "[ { \"op\": \"add\", \"path\": \"/baz/bat\", \"value\": \"qux\" } ]",
                    "add operation does not apply: doc is missing path: \"/baz/bat\": missing value"),
            Case.bad("remove-missing-member", "{ \"a\": { \"b\": { \"d\": 1 } } }", "[ { \"op\": \"remove\", \"path\": \"/a/b/c\" } ]",
                    "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value"),
            Case.bad("move-missing-member", "{ \"a\": { \"b\": { \"d\": 1 } } }", "[ { \"op\": \"move\", \"from\": \"/a/b/c\", \"path\": \"/a/b/e\" } ]",
                    "error in move for path: 'c': Unable to remove nonexistent key: c: missing value"),
            Case.bad("remove-past-end", "{ \"a\": { \"b\": [1] } }", "[ { \"op\": \"remove\", \"path\": \"/a/b/1\" } ]",
                    "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced"),
            Case.bad("move-past-end", "{ \"a\": { \"b\": [1] } }", "[ { \"op\": \"move\", \"from\": \"/a/b/1\", \"path\": \"/a/b/2\" } ]",
                    "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced"),
            Case.bad("no-path", "{ \"foo\": \"bar\" }", "[ { \"op\": \"add\", \"pathz\": \"/baz\", \"value\": \"qux\" } ]",
                    "add operation failed to decode path: missing value"),
            Case.bad("add-document", "{ \"foo\": \"bar\" }", "[ { \"op\": \"add\", \"path\": \"\", \"value\": \"qux\" } ]",
                    "add operation does not apply: doc is missing path: \"\": missing value"),
            Case.bad("replace-past-end", "{ \"foo\": [\"bar\",\"baz\"]}", "[ { \"op\": \"replace\", \"path\": \"/foo/2\", \"value\": \"bum\"}]",
                    "replace operation does not apply: doc is missing key: /foo/2: missing value"),
            Case.bad("add-before-start", "{ \"foo\": [\"bar\",\"baz\"]}", "[ { \"op\": \"add\", \"path\": \"/foo/-4\", \"value\": \"bum\"}]",
                    "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced"),
            Case.bad("replace-below-missing", "{ \"name\":{ \"foo\": \"bat\", \"qux\": \"bum\"}}", "[ { \"op\": \"replace\", \"path\": \"/foo/bar\", \"value\":\"baz\"}]",
                    "replace operation does not apply: doc is missing path: /foo/bar: missing value"),
            Case.bad("add-past-end", "{ \"foo\": [\"bar\"]}", "[ {\"op\": \"add\", \"path\": \"/foo/2\", \"value\": \"bum\"}]",
                    "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced"),
            Case.bad("remove-dash", "{ \"foo\": []}", "[ {\"op\": \"remove\", \"path\": \"/foo/-\"}]",
                    "error in remove for path: '/foo/-': strconv.Atoi: parsing \"-\": invalid syntax"),
            Case.bad("remove-negative-empty", "{ \"foo\": []}", "[ {\"op\": \"remove\", \"path\": \"/foo/-1\"}]",
                    "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index referenced"),
            Case.bad("remove-before-start", "{ \"foo\": [\"bar\"]}", "[ {\"op\": \"remove\", \"path\": \"/foo/-2\"}]",
                    "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced"),
            Case.bad("null-op", "{}", "[ {\"op\":null,\"path\":\"\"} ]", "Unexpected kind: unknown"),
            Case.bad("null-path", "{}", "[ {\"op\":\"add\",\"path\":null} ]", "add operation failed to decode path: missing value"),
            Case.bad("null-from", "{}", "[ { \"op\": \"copy\", \"from\": null }]",
                    "copy operation failed to decode from: operation, missing from field: missing value"),
            Case.bad("copy-huge-index", "{ \"foo\": [\"bar\"]}", "[{\"op\": \"copy\", \"path\": \"/foo/6666666666\", \"from\": \"/\"}]",
                    "error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced"),
            Case.bad("copy-past-end", "{ \"foo\": [\"bar\"]}", "[{\"op\": \"copy\", \"path\": \"/foo/2\", \"from\": \"/foo/0\"}]",
                    "error while adding value during copy: Unable to access invalid index: 2: invalid index referenced"),
            Case.bad("copies-over-limit", "{ \"foo\": [\"A\", \"" + A49 + "\"] }",
                    "[ { \"op\": \"copy\", \"path\": \"/foo/-\", \"from\": \"/foo/1\" }, { \"op\": \"copy\", \"path\": \"/foo/-\", \"from\": \"/foo/1\" }]",
                    "Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100").withCopyLimit(100),
            Case.bad("move-past-end-after-removal", "{ \"foo\": [ \"all\", \"grass\", \"cows\", \"eat\" ] }",
                    "[ { \"op\": \"move\", \"from\": \"/foo/1\", \"path\": \"/foo/4\" } ]",
                    "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced"),
            // TestCases
            Case.ok("test-pass", "{\"baz\": \"qux\", \"foo\": [ \"a\", 2, \"c\" ]}",
                    "[{ \"op\": \"test\", \"path\": \"/baz\", \"value\": \"qux\" }, { \"op\": \"test\", \"path\": \"/foo/1\", \"value\": 2 }]",
                    "{\"baz\": \"qux\", \"foo\": [ \"a\", 2, \"c\" ]}"),
            Case.bad("test-other-value", "{ \"baz\": \"qux\" }", "[ { \"op\": \"test\", \"path\": \"/baz\", \"value\": \"bar\" } ]",
                    "testing value /baz failed: test failed"),
            Case.bad("test-second-fails", "{\"baz\": \"qux\", \"foo\": [\"a\", 2, \"c\"]}",
                    "[{ \"op\": \"test\", \"path\": \"/baz\", \"value\": \"qux\" }, { \"op\": \"test\", \"path\": \"/foo/1\", \"value\": \"c\" }]",
                    "testing value /foo/1 failed: test failed"),
            Case.bad("test-missing-member", "{ \"baz\": \"qux\" }", "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": 42 } ]",
                    "testing value /foo failed: test failed"),
            Case.ok("test-missing-is-null", "{ \"baz\": \"qux\" }", "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": null } ]",
                    "{ \"baz\": \"qux\" }"),
            Case.ok("test-null-is-null", "{ \"foo\": null }", "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": null } ]",
                    "{ \"foo\": null }"),
            Case.bad("test-object-is-not-null", "{ \"foo\": {} }", "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": null } ]",
                    "testing value /foo failed: test failed"),
            Case.bad("test-array-is-not-null", "{ \"foo\": [] }", "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": null } ]",
                    "testing value /foo failed: test failed"),
            Case.ok("test-escaped-key", "{ \"baz/foo\": \"qux\" }", "[ { \"op\": \"test\", \"path\": \"/baz~1foo\", \"value\": \"qux\"} ]",
                    "{ \"baz/foo\": \"qux\" }"),
            Case.bad("test-without-value", "{ \"foo\": [] }", "[ { \"op\": \"test\", \"path\": \"/foo\"} ]",
                    "testing value /foo failed: test failed"),
            Case.ok("test-missing-without-value", "{ \"baz\": [] }", "[ { \"op\": \"test\", \"path\": \"/foo\"} ]",
                    "{ \"baz\": [] }"),
            // Behaviour the API server relies on, from patch.go (not in the upstream tables)
            Case.ok("replace-missing-member-adds-it", "{ \"foo\": \"bar\" }", "[ { \"op\": \"replace\", \"path\": \"/baz\", \"value\": 1 } ]",
                    "{ \"foo\": \"bar\", \"baz\": 1 }"),
            Case.bad("add-below-null", "{ \"foo\": null }", "[ { \"op\": \"add\", \"path\": \"/foo/bar\", \"value\": 1 } ]",
                    "add operation does not apply: doc is missing path: \"/foo/bar\": missing value"),
            Case.bad("add-below-scalar", "{ \"foo\": \"x\" }", "[ { \"op\": \"add\", \"path\": \"/foo/bar\", \"value\": 1 } ]",
                    "add operation does not apply: doc is missing path: \"/foo/bar\": missing value"),
            Case.ok("copy-missing-member-copies-null", "{ \"foo\": {} }", "[ { \"op\": \"copy\", \"from\": \"/foo/x\", \"path\": \"/y\" } ]",
                    "{ \"foo\": {}, \"y\": null }"),
            Case.bad("test-int-is-not-float", "{ \"foo\": 1 }", "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": 1.0 } ]",
                    "testing value /foo failed: test failed"),
            Case.ok("test-object-keys-any-order", "{ \"foo\": {\"a\": 1, \"b\": [true]} }",
                    "[ { \"op\": \"test\", \"path\": \"/foo\", \"value\": {\"b\": [true], \"a\": 1} } ]", "{ \"foo\": {\"a\": 1, \"b\": [true]} }"),
            Case.bad("unknown-op", "{}", "[ {\"op\":\"merge\",\"path\":\"/a\"} ]", "Unexpected kind: merge"),
            Case.bad("replace-document-with-scalar", "{}", "[ {\"op\":\"replace\",\"path\":\"\",\"value\":1} ]",
                    "replace operation value must be object or array: %!w(<nil>)"),
            Case.bad("add-non-numeric-index", "{ \"foo\": [] }", "[ {\"op\":\"add\",\"path\":\"/foo/x\",\"value\":1} ]",
                    "error in add for path: '/foo/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax"),
            Case.ok("add-escaped-tilde", "{}", "[ {\"op\":\"add\",\"path\":\"/a~0b~1c\",\"value\":1} ]", "{\"a~b/c\": 1}"));

    @TestFactory
    Stream<DynamicTest> upstreamCases() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            JsonNode doc = JSON.readTree(c.doc());
            JsonPatchV4.Result r = JsonPatchV4.apply(doc, (ArrayNode) JSON.readTree(c.patch()), c.copyLimit());
            if (c.error() == null) {
                assertNull(r.error(), c.name());
                assertEquals(JSON.readTree(c.result()), r.document(), c.name());
            } else {
                assertEquals(c.error(), r.error(), c.name());
                assertEquals(c.error().endsWith(": test failed"), r.testFailed(), c.name());
            }
            assertEquals(JSON.readTree(c.doc()), doc, "the input document is not modified");
        }));
    }

    @Test
    void theServerLimitsCopiesTo3MiB() throws Exception {
        String big = "x".repeat(1024 * 1024);
        JsonNode doc = JSON.readTree("{\"a\": \"" + big + "\"}");
        String copy = "{\"op\": \"copy\", \"from\": \"/a\", \"path\": \"/b%d\"}";
        ArrayNode two = (ArrayNode) JSON.readTree("[" + copy.formatted(1) + "," + copy.formatted(2) + "]");
        ArrayNode three = (ArrayNode) JSON.readTree("[" + copy.formatted(1) + "," + copy.formatted(2) + "," + copy.formatted(3) + "]");
        assertNull(JsonPatchV4.apply(doc, two).error());
        assertTrue(JsonPatchV4.apply(doc, three).error().startsWith("Unable to complete the copy"));
    }

    @Test
    void policyPatchesLeaveTheObjectOnAFailedTestAndPrefixOtherErrors() throws Exception {
        var object = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree("{\"spec\": {\"replicas\": 1}}");
        JsonPatches.Patched failedTest = JsonPatches.apply(object, List.of(
                java.util.Map.of("op", "test", "path", "/spec/replicas", "value", 2L),
                java.util.Map.of("op", "replace", "path", "/spec/replicas", "value", 5L)));
        assertNull(failedTest.error());
        assertEquals(object, failedTest.object());

        JsonPatches.Patched missing = JsonPatches.apply(object, List.of(java.util.Map.of("op", "remove", "path", "/spec/x")));
        assertEquals("JSON Patch: error in remove for path: '/spec/x': Unable to remove nonexistent key: x: missing value",
                missing.error());

        JsonPatches.Patched replaced = JsonPatches.apply(object, List.of(
                java.util.Map.of("op", "replace", "path", "/spec/paused", "value", true),
                java.util.Map.of("op", "replace", "path", "/spec/replicas", "value", 3.0)));
        assertNull(replaced.error());
        assertEquals(JSON.readTree("{\"spec\": {\"replicas\": 3, \"paused\": true}}"), replaced.object());
    }

    @Test
    void aWebhookPatchFailsOnAFailedTestWithTheLibrarysText() throws Exception {
        var object = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree("{\"spec\": {\"replicas\": 1}}");
        JsonPatches.Patched p = JsonPatches.applyWebhookPatch(object,
                (ArrayNode) JSON.readTree("[{\"op\": \"test\", \"path\": \"/spec/replicas\", \"value\": 2}]"));
        assertEquals("testing value /spec/replicas failed: test failed", p.error());
        JsonPatches.Patched array = JsonPatches.applyWebhookPatch(object,
                (ArrayNode) JSON.readTree("[{\"op\": \"replace\", \"path\": \"\", \"value\": [1]}]"));
        assertFalse(array.error().isEmpty());
    }
}
