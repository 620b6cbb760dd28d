package dev.policyset.aps.core.cel.cost;

/**
 * The sizes CEL cannot see in the expression: of variables and what is selected from them. cel-go's
 * {@code CostEstimator.EstimateSize}; the API server answers it from OpenAPI schemas (maxLength,
 * maxItems, maxProperties, else the request size).
 */
@FunctionalInterface
public interface SizeEstimator {
    /** The size range of {@code node}, or null when unknown. */
    SizeEstimate estimateSize(AstNode node);

    /**
     * Whether the value at {@code path} is known to be a map although the checker types it {@code dyn}: then
     * {@code in} and indexing on it are the map overloads only (cel-go's estimate takes the union of every
     * overload the checker left open, and prices {@code in} as a list scan).
     */
    default boolean isKnownMap(java.util.List<String> path) {
        return false;
    }

    SizeEstimator NONE = node -> null;
}
