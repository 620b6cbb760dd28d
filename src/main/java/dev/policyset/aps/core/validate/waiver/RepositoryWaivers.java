package dev.policyset.aps.core.validate.waiver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.Exemption;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A repository's waiver file ({@code .aps.yaml}) for bare objects it does not own:
 *
 * <pre>
 * waivers:
 *   - rule: APS302
 *     objects: [MutatingWebhookConfiguration/cert-manager-*]
 *     reason: cert-manager's chart sets timeoutSeconds 30 on both webhooks; vendored as published
 *     expires: 2027-06-30      # optional: the last day it waives; afterwards the findings come back, and say so
 * </pre>
 *
 * {@code object: PATTERN} may stand for a one-pattern {@code objects}. Each pattern becomes one {@link Exemption}, so
 * a pattern that matches nothing is reported on its own. An entry without a rule, a waivable rule, a pattern or a
 * reason waives nothing and is reported (APS902) at its field; findings name no object ({@code ""}) and a field of
 * this file ({@code waivers[0].reason}), which the caller locates in it.
 */
public final class RepositoryWaivers {
    private static final Set<String> KEYS = Set.of("rule", "object", "objects", "reason", "expires");

    private RepositoryWaivers() {}

    /** @param file the file's name as the user sees it, for messages */
    public static WaiverAnnotation.Read read(JsonNode root, String file) {
        List<Exemption> waivers = new ArrayList<>();
        List<Finding> problems = new ArrayList<>();
        if (root == null || root.isMissingNode() || root.isNull() || (root.isTextual() && root.asText().isBlank())) {
            return new WaiverAnnotation.Read(waivers, problems);
        }
        if (!root.isObject()) {
            problems.add(problem(file, "", "must be a mapping with a \"waivers\" list"));
            return new WaiverAnnotation.Read(waivers, problems);
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("waivers")) {
                problems.add(problem(file, name, "unknown key \"" + name + "\"; the file holds a \"waivers\" list"));
            }
        }
        JsonNode list = root.path("waivers");
        if (list.isMissingNode() || list.isNull()) {
            return new WaiverAnnotation.Read(waivers, problems);
        }
        if (!list.isArray()) {
            problems.add(problem(file, "waivers", "must be a list of {rule, objects, reason, expires}"));
            return new WaiverAnnotation.Read(waivers, problems);
        }
        for (int i = 0; i < list.size(); i++) {
            entry(list.get(i), "waivers[" + i + "]", file, waivers, problems);
        }
        return new WaiverAnnotation.Read(List.copyOf(waivers), List.copyOf(problems));
    }

    private static void entry(JsonNode e, String path, String file, List<Exemption> waivers, List<Finding> problems) {
        if (!e.isObject()) {
            problems.add(problem(file, path, "must be a mapping with rule, objects, reason and (optionally) expires"));
            return;
        }
        for (Iterator<String> names = e.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KEYS.contains(name)) {
                problems.add(problem(file, path + "." + name, "unknown key \"" + name + "\" (ignored); an entry has "
                        + "rule, objects (or object), reason and expires"));
            }
        }
        boolean usable = true;
        WaivableRules.Result rule = WaivableRules.check(e.path("rule").isValueNode() ? e.path("rule").asText() : null);
        if (!rule.ok()) {
            problems.add(problem(file, path + ".rule", "rule " + rule.problem() + "; this entry waives nothing"));
            usable = false;
        }
        String reason = e.path("reason").isValueNode() ? e.path("reason").asText().strip() : "";
        if (reason.isEmpty()) {
            problems.add(problem(file, path + ".reason", "a waiver needs a reason (why the risk is accepted, shown next "
                    + "to each waived finding); this entry waives nothing until it has one"));
            usable = false;
        }
        LocalDate expires = null;
        JsonNode date = e.path("expires");
        if (!date.isMissingNode() && !date.isNull()) {
            try {
                expires = LocalDate.parse(date.asText().strip());
            } catch (DateTimeParseException ex) {
                problems.add(problem(file, path + ".expires", "\"" + date.asText() + "\" is not a date like 2026-06-30; "
                        + "this entry waives nothing until it is"));
                usable = false;
            }
        }
        List<String> fields = new ArrayList<>();
        List<String> patterns = new ArrayList<>();
        if (e.path("objects").isArray()) {
            for (int j = 0; j < e.path("objects").size(); j++) {
                fields.add(path + ".objects[" + j + "]");
                patterns.add(e.path("objects").get(j).asText(""));
            }
        } else if (e.has("objects")) {
            problems.add(problem(file, path + ".objects", "must be a list of Kind/name patterns"));
        }
        if (e.path("object").isValueNode()) {
            fields.add(path + ".object");
            patterns.add(e.path("object").asText(""));
        }
        if (patterns.isEmpty()) {
            problems.add(problem(file, path, "names no objects; add objects: [Kind/name, ...] (* and ? allowed, e.g. "
                    + "ValidatingWebhookConfiguration/cert-manager-*)"));
        }
        for (int j = 0; j < patterns.size(); j++) {
            String pattern = patterns.get(j).strip();
            if (!pattern.contains("/") || pattern.startsWith("/") || pattern.endsWith("/")) {
                problems.add(problem(file, fields.get(j), "\"" + pattern + "\" is not a Kind/name pattern, e.g. "
                        + "ValidatingWebhookConfiguration/cert-manager-*; it waives nothing"));
                continue;
            }
            if (usable) {
                waivers.add(new Exemption(rule.rule(), pattern, reason, expires,
                        new Exemption.Source("", fields.get(j), file + " " + fields.get(j))));
            }
        }
    }

    private static Finding problem(String file, String field, String message) {
        return Finding.warning(Waivers.UNUSABLE, "", field, file + (field.isEmpty() ? "" : " " + field) + ": " + message);
    }
}
