package dev.policyset.aps.core.schema;

import java.util.Objects;

/** A kind in one API group version ({@code apps/v1 Deployment}; the core group is {@code ""}). */
public record GroupVersionKind(String group, String version, String kind) {
    public GroupVersionKind {
        group = group == null ? "" : group;
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
    }

    /** From an {@code apiVersion} ({@code apps/v1}, {@code v1}) and a kind. */
    public static GroupVersionKind of(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? new GroupVersionKind("", apiVersion, kind)
                : new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1), kind);
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /**
     * As the API server prints it ({@code schema.GroupVersionKind.String()} in apimachinery:
     * {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=Pod}); the type checker's warnings start with it.
     */
    @Override
    public String toString() {
        return group + "/" + version + ", Kind=" + kind;
    }
}
