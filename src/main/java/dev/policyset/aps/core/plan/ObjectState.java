package dev.policyset.aps.core.plan;

/** What a plan says about one generated object; the label is {@code status.resources[].state}. */
public enum ObjectState {
    /** Applied (or already in place) at this generation. */
    APPLIED("Applied"),
    /** Not applied: the generation is blocked by a finding or by another object's rejection. */
    PENDING("Pending"),
    /** The API server rejected its server-side dry run. */
    REJECTED("Rejected"),
    /** It exists and is not the set's (APS403). */
    CONFLICT("Conflict"),
    /**
     * Another field manager keeps taking back fields the set renders; after {@code aps.contested.max-repairs} repairs
     * at this generation the operator stopped forcing and left the object as the other manager set it (APS405).
     */
    CONTESTED("Contested");

    private final String label;

    ObjectState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
