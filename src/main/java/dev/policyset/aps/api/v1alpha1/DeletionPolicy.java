package dev.policyset.aps.api.v1alpha1;

/** What happens to generated objects when their set is deleted. */
public enum DeletionPolicy {
    Delete, Orphan
}
