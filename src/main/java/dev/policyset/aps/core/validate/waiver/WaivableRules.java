package dev.policyset.aps.core.validate.waiver;

import dev.policyset.aps.core.finding.RuleCatalog;

import java.util.Optional;

/** Which rule IDs a waiver may name, and what to tell someone who names another. */
public final class WaivableRules {
    private WaivableRules() {}

    /** The catalog's spelling of a waivable rule ({@code aps302} → {@code APS302}), or why it cannot be waived. */
    public static Result check(String rule) {
        if (rule == null || rule.isBlank()) {
            return Result.refused("names no rule; write the rule ID, e.g. APS302");
        }
        String id = rule.strip();
        if (id.startsWith("api/") || id.startsWith("cel/")) {
            return Result.refused(id + " cannot be waived: the API server would refuse the object (or not check the "
                    + "expression) whatever a waiver says; fix the field the finding names");
        }
        if (id.startsWith("input/")) {
            return Result.refused(id + " cannot be waived: the input could not be validated; fix the file");
        }
        Optional<RuleCatalog.Rule> known = RuleCatalog.find(id).filter(r -> r.id().startsWith("APS"));
        if (known.isEmpty()) {
            return Result.refused("\"" + id + "\" is not a safety rule; write an ID from docs/rules.md, e.g. APS302");
        }
        String canonical = known.get().id();
        if (canonical.equals("APS403")) {
            return Result.refused("APS403 cannot be waived: the set would take over an object someone else owns");
        }
        if (canonical.startsWith("APS9")) {
            return Result.refused(canonical + " reports on the waivers themselves and cannot be waived; fix the waiver");
        }
        return new Result(canonical, null);
    }

    /** @param rule the rule's ID when it can be waived; {@code problem} otherwise */
    public record Result(String rule, String problem) {
        static Result refused(String problem) {
            return new Result(null, problem);
        }

        public boolean ok() {
            return problem == null;
        }
    }
}
