package dev.policyset.aps.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MutatingAdmissionPolicy ladder: which version by Kubernetes version, and which of the served ones to use. */
class MutatingPolicyVersionsTest {
    @Test
    void newestByKubernetesVersion() {
        assertEquals(Optional.empty(), MutatingPolicyVersions.newestAt(new KubeVersion(1, 31)));
        assertEquals(Optional.of("v1alpha1"), MutatingPolicyVersions.newestAt(new KubeVersion(1, 32)));
        assertEquals(Optional.of("v1alpha1"), MutatingPolicyVersions.newestAt(new KubeVersion(1, 33)));
        assertEquals(Optional.of("v1beta1"), MutatingPolicyVersions.newestAt(new KubeVersion(1, 34)));
        assertEquals(Optional.of("v1beta1"), MutatingPolicyVersions.newestAt(new KubeVersion(1, 35)));
        assertEquals(Optional.of("v1"), MutatingPolicyVersions.newestAt(new KubeVersion(1, 36)));
        assertEquals(MutatingPolicyVersions.newestAt(new KubeVersion(1, 35)), new KubeVersion(1, 35).mutatingPolicyApiVersion());
    }

    @Test
    void everyServableVersionNewestFirst() {
        assertEquals(List.of(), MutatingPolicyVersions.servableAt(new KubeVersion(1, 30)));
        assertEquals(List.of("v1beta1", "v1alpha1"), MutatingPolicyVersions.servableAt(new KubeVersion(1, 34)));
        assertEquals(List.of("v1", "v1beta1", "v1alpha1"), MutatingPolicyVersions.servableAt(new KubeVersion(1, 36)));
    }

    @Test
    void discoveryPicksTheNewestServed() {
        assertEquals(Optional.of("v1"), MutatingPolicyVersions.newestOf(Set.of("v1alpha1", "v1", "v1beta1")));
        assertEquals(Optional.of("v1beta1"), MutatingPolicyVersions.newestOf(Set.of("v1alpha1", "v1beta1")));
        assertEquals(Optional.of("v1alpha1"), MutatingPolicyVersions.newestOf(Set.of("v1alpha1", "v2alpha1")));
        assertEquals(Optional.empty(), MutatingPolicyVersions.newestOf(Set.of()));
    }

    @Test
    void knownVersionsAndTheMessage() {
        assertTrue(MutatingPolicyVersions.isKnown("v1beta1"));
        assertFalse(MutatingPolicyVersions.isKnown("v2"));
        assertEquals(List.of("v1alpha1", "v1beta1", "v1"), MutatingPolicyVersions.ALL);
        assertTrue(MutatingPolicyVersions.notServedMessage().contains("v1, v1beta1, v1alpha1"),
                MutatingPolicyVersions.notServedMessage());
    }
}
