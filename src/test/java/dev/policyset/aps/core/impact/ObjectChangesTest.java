package dev.policyset.aps.core.impact;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.policyset.aps.core.impact.ImpactScanTest.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ObjectChangesTest {
    private static List<String> changes(String before, String after) {
        return ObjectChanges.between(node(before), node(after)).stream()
                .map(c -> c.op() + " " + c.path() + " | " + c.describe()).toList();
    }

    @Test
    void addReplaceAndRemoveWithOldAndNewValues() {
        assertEquals(List.of(
                "replace /spec/replicas | spec.replicas: 1 → 2",
                "remove /spec/paused | spec.paused: true → (removed)",
                "add /metadata/labels/app.kubernetes.io~1name | metadata.labels[\"app.kubernetes.io/name\"]: (unset) → \"web\""),
                changes("{spec: {replicas: 1, paused: true}, metadata: {labels: {}}}",
                        "{spec: {replicas: 2}, metadata: {labels: {app.kubernetes.io/name: web}}}"));
    }

    @Test
    void appendedItemsAreAdditionsOtherListChangesReplaceTheList() {
        assertEquals(List.of("add /l/2 | l[2]: (unset) → \"c\""), changes("{l: [a, b]}", "{l: [a, b, c]}"));
        assertEquals(List.of("replace /l | l: [\"a\",\"b\"] → [\"c\",\"a\",\"b\"]"), changes("{l: [a, b]}", "{l: [c, a, b]}"));
        assertEquals(List.of("replace /l/1 | l[1]: \"b\" → \"x\""), changes("{l: [a, b]}", "{l: [a, x]}"));
    }

    @Test
    void equalObjectsHaveNoChange() {
        assertTrue(ObjectChanges.between(node("{a: {b: [1, 2]}}"), node("{a: {b: [1, 2]}}")).isEmpty());
    }
}
