package dev.policyset.aps.api.v1alpha1;

/** How sure a schema type-checking finding (APS602) is: a warning (the default) or an error that stops the apply. */
public enum TypeChecking {
    Warn, Error
}
