package dev.policyset.aps.core.cel.cost;

/** cel-go {@code common/cost.go} and the budgets of {@code k8s.io/apiserver/pkg/apis/cel/config.go}. */
public final class CostConstants {
    public static final long SELECT_AND_IDENT_COST = 1;
    public static final long CONST_COST = 0;
    public static final long LIST_CREATE_BASE_COST = 10;
    public static final long MAP_CREATE_BASE_COST = 30;
    public static final long STRUCT_CREATE_BASE_COST = 40;
    public static final double STRING_TRAVERSAL_COST_FACTOR = 0.1;
    public static final double REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

    /** {@code celconfig.PerCallLimit}: one evaluation of one expression. */
    public static final long PER_CALL_LIMIT = 1_000_000L;
    /** {@code celconfig.RuntimeCELCostBudget}: all expressions of one policy (binding) for one request. */
    public static final long RUNTIME_CEL_COST_BUDGET = 10_000_000L;
    /** {@code celconfig.RuntimeCELCostBudgetMatchConditions}: the matchConditions of one webhook or binding. */
    public static final long RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000L;
    /** {@code celconfig.MaxRequestSizeBytes}: what bounds data that has no schema limit. */
    public static final long MAX_REQUEST_SIZE_BYTES = 3L * 1024 * 1024;

    /** cel-go's error when the per-call limit is passed ({@code interpreter/runtimecost.go}). */
    public static final String COST_LIMIT_EXCEEDED = "operation cancelled: actual cost limit exceeded";
    /** The admission plugin's error when the per-policy budget is spent ({@code admission/plugin/cel/activation.go}). */
    public static final String OUT_OF_BUDGET =
            "validation failed due to running out of cost budget, no further validation rules will be run";

    private CostConstants() {
    }
}
