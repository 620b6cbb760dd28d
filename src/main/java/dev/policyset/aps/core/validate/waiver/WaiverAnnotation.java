package dev.policyset.aps.core.validate.waiver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.Exemption;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@value Exemption#ANNOTATION} annotation of one bare object: one waiver per line, {@code RULE: reason}, or
 * {@code RULE, RULE: reason} for several rules with one reason. A line without a reason, or naming a rule that
 * cannot be waived, waives nothing and is reported (APS902) on the annotation.
 *
 * <pre>
 * metadata:
 *   annotations:
 *     admission.policyset.dev/waive: |
 *       APS302: cert-manager's chart sets timeoutSeconds 30 on both webhooks; vendored as published
 *       APS301, APS203: reviewed with the cert-manager maintainers' defaults
 * </pre>
 */
public final class WaiverAnnotation {
    /** The field findings about the annotation name (a map key, in the API server's path style). */
    public static final String FIELD = "metadata.annotations[" + Exemption.ANNOTATION + "]";
    /** How findings and waived findings name this source. */
    public static final String DESCRIPTION = "the annotation " + Exemption.ANNOTATION;

    private WaiverAnnotation() {}

    /** Waivers read from one waiver source, and what is wrong with the entries that waive nothing. */
    public record Read(List<Exemption> waivers, List<Finding> problems) {}

    /** The waivers of the object {@code objectId} with this {@code metadata}; none when it has no such annotation. */
    public static Read read(String objectId, JsonNode metadata) {
        JsonNode value = metadata.path("annotations").path(Exemption.ANNOTATION);
        List<Exemption> waivers = new ArrayList<>();
        List<Finding> problems = new ArrayList<>();
        if (value.isMissingNode() || value.isNull()) {
            return new Read(waivers, problems);
        }
        Exemption.Source source = new Exemption.Source(objectId, FIELD, DESCRIPTION);
        String[] lines = value.asText("").split("\\R");
        int written = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            written++;
            int colon = line.indexOf(':');
            String rules = colon < 0 ? line : line.substring(0, colon);
            String reason = colon < 0 ? "" : line.substring(colon + 1).strip();
            for (String rule : rules.split(",")) {
                WaivableRules.Result checked = WaivableRules.check(rule);
                if (!checked.ok()) {
                    problems.add(problem(objectId, "\"" + line.strip() + "\" " + checked.problem()));
                } else if (reason.isEmpty()) {
                    problems.add(problem(objectId, "\"" + line.strip() + "\" waives " + checked.rule()
                            + " without a reason, so it waives nothing; write the reason after a colon: \""
                            + checked.rule() + ": <why the risk is accepted>\""));
                } else {
                    waivers.add(new Exemption(checked.rule(), objectId, reason, null, source));
                }
            }
        }
        if (written == 0) {
            problems.add(problem(objectId, "the annotation is empty, so it waives nothing; write one line per rule: "
                    + "\"APS302: <why the risk is accepted>\", or remove it"));
        }
        return new Read(List.copyOf(waivers), List.copyOf(problems));
    }

    private static Finding problem(String objectId, String message) {
        return Finding.warning(Waivers.UNUSABLE, objectId, FIELD, Exemption.ANNOTATION + ": " + message);
    }
}
