package dev.policyset.aps.core.validate.typecheck;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.policyset.aps.core.schema.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The accesses of a checked expression that can fail at request time because what they select may be absent, and
 * are not guarded. At run time the admission plugin evaluates unstructured JSON: a field that is not there (an
 * optional field, an empty map or list — Kubernetes omits them —, a map key) fails with {@code no such key}.
 *
 * <p>An access can be absent when it is
 * <ul>
 *   <li>a key of a map ({@code labels['team']}, {@code labels.team}, {@code params.data.x});</li>
 *   <li>a field of an object type that the schema neither requires nor defaults ({@code spec.hostNetwork});</li>
 *   <li>one of the request fields the API server leaves out when empty ({@link #REQUEST_FIELDS}).</li>
 * </ul>
 * It is guarded when it is written as an optional ({@code .?f}, {@code [?k]}, then {@code orValue}), or when
 * {@code has(...)} of it (or of something under it), {@code 'k' in m} or {@code m.exists(k, k == 'k')} appears in
 * the other operand of an
 * enclosing {@code &&} / {@code ||} (CEL's logical operators absorb an error when the other side decides the
 * result, so either order guards), in the condition of an enclosing {@code ? :}, in a variable such an operand
 * names, or in any matchCondition of the policy (an optional access there, {@code object.spec.?volumes...}, counts as
 * a test of that field) (a false matchCondition skips the policy before anything else
 * runs). Polarity is not checked: a guard that tests the wrong way is still counted as a guard (fewer reports,
 * never a false one about a guarded access). {@code size(m) > 0} is no guard: it reads {@code m} itself, and a
 * non-empty map need not hold the key read next.
 */
public final class UnguardedAccesses {
    /**
     * One risky access: its text, why it can be absent, whether it is a map key (else a field), the operand it
     * selects from and the step it selects, and the type of what it reads (null when unknown).
     * The text is CEL: {@code object.metadata.labels.team}, {@code object.metadata.annotations['example.com/owner']}
     * ({@link #child}), so a path can be printed in advice as it is.
     */
    public record Access(String path, String reason, boolean mapKey, String base, String step, CelType type) {
        /** The presence test for this step: {@code 'k' in m} for a map key, {@code has(x.f)} for a field. */
        public String presenceTest() {
            return mapKey ? quote(step) + " in " + base : "has(" + path + ")";
        }
    }

    private static final java.util.regex.Pattern IDENTIFIER = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /**
     * The words CEL's lexer takes for keywords, not identifiers: a map key spelled like one is written {@code ['in']}.
     * (Reserved words such as {@code namespace} are identifiers after a dot: {@code object.metadata.namespace}.)
     */
    private static final Set<String> KEYWORDS = Set.of("true", "false", "null", "in");

    /**
     * The path of {@code key} selected from {@code operand}, as CEL: {@code m.team} when the key is an identifier,
     * else {@code m['example.com/owner']}. A key with dots or slashes cannot be split back out of a dotted path, and
     * {@code m.example.com/owner} is not CEL.
     */
    public static String child(String operand, String key) {
        return isIdentifier(key) ? operand + "." + key : operand + "[" + quote(key) + "]";
    }

    /** Whether {@code key} can be selected with a dot: {@code m.key}, {@code m.?key}. */
    public static boolean isIdentifier(String key) {
        return IDENTIFIER.matcher(key).matches() && !KEYWORDS.contains(key);
    }

    /**
     * The steps of a path as {@link #child} and {@link #path} write it, each as written:
     * {@code object.metadata.annotations['example.com/owner']} → {@code object}, {@code .metadata},
     * {@code .annotations}, {@code ['example.com/owner']}.
     */
    public static List<String> steps(String path) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int start = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if ((c == '.' || c == '[') && i > start) {
                out.add(path.substring(start, i));
                start = i;
            }
            if (c == '[' && i + 1 < path.length() && path.charAt(i + 1) == '\'') {
                i += 2;
                while (i < path.length() && path.charAt(i) != '\'') {
                    i += path.charAt(i) == '\\' ? 2 : 1;
                }
            }
            i++;
        }
        out.add(path.substring(start));
        return out;
    }

    /** {@code key} as a single-quoted CEL string literal. */
    public static String quote(String key) {
        return "'" + key.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /**
     * Request fields ({@code admission/plugin/cel/filter.go: CreateAdmissionRequest}, converted with
     * {@code runtime.DefaultUnstructuredConverter}, which drops {@code omitempty} fields that are empty), by the
     * struct type's name: the reason each can be absent. {@code userInfo.username} is not here: authenticators
     * always set one (anonymous requests are {@code system:anonymous}).
     */
    static final Map<String, Map<String, String>> REQUEST_FIELDS = Map.of(
            "kubernetes.AdmissionRequest", Map.of(
                    "name", "it is empty on a CREATE whose object has only metadata.generateName",
                    "subResource", "it is empty unless the request is for a subresource",
                    "requestSubResource", "it is empty unless the request is for a subresource"),
            "kubernetes.UserInfo", Map.of(
                    "uid", "many authenticators (client certificates, most OIDC setups) set no uid",
                    "extra", "it is empty for most users (no extra attributes)"));

    private final Map<String, Schema> schemas;
    private final boolean clusterScoped;
    private final boolean creates;
    private final Set<String> outerGuards;
    private final Map<String, Set<String>> variableGuards;

    /**
     * @param schemas        the schema of each object type in the expression's environment, by type name
     * @param clusterScoped  the policy matches cluster-scoped kinds (then {@code request.namespace} and
     *                       {@code metadata.namespace} can be empty)
     * @param creates        the policy matches CREATE (then {@code request.name} can be empty)
     * @param outerGuards    paths the policy's matchConditions test with {@code has} / {@code in}
     * @param variableGuards the guard paths of each variable's expression, by variable name
     */
    public UnguardedAccesses(Map<String, Schema> schemas, boolean clusterScoped, boolean creates, Set<String> outerGuards,
                             Map<String, Set<String>> variableGuards) {
        this.schemas = schemas;
        this.clusterScoped = clusterScoped;
        this.creates = creates;
        this.outerGuards = outerGuards;
        this.variableGuards = variableGuards;
    }

    /** Every unguarded access that can be absent, once per path, in source order. */
    public List<Access> find(CelAbstractSyntaxTree ast) {
        Map<String, Access> found = new LinkedHashMap<>();
        CelNavigableAst nav = CelNavigableAst.fromAst(ast);
        nav.getRoot().allNodes().forEach(node -> {
            Optional<Access> risky = risky(ast, node);
            if (risky.isPresent() && !found.containsKey(risky.get().path()) && !guarded(node, risky.get().path())) {
                found.put(risky.get().path(), risky.get());
            }
        });
        return new ArrayList<>(found.values());
    }

    /** The paths an expression tests: {@code has(a.b)} → {@code a.b}; {@code 'k' in a.m} → {@code a.m.k}. */
    public static Set<String> guards(CelAbstractSyntaxTree ast) {
        Set<String> out = new HashSet<>();
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(n -> collectGuard(n.expr(), out));
        return out;
    }

    private static void collectGuard(CelExpr e, Set<String> out) {
        if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && e.select().testOnly()) {
            String operand = path(e.select().operand());
            if (operand != null) {
                out.add(operand + "." + e.select().field());
            }
        } else if (e.getKind() == CelExpr.ExprKind.Kind.CALL
                && (e.call().function().equals("_?._") || e.call().function().equals("_[?_]"))) {
            // object.spec.?volumes.orValue([]).exists(...) in a matchCondition or beside an &&: where it holds, the
            // field is there (a test that holds when it is absent still counts: fewer reports, never a false one)
            String p = path(e);
            if (p != null) {
                out.add(p);
            }
        } else if (e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().function().equals("@in")
                && e.call().args().size() == 2) {
            String key = stringConstant(e.call().args().get(0));
            String container = path(e.call().args().get(1));
            if (container != null) {
                out.add(key == null ? container : child(container, key));
            }
        } else if (e.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION) {
            existsKey(e).ifPresent(out::add);
        }
    }

    /**
     * {@code m.exists(k, k == 'key')} (either side of the {@code ==}): where it holds, the map has the key, as with
     * {@code 'key' in m}. Upstream policies write it (gateway-api's safe-upgrades). The macro is expanded: the loop
     * step is {@code accu || pred}.
     */
    private static Optional<String> existsKey(CelExpr e) {
        var c = e.comprehension();
        String container = path(c.iterRange());
        CelExpr step = c.loopStep();
        if (container == null || !c.iterVar2().isEmpty() || step.getKind() != CelExpr.ExprKind.Kind.CALL
                || !step.call().function().equals("_||_") || step.call().args().size() != 2) {
            return Optional.empty();
        }
        CelExpr accu = step.call().args().get(0);
        CelExpr predicate = step.call().args().get(1);
        if (accu.getKind() != CelExpr.ExprKind.Kind.IDENT || !accu.ident().name().equals(c.accuVar())
                || predicate.getKind() != CelExpr.ExprKind.Kind.CALL || !predicate.call().function().equals("_==_")
                || predicate.call().args().size() != 2) {
            return Optional.empty();
        }
        CelExpr left = predicate.call().args().get(0);
        CelExpr right = predicate.call().args().get(1);
        String key = isIdent(left, c.iterVar()) ? stringConstant(right) : isIdent(right, c.iterVar()) ? stringConstant(left) : null;
        return key == null ? Optional.empty() : Optional.of(child(container, key));
    }

    private static boolean isIdent(CelExpr e, String name) {
        return e.getKind() == CelExpr.ExprKind.Kind.IDENT && e.ident().name().equals(name);
    }

    private Optional<Access> risky(CelAbstractSyntaxTree ast, CelNavigableExpr node) {
        CelExpr e = node.expr();
        CelExpr operand;
        String step;
        if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && !e.select().testOnly()) {
            operand = e.select().operand();
            step = e.select().field();
        } else if (e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().function().equals("_[_]")
                && e.call().args().size() == 2) {
            operand = e.call().args().get(0);
            step = stringConstant(e.call().args().get(1));
            if (step == null) {
                return Optional.empty(); // list index or computed key: not judged
            }
        } else {
            return Optional.empty();
        }
        String base = path(operand);
        if (base == null) {
            return Optional.empty();
        }
        Optional<CelType> type = ast.getType(operand.id());
        if (type.isEmpty()) {
            return Optional.empty();
        }
        String path = child(base, step);
        CelType t = type.get();
        CelType read = ast.getType(e.id()).orElse(null);
        if (t instanceof MapType) {
            if (!fromData(node, operand)) {
                return Optional.empty(); // a map the expression built itself (a literal): its keys are known
            }
            return Optional.of(new Access(path, "the key " + quote(step) + " may be missing from `" + base + "`", true, base, step,
                    read));
        }
        if (t.kind() != CelKind.STRUCT) { // the checker records a struct by reference (its name)
            return Optional.empty();
        }
        if (t.name().equals("kubernetes.AdmissionRequest") && step.equals("namespace") && clusterScoped) {
            return Optional.of(new Access(path, "`request.namespace` is left out for cluster-scoped resources, "
                    + "which this policy matches", false, base, step, read));
        }
        if (t.name().equals("kubernetes.AdmissionRequest") && step.equals("name") && !creates) {
            return Optional.empty();
        }
        Map<String, String> request = REQUEST_FIELDS.get(t.name());
        if (request != null) {
            String reason = request.get(step);
            return reason == null ? Optional.empty()
                    : Optional.of(new Access(path, "`" + path + "` is left out when empty: " + reason, false, base, step, read));
        }
        Schema schema = schemas.get(t.name());
        if (schema == null) {
            return Optional.empty();
        }
        String property = unescape(step);
        Schema field = schema.property(property);
        if (field == null || schema.isRequired(property) || field.hasDefault()) {
            return Optional.empty();
        }
        if (property.equals("namespace") && schema.property("generateName") != null && !clusterScoped) {
            return Optional.empty(); // metadata.namespace of a namespaced kind: set from the request
        }
        String what = field.isMap() ? "an optional map, left out when empty"
                : field.isArray() ? "an optional list, left out when empty" : "optional in the schema";
        return Optional.of(new Access(path, "`" + step + "` is " + what, false, base, step, read));
    }

    private static final Set<String> DATA = Set.of("object", "oldObject", "params", "request", "namespaceObject");

    /**
     * Whether a map comes from the admitted data (a root variable, or a comprehension variable ranging over it), not
     * from a literal or a computed variable whose keys the expression itself chose.
     */
    private static boolean fromData(CelNavigableExpr node, CelExpr operand) {
        String root = rootIdent(operand);
        if (root == null) {
            return false;
        }
        if (DATA.contains(root)) {
            return true;
        }
        for (Optional<CelNavigableExpr> p = node.parent(); p.isPresent(); p = p.get().parent()) {
            CelExpr e = p.get().expr();
            if (e.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION && (root.equals(e.comprehension().iterVar())
                    || root.equals(e.comprehension().iterVar2()))) {
                String range = rootIdent(e.comprehension().iterRange());
                return range != null && DATA.contains(range);
            }
        }
        return false;
    }

    private static String rootIdent(CelExpr e) {
        String path = path(e);
        if (path == null) {
            return null;
        }
        int dot = path.indexOf('.');
        int bracket = path.indexOf('[');
        int end = dot < 0 ? bracket : bracket < 0 ? dot : Math.min(dot, bracket);
        return end < 0 ? path : path.substring(0, end);
    }

    /** Whether a guard for {@code path} (or for something under it) decides before the access can fail. */
    private boolean guarded(CelNavigableExpr node, String path) {
        if (covers(outerGuards, path)) {
            return true;
        }
        CelNavigableExpr child = node;
        for (Optional<CelNavigableExpr> p = node.parent(); p.isPresent(); child = p.get(), p = p.get().parent()) {
            CelExpr parent = p.get().expr();
            if (parent.getKind() != CelExpr.ExprKind.Kind.CALL) {
                continue;
            }
            String function = parent.call().function();
            List<CelExpr> args = parent.call().args();
            if ((function.equals("_&&_") || function.equals("_||_")) && args.size() == 2) {
                CelExpr other = args.get(0).id() == child.expr().id() ? args.get(1) : args.get(0);
                if (covers(guardsIn(other), path)) {
                    return true;
                }
            } else if (function.equals("_?_:_") && args.size() == 3 && args.get(0).id() != child.expr().id()) {
                if (covers(guardsIn(args.get(0)), path)) {
                    return true;
                }
            }
        }
        return false;
    }

    private Set<String> guardsIn(CelExpr e) {
        Set<String> out = new HashSet<>();
        collectAll(e, out);
        return out;
    }

    private void collectAll(CelExpr e, Set<String> out) {
        collectGuard(e, out);
        if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && !e.select().testOnly()
                && e.select().operand().getKind() == CelExpr.ExprKind.Kind.IDENT
                && e.select().operand().ident().name().equals("variables")) {
            out.addAll(variableGuards.getOrDefault(e.select().field(), Set.of()));
        }
        switch (e.getKind()) {
            case SELECT -> collectAll(e.select().operand(), out);
            case CALL -> {
                e.call().target().ifPresent(t -> collectAll(t, out));
                e.call().args().forEach(a -> collectAll(a, out));
            }
            case LIST -> e.list().elements().forEach(a -> collectAll(a, out));
            case COMPREHENSION -> {
                collectAll(e.comprehension().iterRange(), out);
                collectAll(e.comprehension().loopStep(), out);
                collectAll(e.comprehension().result(), out);
            }
            default -> {
            }
        }
    }

    private static boolean covers(Set<String> guards, String path) {
        for (String g : guards) {
            if (g.equals(path) || g.startsWith(path + ".") || g.startsWith(path + "[")) {
                return true;
            }
        }
        return false;
    }

    /** A select/index chain as text ({@code object.metadata.labels.team}); null for anything else. */
    public static String path(CelExpr e) {
        switch (e.getKind()) {
            case IDENT:
                return e.ident().name();
            case SELECT: {
                String operand = path(e.select().operand());
                return operand == null ? null : operand + "." + e.select().field();
            }
            case CALL: {
                var call = e.call();
                if ((call.function().equals("_[_]") || call.function().equals("_[?_]")) && call.args().size() == 2) {
                    String operand = path(call.args().get(0));
                    if (operand == null) {
                        return null;
                    }
                    String key = stringConstant(call.args().get(1));
                    if (key != null) {
                        return child(operand, key);
                    }
                    CelExpr index = call.args().get(1);
                    if (index.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                            && index.constant().getKind() == CelConstant.Kind.INT64_VALUE) {
                        return operand + "[" + index.constant().int64Value() + "]";
                    }
                    return null;
                }
                if (call.function().equals("_?._") && call.args().size() == 2) {
                    String operand = path(call.args().get(0));
                    String field = stringConstant(call.args().get(1));
                    return operand == null || field == null ? null : child(operand, field);
                }
                return null;
            }
            default:
                return null;
        }
    }

    private static String stringConstant(CelExpr e) {
        return e.getKind() == CelExpr.ExprKind.Kind.CONSTANT && e.constant().getKind() == CelConstant.Kind.STRING_VALUE
                ? e.constant().stringValue() : null;
    }

    /** {@code escaping.go: Unescape} of what {@link SchemaCelTypes} escapes. */
    private static String unescape(String name) {
        return name.replace("__underscores__", "__").replace("__dot__", ".").replace("__dash__", "-")
                .replace("__slash__", "/");
    }
}
