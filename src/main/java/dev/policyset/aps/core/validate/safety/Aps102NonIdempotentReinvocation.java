package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * APS102: {@code reinvocationPolicy: IfNeeded} on a MutatingAdmissionPolicy whose mutation is not idempotent.
 * A reinvoked policy applies its mutation a second time; a JSONPatch {@code add} to the end of a list
 * ({@code /-}) then appends the element twice. ApplyConfiguration mutations merge (map-lists by key, maps by
 * key), so applying them twice gives the same object; they are not flagged. Webhooks are not judged here:
 * their mutation is not visible in the configuration.
 */
public final class Aps102NonIdempotentReinvocation implements SafetyRule {
    /** {@code op: "add"} in a JSONPatch literal. */
    private static final Pattern ADD_OP = Pattern.compile("op\\s*:\\s*[\"']add[\"']");
    /** A path literal that ends in {@code /-} (append to a list). */
    private static final Pattern APPEND_PATH = Pattern.compile("/-[\"']");

    @Override
    public String id() {
        return "APS102";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (RenderedObject policy : Subjects.ofKind(context, AdmissionKind.MUTATING_ADMISSION_POLICY)) {
            JsonNode spec = policy.content();
            if (!Subjects.text(spec, "reinvocationPolicy").orElse("").equals("IfNeeded")) {
                continue;
            }
            JsonNode mutations = spec.get("mutations");
            if (mutations == null || !mutations.isArray()) {
                continue;
            }
            for (int i = 0; i < mutations.size(); i++) {
                JsonNode expression = mutations.get(i).path("jsonPatch").get("expression");
                if (expression != null && expression.isTextual() && ADD_OP.matcher(expression.asText()).find()
                        && APPEND_PATH.matcher(expression.asText()).find()) {
                    out.add(Finding.error(id(), policy.id(), "spec.mutations[" + i + "].jsonPatch.expression",
                            "reinvocationPolicy is IfNeeded but this JSONPatch appends to a list (op \"add\" on a path "
                                    + "ending in /-): when the policy is reinvoked the element is appended again. Set "
                                    + "reinvocationPolicy: Never, guard the patch with a matchCondition that skips objects "
                                    + "already mutated, or use an ApplyConfiguration mutation (merged by key)"));
                }
            }
        }
        return out;
    }
}
