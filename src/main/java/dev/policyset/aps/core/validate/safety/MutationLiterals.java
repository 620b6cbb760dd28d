package dev.policyset.aps.core.validate.safety;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.Schema;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The object literals of a MutatingAdmissionPolicy mutation, read from its expression without evaluating it, and
 * what the API server will make of them (APS604, APS605): the {@code Object{...}} tree an ApplyConfiguration returns,
 * and each {@code JSONPatch{op: 'add'|'replace', path: '<constant>', value: ...}}. Only what is literally there is
 * read: values built at run time (a variable, a comprehension) are not followed; both branches of a
 * {@code c ? a : b} are.
 */
final class MutationLiterals {
    /** A field a literal sets that the schema does not declare; {@code known} the fields declared there. */
    record Undeclared(String path, String name, List<String> known, boolean jsonPatch) {}

    /** An {@code Object} initializer whose type name is not its field path ({@code CheckTypeNamesMatchFieldPathNames}). */
    record Misnamed(String name, String expected) {}

    /** One mutation expression of a MutatingAdmissionPolicy that compiles, with the policy's type-check result. */
    record Mutation(RenderedObject object, PolicyTypeCheck.Result policy, PolicyTypeCheck.Expression expression,
                    CelAbstractSyntaxTree ast) {}

    /** The mutation expressions APS604 and APS605 read: those of every MutatingAdmissionPolicy that compile. */
    static List<Mutation> mutations(SafetyContext context) {
        List<Mutation> out = new ArrayList<>();
        for (ValidationSubject subject : context.subjects()) {
            RenderedObject object = subject.object();
            if (object.kind() != AdmissionKind.MUTATING_ADMISSION_POLICY) {
                continue;
            }
            Optional<PolicyTypeCheck.Result> result = PolicyTypeCheck.of(object.kind(), object.manifest(),
                    context.options().schemas(), context.options().kubeVersion());
            if (result.isEmpty()) {
                continue;
            }
            for (PolicyTypeCheck.Expression e : result.get().expressions()) {
                KubernetesCelEnvironment.Compiled compiled = result.get().untyped().get(e.field());
                if (compiled != null && compiled.ok() && e.variable() == null) {
                    out.add(new Mutation(object, result.get(), e, compiled.ast()));
                }
            }
        }
        return out;
    }

    private final List<Undeclared> undeclared = new ArrayList<>();
    private final List<Misnamed> misnamed = new ArrayList<>();

    private MutationLiterals() {}

    List<Undeclared> undeclared() {
        return undeclared;
    }

    List<Misnamed> misnamed() {
        return misnamed;
    }

    /**
     * @param root the matched kind's schema, or null to check only the type names
     */
    static MutationLiterals of(ExpressionKind kind, CelAbstractSyntaxTree ast, Schema root) {
        MutationLiterals m = new MutationLiterals();
        if (kind == ExpressionKind.MUTATION_APPLY_CONFIGURATION) {
            m.walk(ast.getExpr(), root, "", null, false);
        } else if (kind == ExpressionKind.MUTATION_JSON_PATCH) {
            CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr)
                    .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.STRUCT && e.struct().messageName().equals("JSONPatch"))
                    .forEach(e -> m.jsonPatch(e, root));
        }
        return m;
    }

    private void jsonPatch(CelExpr patch, Schema root) {
        String op = constant(patch, "op");
        String path = constant(patch, "path");
        CelExpr value = entry(patch, "value");
        if (!"add".equals(op) && !"replace".equals(op) || path == null || !path.startsWith("/")) {
            return;
        }
        Schema s = root;
        String dotted = "";
        String[] tokens = path.substring(1).split("/", -1);
        for (String raw : tokens) {
            String token = raw.replace("~1", "/").replace("~0", "~");
            if (s == null) {
                break;
            }
            if (s.isArray()) {
                s = s.items();
                dotted += "[" + token + "]";
            } else if (s.isMap()) {
                s = s.additionalProperties();
                dotted += "." + token;
            } else if (isStruct(s)) {
                if (s.property(token) == null) {
                    undeclared.add(new Undeclared((dotted + "." + token).substring(1), token,
                            List.copyOf(s.properties().keySet()), true));
                    return;
                }
                s = s.property(token);
                dotted += "." + token;
            } else {
                s = null;
            }
        }
        if (value != null) {
            String own = value.getKind() == CelExpr.ExprKind.Kind.STRUCT ? value.struct().messageName() : null;
            walk(value, s, dotted.isEmpty() ? "" : dotted.substring(1), own, true);
        }
    }

    /**
     * @param expected the type name the field path gives ({@code null} at an ApplyConfiguration's root, where the
     *                 compiler already requires {@code Object})
     */
    private void walk(CelExpr e, Schema s, String path, String expected, boolean jsonPatch) {
        switch (e.getKind()) {
            case STRUCT -> {
                String name = e.struct().messageName();
                if (!name.equals("Object") && !name.startsWith("Object.")) {
                    return;
                }
                String here = expected == null ? name : expected;
                if (expected != null && !name.equals(expected)) {
                    misnamed.add(new Misnamed(name, expected));
                }
                for (CelExpr.CelStruct.Entry entry : e.struct().entries()) {
                    String k = entry.fieldKey();
                    String child = path.isEmpty() ? k : path + "." + k;
                    Schema field = null;
                    if (s != null && isStruct(s)) {
                        field = s.property(k);
                        if (field == null && !s.preserveUnknownFields()) {
                            undeclared.add(new Undeclared(child, k, List.copyOf(s.properties().keySet()), jsonPatch));
                            continue;
                        }
                    } else if (s != null && s.isMap()) {
                        field = s.additionalProperties();
                    }
                    walk(entry.value(), field, child, here + "." + k, jsonPatch);
                }
            }
            case LIST -> e.list().elements().forEach(x -> walk(x, s == null ? null : s.items(), path + "[]", expected, jsonPatch));
            case MAP -> e.map().entries().forEach(x -> walk(x.value(), s == null ? null : s.additionalProperties(), path,
                    expected, jsonPatch));
            case CALL -> {
                if (e.call().function().equals("_?_:_") && e.call().args().size() == 3) {
                    walk(e.call().args().get(1), s, path, expected, jsonPatch);
                    walk(e.call().args().get(2), s, path, expected, jsonPatch);
                }
            }
            default -> {
            }
        }
    }

    private static boolean isStruct(Schema s) {
        return s.isObject() && !s.isMap() && !s.properties().isEmpty() && !s.preserveUnknownFields();
    }

    private static CelExpr entry(CelExpr struct, String field) {
        for (CelExpr.CelStruct.Entry entry : struct.struct().entries()) {
            if (entry.fieldKey().equals(field)) {
                return entry.value();
            }
        }
        return null;
    }

    private static String constant(CelExpr struct, String field) {
        CelExpr v = entry(struct, field);
        if (v != null && v.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && v.constant().getKind() == CelConstant.Kind.STRING_VALUE) {
            return v.constant().stringValue();
        }
        return null;
    }
}
