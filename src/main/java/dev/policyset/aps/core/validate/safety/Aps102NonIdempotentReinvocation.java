package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.MatchCondition;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * APS102: {@code reinvocationPolicy: IfNeeded} on a MutatingAdmissionPolicy whose JSONPatch appends to a list
 * ({@code op: "add"} on a path ending in {@code /-}).
 *
 * <p>Risk model: a reinvoked policy applies its mutation a second time, and the element is appended twice. But
 * reinvocation re-evaluates the policy's matchConditions on the mutated object, so an append is idempotent when
 * <ul>
 *   <li>a matchCondition is false once the element is there: a negated {@code exists} over the same list
 *       ({@code !object.spec.initContainers.exists(c, c.name == "mesh-proxy")} for {@code /spec/initContainers/-}):
 *       reported as {@code info} (recognised guard), or</li>
 *   <li>an earlier operation of the same patch sets the whole list ({@code add} or {@code replace} on
 *       {@code /spec/initContainers}): silent.</li>
 * </ul>
 * Otherwise: <b>error</b> when nothing could guard it (no matchCondition and no test of the list in the expression
 * itself); <b>warning</b> when a matchCondition or the expression tests the object in a form not recognised here
 * (it may guard the append; this check cannot tell). ApplyConfiguration mutations merge by key and are not judged;
 * webhooks are APS101's (their mutation is not visible).
 */
public final class Aps102NonIdempotentReinvocation implements SafetyRule {
    /** A JSONPatch operation literal: {@code op: "add", path: "/a/b"} in either order of the two fields. */
    private static final Pattern OP_PATH = Pattern.compile(
            "op\\s*:\\s*[\"'](\\w+)[\"']\\s*,\\s*path\\s*:\\s*[\"']([^\"']*)[\"']|path\\s*:\\s*[\"']([^\"']*)[\"']\\s*,\\s*op\\s*:\\s*[\"'](\\w+)[\"']");

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
            List<MatchCondition> conditions = MatchCondition.readAll(spec.get("matchConditions"), "spec.matchConditions");
            for (int i = 0; i < mutations.size(); i++) {
                JsonNode expression = mutations.get(i).path("jsonPatch").get("expression");
                if (expression != null && expression.isTextual()) {
                    judge(policy, "spec.mutations[" + i + "].jsonPatch.expression", expression.asText(), conditions).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    private Optional<Finding> judge(RenderedObject policy, String field, String expression, List<MatchCondition> conditions) {
        List<String[]> ops = new ArrayList<>(); // {op, path} in order of appearance
        Matcher m = OP_PATH.matcher(expression);
        while (m.find()) {
            ops.add(m.group(1) != null ? new String[] {m.group(1), m.group(2)} : new String[] {m.group(4), m.group(3)});
        }
        for (int k = 0; k < ops.size(); k++) {
            String[] op = ops.get(k);
            if (!op[0].equals("add") || !op[1].endsWith("/-")) {
                continue;
            }
            String list = op[1].substring(0, op[1].length() - 2);
            if (resetEarlier(ops, k, list)) {
                continue;
            }
            String dotted = "object" + list.replace('/', '.');
            Optional<MatchCondition> guard = conditions.stream().filter(c -> negatedExists(c.expression(), dotted)).findFirst();
            if (guard.isPresent()) {
                return Optional.of(Finding.info(id(), policy.id(), field, "reinvocationPolicy is IfNeeded and this JSONPatch "
                        + "appends to " + list + ", guarded by " + guard.get().label() + ": reinvocation re-evaluates "
                        + "matchConditions, which are false once the element is there, so it is not appended twice"));
            }
            boolean testsObject = expression.contains(dotted + ".") || conditions.stream().anyMatch(c -> c.expression().contains("object"));
            String what = "reinvocationPolicy is IfNeeded and this JSONPatch appends to a list (op \"add\" on " + op[1] + ")";
            String fix = " Set reinvocationPolicy: Never, guard the patch with a matchCondition that is false once the "
                    + "element is there (!" + dotted + ".exists(e, e.name == \"...\")), or use an ApplyConfiguration "
                    + "mutation (merged by key)";
            if (testsObject) {
                return Optional.of(Finding.warning(id(), policy.id(), field, what + "; a matchCondition or the expression "
                        + "tests the object in a form this check does not recognise as a guard, so it cannot tell whether "
                        + "a reinvocation appends the element again." + fix));
            }
            return Optional.of(Finding.error(id(), policy.id(), field, what + " and nothing guards it: when the policy is "
                    + "reinvoked the element is appended again." + fix));
        }
        return Optional.empty();
    }

    /** An earlier {@code add} or {@code replace} of the whole list in the same patch: the append starts afresh. */
    private static boolean resetEarlier(List<String[]> ops, int k, String list) {
        for (int j = 0; j < k; j++) {
            if ((ops.get(j)[0].equals("add") || ops.get(j)[0].equals("replace")) && ops.get(j)[1].equals(list)) {
                return true;
            }
        }
        return false;
    }

    /** {@code !<list>.exists(...)} (spaces allowed), optionally behind {@code !has(<list>) ||}. */
    private static boolean negatedExists(String condition, String dottedList) {
        String c = condition.replaceAll("\\s+", "");
        return c.contains("!" + dottedList + ".exists(") || c.contains("!(" + dottedList + ".exists(");
    }
}
