package dev.policyset.aps.api.v1alpha1;

/**
 * Bounds on the spec's lists and strings. They exist for the CRD's CEL rules: the API server
 * refuses a CRD whose rules' estimated cost is unbounded, and it estimates list sizes from these.
 */
final class Limits {
    static final int MAX_MEMBERS = 100;
    /** 16, not 32: with 32 the bindings uniqueness rule (quadratic in the list) is estimated at 1.1x the API
     * server's per-rule cost limit across 100 members, and a real API server refuses the CRD (AdmissionPolicySetRealServerTest). */
    static final int MAX_BINDINGS = 16;
    static final int MAX_WEBHOOKS = 64;
    static final int MAX_EXEMPTIONS = 200;
    static final int MAX_EXCLUDED_NAMESPACES = 64;
    /** DNS-1123 subdomain length: the longest object name the API server accepts. */
    static final int MAX_NAME = 253;

    private Limits() {}
}
