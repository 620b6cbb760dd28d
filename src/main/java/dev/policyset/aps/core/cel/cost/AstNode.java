package dev.policyset.aps.core.cel.cost;

import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;

import java.util.List;

/**
 * cel-go's {@code checker.AstNode}: an expression (or a list's items, {@code expr} null) with its checked
 * type, its field path from a variable ({@code [object, spec, containers, @items]}; empty when it has
 * none) and the size the expression itself tells (literals, concatenations), or null.
 */
public record AstNode(List<String> path, CelType type, CelExpr expr, SizeEstimate computedSize) {
    public AstNode {
        path = path == null ? List.of() : List.copyOf(path);
    }
}
