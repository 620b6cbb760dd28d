package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ObjectMetaValidationTest {
    private static String withMetadata(String metadata) {
        return Api.vap(Api.VAP_SPEC).replace("metadata:\n  name: p.example.com\n", "metadata:\n" + metadata);
    }

    @Test
    void generateNameAloneIsEnoughBecauseTheServerGeneratesTheName() {
        assertEquals(List.of(), Api.errors(withMetadata("  generateName: policy-\n")));
        assertEquals(List.of("metadata.name Required"), Api.errors(withMetadata("  labels: {a: b}\n")));
    }

    @Test
    void aBadGenerateNameFailsBothTheGenerateNameAndTheGeneratedName() {
        assertEquals(List.of("metadata.generateName Invalid", "metadata.name Invalid"),
                Api.errors(withMetadata("  generateName: Policy-\n")));
    }

    @Test
    void namespaceIsDroppedForClusterScopedKinds() {
        assertEquals(List.of(), Api.errors(withMetadata("  name: p.example.com\n  namespace: default\n")));
    }

    @Test
    void namesLabelsAnnotationsFinalizersOwners() {
        String longName = "a".repeat(254);
        assertEquals(List.of("metadata.name Invalid"), Api.errors(withMetadata("  name: " + longName + "\n")));
        assertEquals(List.of("metadata.annotations Invalid", "metadata.labels Invalid", "metadata.labels Invalid"),
                Api.errors(withMetadata("  name: p\n  labels: {'a/b/c': 'x y'}\n  annotations: {'-x': v, OK.Upper/Key: v}\n")));
        assertEquals(List.of("metadata.annotations TooLong"),
                Api.errors(withMetadata("  name: p\n  annotations: {big: '" + "x".repeat(262_144) + "'}\n")));
        assertEquals(List.of("metadata.finalizers Invalid", "metadata.ownerReferences.uid Invalid"),
                Api.errors(withMetadata("  name: p\n  finalizers: [example.com/ok, 'bad finalizer']\n"
                        + "  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: c}]\n")));
    }

    @Test
    void staticSuffixIsReservedFrom137() {
        String reserved = withMetadata("  name: p.static.k8s.io\n");
        assertEquals(List.of(), Api.errors(reserved, new KubeVersion(1, 36)));
        assertEquals(List.of("metadata.name Invalid"), Api.errors(reserved, new KubeVersion(1, 37)));
    }
}
