package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The expected object of a converted MutatingPolicy case: Kyverno's tidied comparison, kept exact for PolicyTest. */
class KyvernoTestsTidyTest {
    private static JsonNode json(String s) throws Exception {
        return Yaml.mapper().readTree(s);
    }

    @Test
    void tidyDropsNullsAndWhatBecomesEmptyAndKeepsValues() throws Exception {
        assertEquals(json("{\"a\": 1, \"l\": [0, \"\"]}"),
                KyvernoTests.tidy(json("{\"a\": 1, \"n\": null, \"m\": {\"x\": {}}, \"e\": [], \"l\": [0, \"\", {}]}")));
        assertNull(KyvernoTests.tidy(json("{\"m\": {\"x\": []}}")));
    }

    @Test
    void theInputsEmptyValuesComeBackWhereThePatchedObjectLacksThem() throws Exception {
        JsonNode input = json("{\"spec\": {\"containers\": [{\"name\": \"a\", \"resources\": {}}], \"volumes\": [{\"emptyDir\": {}}]},"
                + " \"status\": {}}");
        JsonNode patched = json("{\"spec\": {\"containers\": [{\"name\": \"a\", \"image\": \"b\"}], \"volumes\": [{\"name\": \"v\"}]}}");
        assertEquals(json("{\"spec\": {\"containers\": [{\"name\": \"a\", \"image\": \"b\", \"resources\": {}}],"
                + " \"volumes\": [{\"name\": \"v\", \"emptyDir\": {}}]}, \"status\": {}}"), KyvernoTests.keepEmpty(patched, input));
    }

    @Test
    void aValueThePatchedObjectChangedOrAListOfAnotherLengthStaysAsPatched() throws Exception {
        // the input's empty map is not put back where the patched object has a value, nor into a list that changed length
        JsonNode input = json("{\"a\": {}, \"l\": [{\"x\": {}}]}");
        JsonNode patched = json("{\"a\": {\"k\": \"v\"}, \"l\": [{\"y\": 1}, {\"y\": 2}]}");
        assertEquals(patched, KyvernoTests.keepEmpty(patched, input));
    }
}
