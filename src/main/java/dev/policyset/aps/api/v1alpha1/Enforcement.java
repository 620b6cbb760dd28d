package dev.policyset.aps.api.v1alpha1;

/** Whether a safety error stops the apply (Block) or is only reported (Warn). */
public enum Enforcement {
    Block, Warn
}
