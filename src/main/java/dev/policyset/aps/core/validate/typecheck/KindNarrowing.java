package dev.policyset.aps.core.validate.typecheck;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.schema.ResourceType;
import dev.policyset.aps.core.schema.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which type-check errors of an expression, checked for one kind, can fail at run time for that kind. A policy
 * that matches several kinds dispatches on the kind ({@code object.kind != 'CronJob' || object.spec.jobTemplate...},
 * {@code object.kind == 'Pod' ? object.spec : object.spec.template.spec}), and tests fields with {@code has()};
 * the API server's type checker checks every branch for every kind and warns about branches the kind never takes.
 * Here an error is dropped when, for that kind,
 * <ul>
 *   <li>it is a {@code has()} of a field the kind does not have (that is {@code false}, not an error), when the policy
 *       matches several kinds (with one kind, such a test can only be a typo: it never holds);</li>
 *   <li>it sits in a {@code ? :} branch whose condition is decided the other way, or beside an {@code &&} operand that
 *       is {@code false} / an {@code ||} operand that is {@code true} (CEL's logical operators absorb the error).</li>
 * </ul>
 * A condition is decided by evaluating it with only what the kind fixes ({@code object.kind},
 * {@code object.apiVersion}, {@code request.kind}, {@code request.resource}); {@code !}, {@code &&} and
 * {@code ||} combine three-valued, and a {@code has()} the kind's type check rejects is {@code false}. Anything
 * else is undecided, and the error stays.
 */
final class KindNarrowing {
    private static final Pattern ERROR = Pattern.compile("(?m)^ERROR: <input>:(\\d+):(\\d+): (.*)$");

    private enum Truth { TRUE, FALSE, UNKNOWN }

    /** One error of the typed compile, with the id of the node it is reported at (0 when none was found). */
    record Issue(String line, long node) {
    }

    private final CelAbstractSyntaxTree ast;
    private final KubernetesCelEnvironment env;
    private final CelEvaluator.Activation activation;
    private final List<Issue> issues;
    private final Map<Long, CelNavigableExpr> nodes = new HashMap<>();

    /**
     * @param untyped the expression compiled untyped (positions and node ids are the same as the typed parse)
     * @param env     the environment it was compiled in (for evaluating kind tests)
     * @param errors  the typed compile's error text
     */
    private final boolean multiKind;
    private final Schema schema;

    /** @param schema the kind's schema: a {@code has()} of a field it always has is {@code true} */
    KindNarrowing(KubernetesCelEnvironment.Compiled untyped, KubernetesCelEnvironment env, ResourceType kind,
                  Schema schema, String errors, boolean multiKind) {
        this.multiKind = multiKind;
        this.schema = schema;
        this.ast = untyped.ast();
        this.env = env;
        this.activation = activation(kind);
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(n -> nodes.put(n.id(), n));
        this.issues = issues(errors);
    }

    /** The errors that remain possible for the kind, as their first lines ({@code ERROR: <input>:1:12: ...}). */
    List<String> remaining() {
        List<String> out = new ArrayList<>();
        for (Issue issue : issues) {
            CelNavigableExpr node = nodes.get(issue.node());
            if (node == null || !absorbed(node)) {
                out.add(issue.line());
            }
        }
        return out;
    }

    private List<Issue> issues(String errors) {
        List<Issue> out = new ArrayList<>();
        String text = ast.getSource().getContent().toString();
        Matcher m = ERROR.matcher(errors);
        while (m.find()) {
            int offset = offset(text, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
            out.add(new Issue("ERROR: <input>:" + m.group(1) + ":" + m.group(2) + ": " + m.group(3), nodeAt(offset)));
        }
        if (out.isEmpty()) {
            out.add(new Issue(errors.lines().findFirst().orElse(errors), 0));
        }
        return out;
    }

    /** The code-point offset of a 1-based line and column as cel-java prints them. */
    private static int offset(String text, int line, int column) {
        int offset = 0;
        int[] cps = text.codePoints().toArray();
        int current = 1;
        while (current < line && offset < cps.length) {
            if (cps[offset++] == '\n') {
                current++;
            }
        }
        return offset + column - 1;
    }

    /** The node reported at an offset: a selection first (field errors), else a call, else any. */
    private long nodeAt(int offset) {
        long best = 0;
        int rank = Integer.MAX_VALUE;
        for (Map.Entry<Long, Integer> p : ast.getSource().getPositionsMap().entrySet()) {
            if (p.getValue() != offset || !nodes.containsKey(p.getKey())) {
                continue;
            }
            CelExpr e = nodes.get(p.getKey()).expr();
            int r = e.getKind() == CelExpr.ExprKind.Kind.SELECT ? 0 : e.getKind() == CelExpr.ExprKind.Kind.CALL ? 1 : 2;
            if (r < rank) {
                rank = r;
                best = p.getKey();
            }
        }
        return best;
    }

    private boolean absorbed(CelNavigableExpr node) {
        if (isHas(node.expr()) && multiKind) {
            return true;
        }
        CelNavigableExpr child = node;
        for (Optional<CelNavigableExpr> p = node.parent(); p.isPresent(); child = p.get(), p = p.get().parent()) {
            CelExpr parent = p.get().expr();
            if (parent.getKind() != CelExpr.ExprKind.Kind.CALL) {
                continue;
            }
            List<CelExpr> args = parent.call().args();
            long id = child.expr().id();
            switch (parent.call().function()) {
                case "_&&_" -> {
                    if (args.size() == 2 && truth(args.get(0).id() == id ? args.get(1) : args.get(0)) == Truth.FALSE) {
                        return true;
                    }
                }
                case "_||_" -> {
                    if (args.size() == 2 && truth(args.get(0).id() == id ? args.get(1) : args.get(0)) == Truth.TRUE) {
                        return true;
                    }
                }
                case "_?_:_" -> {
                    if (args.size() == 3 && args.get(0).id() != id) {
                        Truth condition = truth(args.get(0));
                        if ((args.get(1).id() == id && condition == Truth.FALSE)
                                || (args.get(2).id() == id && condition == Truth.TRUE)) {
                            return true;
                        }
                    }
                }
                default -> {
                }
            }
        }
        return false;
    }

    private Truth truth(CelExpr e) {
        if (isHas(e)) {
            if (multiKind && issues.stream().anyMatch(i -> i.node() == e.id())) {
                return Truth.FALSE;
            }
            return alwaysPresent(UnguardedAccesses.path(e.select().operand()), e.select().field()) ? Truth.TRUE : Truth.UNKNOWN;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.CALL) {
            List<CelExpr> args = e.call().args();
            switch (e.call().function()) {
                case "!_" -> {
                    Truth t = truth(args.get(0));
                    return t == Truth.TRUE ? Truth.FALSE : t == Truth.FALSE ? Truth.TRUE : Truth.UNKNOWN;
                }
                case "_&&_" -> {
                    Truth a = truth(args.get(0));
                    Truth b = truth(args.get(1));
                    return a == Truth.FALSE || b == Truth.FALSE ? Truth.FALSE
                            : a == Truth.TRUE && b == Truth.TRUE ? Truth.TRUE : Truth.UNKNOWN;
                }
                case "_||_" -> {
                    Truth a = truth(args.get(0));
                    Truth b = truth(args.get(1));
                    return a == Truth.TRUE || b == Truth.TRUE ? Truth.TRUE
                            : a == Truth.FALSE && b == Truth.FALSE ? Truth.FALSE : Truth.UNKNOWN;
                }
                default -> {
                }
            }
        }
        if (!decidedByKind(e)) {
            return Truth.UNKNOWN;
        }
        CelAbstractSyntaxTree sub = CelAbstractSyntaxTree.newCheckedAst(e, ast.getSource(), ast.getReferenceMap(),
                ast.getTypeMap());
        try {
            CelEvaluator.Result r = CelEvaluator.evaluate(env, new KubernetesCelEnvironment.Compiled("", sub, null),
                    activation, (Map<String, Object>) null);
            if (r.ok() && r.value() instanceof Boolean b) {
                return b ? Truth.TRUE : Truth.FALSE;
            }
        } catch (RuntimeException ex) {
            return Truth.UNKNOWN;
        }
        return Truth.UNKNOWN;
    }

    /** {@code has(object.a.b)} where {@code a} and {@code b} are required (or defaulted) all the way down. */
    private boolean alwaysPresent(String operand, String field) {
        if (operand == null || schema == null) {
            return false;
        }
        String[] steps = (operand + "." + field).split("\\.");
        if (!steps[0].equals("object") && !steps[0].equals("oldObject")) {
            return false;
        }
        Schema current = schema;
        for (int i = 1; i < steps.length; i++) {
            Schema next = current.property(steps[i]);
            if (next == null || !(current.isRequired(steps[i]) || next.hasDefault())) {
                return false;
            }
            current = next;
        }
        return true;
    }

    /** What the kind fixes; a condition that reads anything else (or tests presence) is not evaluated. */
    private static final java.util.Set<String> KIND_FIELDS = java.util.Set.of("object.kind", "object.apiVersion",
            "oldObject.kind", "oldObject.apiVersion", "request.kind", "request.kind.kind", "request.kind.group",
            "request.kind.version", "request.resource", "request.resource.resource", "request.resource.group",
            "request.resource.version");
    private static final java.util.Set<String> ROOTS = java.util.Set.of("object", "oldObject", "request", "params",
            "namespaceObject", "variables", "authorizer");

    private static boolean decidedByKind(CelExpr root) {
        boolean[] ok = {true};
        CelNavigableExpr.fromExpr(root).allNodes().forEach(n -> {
                    CelExpr e = n.expr();
                    if (isHas(e)) {
                        ok[0] = false;
                    } else if (e.getKind() == CelExpr.ExprKind.Kind.CALL
                            && (e.call().function().startsWith("_?") || e.call().function().equals("_[?_]")
                            || e.call().function().startsWith("or"))) {
                        ok[0] = false;
                    } else if (e.getKind() == CelExpr.ExprKind.Kind.IDENT && ROOTS.contains(e.ident().name())) {
                        String path = UnguardedAccesses.path(outermostSelect(n));
                        if (path == null || !KIND_FIELDS.contains(path)) {
                            ok[0] = false;
                        }
                    }
                });
        return ok[0];
    }

    /** The longest select chain that starts at an identifier ({@code object} → {@code object.kind}). */
    private static CelExpr outermostSelect(CelNavigableExpr ident) {
        CelNavigableExpr current = ident;
        while (current.parent().isPresent() && current.parent().get().expr().getKind() == CelExpr.ExprKind.Kind.SELECT
                && !current.parent().get().expr().select().testOnly()) {
            current = current.parent().get();
        }
        return current.expr();
    }

    private static boolean isHas(CelExpr e) {
        return e.getKind() == CelExpr.ExprKind.Kind.SELECT && e.select().testOnly();
    }

    /** Only what the kind decides: everything else is absent, so a test that reads more stays undecided. */
    private static CelEvaluator.Activation activation(ResourceType kind) {
        Map<String, Object> object = Map.of("kind", kind.gvk().kind(), "apiVersion", kind.gvk().apiVersion());
        Map<String, Object> request = Map.of(
                "kind", Map.of("group", kind.gvk().group(), "version", kind.gvk().version(), "kind", kind.gvk().kind()),
                "resource", Map.of("group", kind.gvk().group(), "version", kind.gvk().version(), "resource", kind.plural()));
        return new CelEvaluator.Activation(object, object, null, request, null, null, null);
    }
}
