package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.GuardedForms;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.cel.cost.AdmissionSizeEstimator;
import dev.policyset.aps.core.cel.cost.CostAnalysis;
import dev.policyset.aps.core.cel.cost.CostConstants;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * APS701: a CEL expression whose estimated cost can exceed the API server's runtime limits. The API server
 * checks no cost when an admission policy is created (unlike CRD validation rules); it counts the cost while
 * evaluating and stops an expression past {@code celconfig.PerCallLimit} (1,000,000) with
 * {@code operation cancelled: actual cost limit exceeded}, and a policy whose expressions together pass
 * {@code RuntimeCELCostBudget} (10,000,000; matchConditions: 2,500,000) with {@code validation failed due to
 * running out of cost budget}. Then {@code failurePolicy: Fail} denies the request and {@code Ignore} lets it
 * through unchecked: a large enough object bypasses the policy.
 *
 * <p>The estimate is cel-go's ({@code checker/cost.go} with the Kubernetes library costs), with admission data
 * bounded by the request size where there is no schema ({@link AdmissionSizeEstimator}).
 *
 * <p>Risk model: <b>error</b> when even the estimated minimum exceeds the limit (every evaluation that reaches
 * the expression fails, whatever the input); <b>warning</b> when only the maximum does and a failure fails
 * open ({@code failurePolicy: Ignore}, or a webhook's matchCondition under an Ignore webhook): a request with
 * large enough data skips the policy, so the overrun is a way around it; <b>info</b> when only the maximum does,
 * the policy fails closed and the cost grows faster than its inputs ({@link CostAnalysis.Growth#SUPERLINEAR}):
 * an object well inside the request limit can then be denied. <b>Silent</b> when it fails closed and grows at
 * most linearly: only a request built to be near the 3 MiB limit reaches the limit, and denying it is the
 * conservative failure (before this distinction the rule noted every loop over unschema'd data: 452 notes over
 * the public corpus, none of them a risk).
 */
public final class Aps701CelCost implements SafetyRule {
    private static final KubernetesCelChecker CHECKER = new KubernetesCelChecker();
    /**
     * Estimates by compile result: the operator validates the same expressions on every reconcile, and an
     * analysis re-estimates an expression once per driver and twice for its growth (bounded, least recently used).
     */
    private static final Map<KubernetesCelEnvironment.Compiled, CostAnalysis> ANALYSES =
            dev.policyset.aps.core.util.BoundedMaps.leastRecentlyUsed(4096);

    @Override
    public String id() {
        return "APS701";
    }

    /** One expression of an object, with what it is compiled as and which budget it spends. */
    private record Expression(String field, ExpressionKind kind, String expression, Map<String, String> variables,
                              String budget) {
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (var subject : context.subjects()) {
            RenderedObject object = subject.object();
            CelChecker.PolicyType type = switch (object.kind()) {
                case VALIDATING_ADMISSION_POLICY -> CelChecker.PolicyType.VALIDATING;
                case MUTATING_ADMISSION_POLICY -> CelChecker.PolicyType.MUTATING;
                case VALIDATING_WEBHOOK_CONFIGURATION, MUTATING_WEBHOOK_CONFIGURATION -> CelChecker.PolicyType.WEBHOOK;
                default -> null;
            };
            if (type == null) {
                continue;
            }
            JsonNode root = object.manifest();
            boolean hasParams = type != CelChecker.PolicyType.WEBHOOK && root.path("spec").hasNonNull("paramKind");
            Map<String, Long> spent = new LinkedHashMap<>();
            Map<String, Long> spentMin = new LinkedHashMap<>();
            Map<String, Boolean> superlinear = new LinkedHashMap<>();
            for (Expression e : expressions(object.kind(), root)) {
                CostAnalysis analysis;
                dev.cel.common.types.CelType resultType;
                try {
                    KubernetesCelEnvironment env = CHECKER.environment(type, hasParams, context.options().kubeVersion(),
                            e.variables(), e.kind());
                    KubernetesCelEnvironment.Compiled compiled = env.compile(e.expression());
                    if (!compiled.ok()) {
                        continue; // the API-server rules report it
                    }
                    resultType = compiled.resultType();
                    analysis = ANALYSES.get(compiled);
                    if (analysis == null) { // estimated outside the lock: reconciles run in parallel
                        analysis = CostAnalysis.of(compiled.ast());
                        ANALYSES.put(compiled, analysis);
                    }
                } catch (RuntimeException ex) {
                    continue; // cel/Unchecked reports checker failures
                }
                long max = analysis.estimate().max();
                long min = analysis.estimate().min();
                spent.merge(e.budget(), Math.min(max, CostConstants.PER_CALL_LIMIT), Long::sum);
                spentMin.merge(e.budget(), Math.min(min, CostConstants.PER_CALL_LIMIT), Long::sum);
                boolean grows = analysis.growth() == CostAnalysis.Growth.SUPERLINEAR;
                superlinear.merge(e.budget(), grows, Boolean::logicalOr);
                if (max > CostConstants.PER_CALL_LIMIT && reportable(min > CostConstants.PER_CALL_LIMIT,
                        failsOpen(object, root, e.field()), grows)) {
                    out.add(perCall(object, e, resultType, analysis, root));
                }
            }
            for (Map.Entry<String, Long> b : spent.entrySet()) {
                long budget = b.getKey().equals("policy") ? CostConstants.RUNTIME_CEL_COST_BUDGET
                        : CostConstants.RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS;
                String field = b.getKey().equals("policy") ? "spec" : b.getKey();
                if (b.getValue() > budget && reportable(spentMin.get(b.getKey()) > budget, failsOpen(object, root, field),
                        superlinear.get(b.getKey()))) {
                    out.add(perPolicy(object, b.getKey(), b.getValue(), spentMin.get(b.getKey()), budget, root));
                }
            }
        }
        return out;
    }

    private Finding perCall(RenderedObject object, Expression e, dev.cel.common.types.CelType resultType,
                            CostAnalysis analysis, JsonNode root) {
        long min = analysis.estimate().min();
        boolean certain = min > CostConstants.PER_CALL_LIMIT;
        StringBuilder m = new StringBuilder();
        m.append("the estimated cost of this expression is ").append(range(analysis)).append(", over the API server's ")
                .append("per-expression limit of ").append(number(CostConstants.PER_CALL_LIMIT))
                .append(" (celconfig.PerCallLimit). ");
        if (certain) {
            m.append("Every evaluation fails with \"").append(CostConstants.COST_LIMIT_EXCEEDED).append("\"");
        } else {
            m.append("It fails with \"").append(CostConstants.COST_LIMIT_EXCEEDED)
                    .append(analysis.growth() == CostAnalysis.Growth.SUPERLINEAR
                            ? "\" when the input is large enough, and its cost grows faster than the input (a loop in a "
                            + "loop, or a scan per item), so objects far below the request size limit can get there"
                            : "\" when the input is large enough");
            if (!analysis.drivers().isEmpty()) {
                List<CostAnalysis.Driver> drivers = analysis.drivers();
                m.append(": ").append(drivers.stream().limit(3).map(Aps701CelCost::describe)
                        .collect(Collectors.joining("; ")));
                if (drivers.size() > 3) {
                    m.append("; and ").append(drivers.size() - 3).append(" more");
                }
            }
        }
        m.append(". ").append(consequence(object, root)).append(". Fix: ");
        if (certain) {
            m.append("do less in one expression (fewer authorizer checks, no nested loops over large lists), or split it "
                    + "into several validations");
        } else {
            String example = analysis.drivers().stream()
                    .filter(d -> d.kind() != AdmissionSizeEstimator.Unbounded.UNKNOWN || d.path().size() > 1)
                    .filter(d -> !d.path().contains("@items") && !d.path().contains("@values") && !d.path().contains("@keys"))
                    .map(CostAnalysis.Driver::display).findFirst().orElse("x");
            m.append("bound the input in the same expression before the work: `").append(bounded(e.kind(), resultType, example))
                    .append("` with the current expression for `...` (").append(boundedEffect(e.kind()))
                    .append("; aps counts such a guard, the API server's own estimate does not, but at runtime the ")
                    .append("work is never reached), or do less per item (no regex or nested loop inside a loop; ")
                    .append("compute a value once in spec.variables)");
        }
        return finding(certain, failsOpen(object, root, e.field()), object, e.field(), m.toString());
    }

    private Finding perPolicy(RenderedObject object, String budgetName, long max, long min, long budget, JsonNode root) {
        boolean certain = min > budget;
        String what = budgetName.equals("policy") ? "validations, variables, messageExpressions and auditAnnotations"
                : "matchConditions";
        String field = budgetName.equals("policy") ? "spec" : budgetName;
        String m = "the " + what + " of this " + (budgetName.equals("policy") ? "policy" : "webhook")
                + " together have an estimated worst-case cost of " + number(max) + " (each capped at the per-expression "
                + "limit), over the runtime budget of " + number(budget) + " ("
                + (budgetName.equals("policy") ? "celconfig.RuntimeCELCostBudget" : "celconfig.RuntimeCELCostBudgetMatchConditions")
                + "). " + (certain ? "Every request they evaluate for fails" : "Requests with large enough objects fail")
                + " with \"" + CostConstants.OUT_OF_BUDGET + "\". " + consequence(object, root)
                + ". Fix: make the expensive expressions cheaper (see the per-expression APS701 findings) or spread the "
                + "checks over several policies (each has its own budget)";
        return finding(certain, failsOpen(object, root, field), object, field, m);
    }

    /** The bound the advice puts in front of the expression: {@code size(x) <= 100 && (...)} where the kind is a bool. */
    static final int ADVISED_BOUND = 100;

    /**
     * The expression with its input bounded, in the form its kind type-checks in (the expression is {@code ...}): a
     * validation is false (denied) past the bound; a matchCondition true (past the bound the policy still runs, so
     * a large object cannot slip out of its match); anything else takes the kind's fallback past the bound
     * ({@link GuardedForms}: no mutation, the static message, the variable's empty value).
     */
    static String bounded(ExpressionKind kind, dev.cel.common.types.CelType resultType, String input) {
        String size = "size(" + input + ")";
        return switch (kind) {
            case VALIDATION -> size + " <= " + ADVISED_BOUND + " && (...)";
            case MATCH_CONDITION, WEBHOOK_MATCH_CONDITION -> size + " > " + ADVISED_BOUND + " || (...)";
            default -> GuardedForms.when(kind, resultType, size + " <= " + ADVISED_BOUND, "(...)");
        };
    }

    private static String boundedEffect(ExpressionKind kind) {
        return switch (kind) {
            case VALIDATION -> "a larger input is then denied";
            case MATCH_CONDITION, WEBHOOK_MATCH_CONDITION -> "a larger input then matches, so it is still checked";
            case MESSAGE_EXPRESSION -> "a larger input then gets the static message";
            case AUDIT_ANNOTATION_VALUE -> "a larger input then gets an empty value";
            case MUTATION_APPLY_CONFIGURATION, MUTATION_JSON_PATCH -> "a larger input is then left unmutated";
            case VARIABLE -> "a larger input then sees the fallback: make sure the checks that use the variable deny "
                    + "it, or add a validation that does";
        };
    }

    /** The risk model's silent case: fails closed, not certain, and only a near-limit request gets there. */
    private static boolean reportable(boolean certain, boolean failsOpen, boolean superlinear) {
        return certain || failsOpen || superlinear;
    }

    private Finding finding(boolean certain, boolean failsOpen, RenderedObject object, String field, String message) {
        if (certain) {
            return Finding.error(id(), object.id(), field, message);
        }
        return failsOpen ? Finding.warning(id(), object.id(), field, message) : Finding.info(id(), object.id(), field, message);
    }

    /** Whether a failing expression at {@code field} lets the request through (failurePolicy Ignore). */
    private static boolean failsOpen(RenderedObject object, JsonNode root, String field) {
        if (object.kind() == AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION
                || object.kind() == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION) {
            int start = field.indexOf('[');
            int end = field.indexOf(']');
            int index = start > 0 && end > start ? Integer.parseInt(field.substring(start + 1, end)) : 0;
            return root.path("webhooks").path(index).path("failurePolicy").asText("Fail").equals("Ignore");
        }
        return root.path("spec").path("failurePolicy").asText("Fail").equals("Ignore");
    }

    private static String describe(CostAnalysis.Driver d) {
        String what = switch (d.kind()) {
            case LIST -> "a list whose length only the 3 MiB request size bounds (up to "
                    + number(AdmissionSizeEstimator.MAX_LIST_ITEMS) + " items; no schema gives it a maxItems)";
            case MAP -> "a map whose size only the request size bounds (up to " + number(AdmissionSizeEstimator.MAX_MAP_ENTRIES)
                    + " entries; no maxProperties)";
            case STRING -> "a string whose length only the request size bounds (up to "
                    + number(AdmissionSizeEstimator.MAX_STRING) + " characters; no maxLength)";
            case UNKNOWN -> "a value of unknown type (no schema) whose size only the request size bounds (up to "
                    + number(AdmissionSizeEstimator.MAX_STRING) + " characters or " + number(AdmissionSizeEstimator.MAX_LIST_ITEMS)
                    + " items)";
        };
        return "`" + d.display() + "` is " + what;
    }

    private static String consequence(RenderedObject object, JsonNode root) {
        if (object.kind() == AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION
                || object.kind() == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION) {
            return "A matchCondition that fails makes the webhook's failurePolicy decide: Fail denies the request, "
                    + "Ignore skips the webhook for it";
        }
        String policy = root.path("spec").path("failurePolicy").asText("Fail");
        return "With failurePolicy " + policy + (policy.equals("Ignore")
                ? " the policy is skipped for such a request: a large enough object gets around it"
                : " such a request is denied");
    }

    private static String range(CostAnalysis a) {
        long min = a.estimate().min();
        long max = a.estimate().max();
        return min == max ? number(max) : number(min) + " to " + (max >= UNBOUNDED ? "unbounded" : number(max));
    }

    /** Past this an estimate has saturated (cel-go's arithmetic stops at the largest uint64): say unbounded. */
    private static final long UNBOUNDED = 1_000_000_000_000_000L;

    private static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** Every CEL expression of an object, in document order, with its kind, visible variables and budget. */
    private static List<Expression> expressions(AdmissionKind kind, JsonNode root) {
        List<Expression> out = new ArrayList<>();
        JsonNode spec = root.path("spec");
        if (kind == AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION || kind == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION) {
            JsonNode webhooks = root.path("webhooks");
            for (int w = 0; w < webhooks.size(); w++) {
                JsonNode conditions = webhooks.get(w).path("matchConditions");
                for (int i = 0; i < conditions.size(); i++) {
                    add(out, "webhooks[" + w + "].matchConditions[" + i + "].expression", ExpressionKind.WEBHOOK_MATCH_CONDITION,
                            conditions.get(i).path("expression"), Map.of(), "webhooks[" + w + "].matchConditions");
                }
            }
            return out;
        }
        Map<String, String> variables = new LinkedHashMap<>();
        JsonNode vars = spec.path("variables");
        for (int i = 0; i < vars.size(); i++) {
            add(out, "spec.variables[" + i + "].expression", ExpressionKind.VARIABLE, vars.get(i).path("expression"),
                    ordered(variables), "policy");
            variables.put(vars.get(i).path("name").asText(""), vars.get(i).path("expression").asText(""));
        }
        JsonNode conditions = spec.path("matchConditions");
        for (int i = 0; i < conditions.size(); i++) {
            add(out, "spec.matchConditions[" + i + "].expression", ExpressionKind.MATCH_CONDITION,
                    conditions.get(i).path("expression"), Map.of(), "spec.matchConditions");
        }
        if (kind == AdmissionKind.VALIDATING_ADMISSION_POLICY) {
            JsonNode validations = spec.path("validations");
            for (int i = 0; i < validations.size(); i++) {
                add(out, "spec.validations[" + i + "].expression", ExpressionKind.VALIDATION,
                        validations.get(i).path("expression"), variables, "policy");
                add(out, "spec.validations[" + i + "].messageExpression", ExpressionKind.MESSAGE_EXPRESSION,
                        validations.get(i).path("messageExpression"), variables, "policy");
            }
            JsonNode audits = spec.path("auditAnnotations");
            for (int i = 0; i < audits.size(); i++) {
                add(out, "spec.auditAnnotations[" + i + "].valueExpression", ExpressionKind.AUDIT_ANNOTATION_VALUE,
                        audits.get(i).path("valueExpression"), variables, "policy");
            }
        } else if (kind == AdmissionKind.MUTATING_ADMISSION_POLICY) {
            JsonNode mutations = spec.path("mutations");
            for (int i = 0; i < mutations.size(); i++) {
                add(out, "spec.mutations[" + i + "].applyConfiguration.expression", ExpressionKind.MUTATION_APPLY_CONFIGURATION,
                        mutations.get(i).path("applyConfiguration").path("expression"), variables, "policy");
                add(out, "spec.mutations[" + i + "].jsonPatch.expression", ExpressionKind.MUTATION_JSON_PATCH,
                        mutations.get(i).path("jsonPatch").path("expression"), variables, "policy");
            }
        }
        return out;
    }

    private static Map<String, String> ordered(Map<String, String> variables) {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    }

    private static void add(List<Expression> out, String field, ExpressionKind kind, JsonNode expression,
                            Map<String, String> variables, String budget) {
        if (expression != null && expression.isTextual() && !expression.asText().isBlank()) {
            out.add(new Expression(field, kind, expression.asText(), ordered(variables), budget));
        }
    }
}
