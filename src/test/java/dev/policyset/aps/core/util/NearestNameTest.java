package dev.policyset.aps.core.util;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NearestNameTest {
    private static final List<String> DEFAULTS =
            List.of("failurePolicy", "validationActions", "webhookTimeoutSeconds", "excludedNamespaces");

    @Test
    void aTypoGetsTheNameItMeant() {
        assertEquals(Optional.of("failurePolicy"), NearestName.among("failurPolicy", DEFAULTS));
        assertEquals(Optional.of("failurePolicy"), NearestName.among("FailurePolicy", DEFAULTS), "case");
        assertEquals(Optional.of("failurePolicy"), NearestName.among("failuerPolicy", DEFAULTS), "two letters swapped");
        assertEquals(Optional.of("bindings"), NearestName.among("binding", List.of("name", "labels", "policy", "bindings")));
    }

    @Test
    void aDifferentWordGetsNoHint() {
        assertEquals(Optional.empty(), NearestName.among("timeout", DEFAULTS));
        assertEquals(Optional.empty(), NearestName.among("spec", List.of("name", "rule")), "short names need a close match");
        assertEquals(Optional.empty(), NearestName.among("x", List.of()));
    }

    @Test
    void distanceCountsASwapAsOneEdit() {
        assertEquals(1, NearestName.distance("ab", "ba"));
        assertEquals(1, NearestName.distance("failurPolicy", "failurePolicy"));
        assertEquals(3, NearestName.distance("kitten", "sitting"));
    }
}
