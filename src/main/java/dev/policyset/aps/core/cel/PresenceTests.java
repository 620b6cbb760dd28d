package dev.policyset.aps.core.cel;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.StructValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code has(x.f)} as cel-go answers it. cel-go's {@code interpreter/attributes.go refQualify} answers a presence
 * test on a value that is not a map, list or message ({@code null}, a string, a number) with {@code false}
 * (Kubernetes does not set {@code EnableErrorOnBadPresenceTest}); cel-java fails with "Field selections must be
 * performed on messages or maps". So {@code has(params.x)} when a binding has no params, or
 * {@code has(oldObject.spec)} on a CREATE, is {@code false} on the server and an error here.
 *
 * <p>The checked AST is rewritten: every presence test becomes a call of {@link #OVERLOAD} on the operand and
 * the field name. The operand is still evaluated first, so a missing intermediate field is still
 * {@code no such key}, as in cel-go (only the last selection is a presence test).
 */
final class PresenceTests {
    private PresenceTests() {
    }

    static final String OVERLOAD = "aps_has_dyn_string";

    static CelFunctionBinding binding() {
        return CelFunctionBinding.from(OVERLOAD, Object.class, String.class, PresenceTests::has);
    }

    /** cel-go's {@code refQualify} with {@code presenceTest} set. */
    static Object has(Object operand, String field) throws CelEvaluationException {
        if (operand instanceof Map<?, ?> map) {
            return map.containsKey(field);
        }
        if (operand instanceof StructValue<?, ?> struct) {
            @SuppressWarnings("unchecked")
            StructValue<String, ?> s = (StructValue<String, ?>) struct;
            return s.find(field).isPresent();
        }
        if (operand instanceof List<?>) {
            // traits.Lister: the field name is not an index (types.IndexOrError)
            throw new CelEvaluationException("unsupported index type 'string' in list");
        }
        return false;
    }

    /** The AST with every {@code has()} replaced by a call of {@link #OVERLOAD}; the same AST if it has none. */
    static CelAbstractSyntaxTree rewrite(CelAbstractSyntaxTree ast) {
        boolean any = dev.cel.common.navigation.CelNavigableExpr.fromExpr(ast.getExpr()).allNodes()
                .anyMatch(n -> n.expr().getKind() == CelExpr.ExprKind.Kind.SELECT && n.expr().select().testOnly());
        if (!any) {
            return ast;
        }
        Rewriter r = new Rewriter(ast);
        CelExpr root = r.visit(ast.getExpr());
        if (!r.changed) {
            return ast;
        }
        return CelAbstractSyntaxTree.newCheckedAst(root, ast.getSource(), r.references, r.types);
    }

    private static final class Rewriter {
        final Map<Long, CelReference> references;
        final Map<Long, CelType> types;
        long nextId;
        boolean changed;

        Rewriter(CelAbstractSyntaxTree ast) {
            references = new HashMap<>(ast.getReferenceMap());
            types = new HashMap<>(ast.getTypeMap());
            nextId = maxId(ast.getExpr()) + 1;
        }

        CelExpr visit(CelExpr e) {
            switch (e.getKind()) {
                case SELECT -> {
                    var select = e.select();
                    CelExpr operand = visit(select.operand());
                    if (!select.testOnly()) {
                        return operand == select.operand() ? e : CelExpr.ofSelect(e.id(), operand, select.field(), false);
                    }
                    changed = true;
                    long fieldId = nextId++;
                    types.put(fieldId, SimpleType.STRING);
                    references.put(e.id(), CelReference.newBuilder().setName("has").addOverloadIds(OVERLOAD).build());
                    return CelExpr.ofCall(e.id(), Optional.empty(), "has",
                            ImmutableList.of(operand, CelExpr.ofConstant(fieldId, CelConstant.ofValue(select.field()))));
                }
                case CALL -> {
                    var call = e.call();
                    Optional<CelExpr> target = call.target().map(this::visit);
                    ImmutableList<CelExpr> args = call.args().stream().map(this::visit).collect(ImmutableList.toImmutableList());
                    return CelExpr.ofCall(e.id(), target, call.function(), args);
                }
                case LIST -> {
                    var list = e.list();
                    return CelExpr.ofList(e.id(), list.elements().stream().map(this::visit)
                            .collect(ImmutableList.toImmutableList()), list.optionalIndices());
                }
                case MAP -> {
                    return CelExpr.ofMap(e.id(), e.map().entries().stream()
                            .map(en -> CelExpr.ofMapEntry(en.id(), visit(en.key()), visit(en.value()), en.optionalEntry()))
                            .collect(ImmutableList.toImmutableList()));
                }
                case STRUCT -> {
                    var struct = e.struct();
                    return CelExpr.ofStruct(e.id(), struct.messageName(), struct.entries().stream()
                            .map(en -> CelExpr.ofStructEntry(en.id(), en.fieldKey(), visit(en.value()), en.optionalEntry()))
                            .collect(ImmutableList.toImmutableList()));
                }
                case COMPREHENSION -> {
                    var c = e.comprehension();
                    return CelExpr.ofComprehension(e.id(), c.iterVar(), c.iterVar2(), visit(c.iterRange()), c.accuVar(),
                            visit(c.accuInit()), visit(c.loopCondition()), visit(c.loopStep()), visit(c.result()));
                }
                default -> {
                    return e;
                }
            }
        }

        private static long maxId(CelExpr e) {
            long[] max = {0};
            dev.cel.common.navigation.CelNavigableExpr.fromExpr(e).allNodes()
                    .forEach(n -> max[0] = Math.max(max[0], n.expr().id()));
            return max[0];
        }
    }
}
