package dev.policyset.aps.core.validate.cel.cost;

/**
 * The sizes CEL cannot see in the expression: of variables and what is selected from them. cel-go's
 * {@code CostEstimator.EstimateSize}; the API server answers it from OpenAPI schemas (maxLength,
 * maxItems, maxProperties, else the request size).
 */
@FunctionalInterface
public interface SizeEstimator {
    /** The size range of {@code node}, or null when unknown. */
    SizeEstimate estimateSize(AstNode node);

    SizeEstimator NONE = node -> null;
}
