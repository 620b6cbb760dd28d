package dev.policyset.aps.core.model;

import java.time.LocalDate;
import java.util.regex.Pattern;

/**
 * A waiver of one safety rule for the objects one pattern names, with the reason shown next to the waived finding.
 * Three places write them, and one path applies them all ({@code Validator}): a set's
 * {@code spec.safety.exemptions} (for the objects it generates), the {@value #ANNOTATION} annotation on a bare
 * object, and a repository's {@code .aps.yaml} (for bare objects the repository does not own, e.g. a vendor chart).
 *
 * @param object  {@code Kind/name}, where {@code *} stands for any run of characters and {@code ?} for one
 *                ({@code ValidatingWebhookConfiguration/cert-manager-*}); a name without them matches itself only
 * @param expires the last day it waives anything, or null for no end (only {@code .aps.yaml} sets it)
 * @param source  where it was written, for the findings about the waiver itself; null for a set's exemption
 *                until the validator, which knows the set, fills it in
 */
public record Exemption(String rule, String object, String reason, LocalDate expires, Source source) {
    /** The annotation that waives rules for the bare object that carries it: lines of {@code RULE[, RULE]: reason}. */
    public static final String ANNOTATION = "admission.policyset.dev/waive";

    /**
     * Where a waiver was written: the {@code Kind/name} its findings name (empty for a repository file), the field
     * there ({@code spec.safety.exemptions[0]}, {@code metadata.annotations}, {@code waivers[2].objects[0]}), and how a
     * message names it.
     */
    public record Source(String object, String field, String description) {}

    public Exemption(String rule, String object, String reason) {
        this(rule, object, reason, null, null);
    }

    /** The same waiver, written at {@code source}. */
    public Exemption at(Source where) {
        return new Exemption(rule, object, reason, expires, where);
    }

    /** Whether it names this rule and this object (by its pattern). */
    public boolean matches(String findingRule, String objectId) {
        return rule != null && object != null && rule.equals(findingRule) && glob(object).matcher(objectId).matches();
    }

    /** Whether its last day is before {@code today}; never, without a date or without a clock (null). */
    public boolean expiredOn(LocalDate today) {
        return expires != null && today != null && today.isAfter(expires);
    }

    /** {@code *} any run of characters (the {@code /} between kind and name included), {@code ?} one; the rest literal. */
    static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
