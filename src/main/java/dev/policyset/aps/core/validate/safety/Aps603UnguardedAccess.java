package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.GuardedForms;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck;
import dev.policyset.aps.core.validate.typecheck.UnguardedAccesses;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * APS603: an access to an optional field or a map key without a guard, in a validation, matchCondition, variable or
 * mutation ({@link UnguardedAccesses} says what counts). At request time such an access fails with
 * {@code no such key} on every object that lacks the field, and the policy's {@code failurePolicy} decides.
 *
 * <p>Risk model: <b>warning</b> when the policy fails closed ({@code failurePolicy: Fail}, the default): every
 * request whose object lacks the field is denied, legitimate ones included — the outage the lint exists for;
 * <b>info</b> when it fails open ({@code Ignore}): such requests skip the policy silently. Not an error, because
 * what "can be absent" rests on the schema (the built-in model has no required lists; {@code BuiltinSchemas}
 * lists the fields always present) and because a guard in a form the lint does not recognise is still a guard.
 * messageExpressions and auditAnnotations are not checked: their failure does not decide the request.
 */
public final class Aps603UnguardedAccess implements SafetyRule {
    @Override
    public String id() {
        return "APS603";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject subject : context.subjects()) {
            RenderedObject object = subject.object();
            Optional<PolicyTypeCheck.Result> result = PolicyTypeCheck.of(object.kind(), object.manifest(),
                    context.options().schemas(), context.options().kubeVersion());
            if (result.isEmpty()) {
                continue;
            }
            boolean failsOpen = object.manifest().path("spec").path("failurePolicy").asText("Fail").equals("Ignore");
            boolean clusterScoped = result.get().kinds().stream().anyMatch(k -> context.options().schemas()
                    .resources().stream().filter(r -> r.gvk().equals(k.gvk())).anyMatch(r -> !r.namespaced()));
            boolean creates = false;
            for (com.fasterxml.jackson.databind.JsonNode rule : object.manifest().path("spec").path("matchConstraints")
                    .path("resourceRules")) {
                for (com.fasterxml.jackson.databind.JsonNode op : rule.path("operations")) {
                    creates |= op.asText().equals("CREATE") || op.asText().equals("*");
                }
            }
            // the guards of each typed compile, worked out once for all of its expressions (per expression, they
            // were a third of a validation's time over the corpus)
            List<Typed> typeds = typedCompiles(result.get());
            List<Set<String>> conditionGuards = new ArrayList<>();
            List<Map<String, Set<String>>> variableGuards = new ArrayList<>();
            for (Typed typed : typeds) {
                conditionGuards.add(matchConditionGuards(result.get(), typed));
                variableGuards.add(variableGuards(result.get(), typed));
            }
            for (PolicyTypeCheck.Expression e : result.get().expressions()) {
                if (e.kind() == ExpressionKind.MESSAGE_EXPRESSION || e.kind() == ExpressionKind.AUDIT_ANNOTATION_VALUE) {
                    continue;
                }
                Map<String, UnguardedAccesses.Access> accesses = new LinkedHashMap<>();
                dev.cel.common.types.CelType resultType = null;
                for (int t = 0; t < typeds.size(); t++) {
                    Typed typed = typeds.get(t);
                    KubernetesCelEnvironment.Compiled c = typed.compiled().get(e.field());
                    if (c == null || !c.ok()) {
                        continue;
                    }
                    resultType = resultType == null ? c.resultType() : resultType;
                    UnguardedAccesses lint = new UnguardedAccesses(typed.schemas(), clusterScoped, creates,
                            e.kind() == ExpressionKind.MATCH_CONDITION ? Set.of() : conditionGuards.get(t),
                            variableGuards.get(t));
                    lint.find(c.ast()).forEach(a -> accesses.putIfAbsent(a.path(), a));
                }
                if (!accesses.isEmpty()) {
                    out.add(finding(object, e, resultType, new ArrayList<>(accesses.values()), failsOpen));
                }
            }
        }
        return out;
    }

    /** The typed compiles to lint: one per matched kind, or the untyped one (request fields are typed anyway). */
    private record Typed(Map<String, KubernetesCelEnvironment.Compiled> compiled, Map<String, dev.policyset.aps.core.schema.Schema> schemas) {
    }

    private static List<Typed> typedCompiles(PolicyTypeCheck.Result result) {
        List<Typed> out = new ArrayList<>();
        for (PolicyTypeCheck.KindResult k : result.kinds()) {
            out.add(new Typed(k.compiled(), k.schemas()));
        }
        if (out.isEmpty()) {
            out.add(new Typed(result.untyped(), Map.of()));
        }
        return out;
    }

    private static Set<String> matchConditionGuards(PolicyTypeCheck.Result result, Typed typed) {
        Set<String> guards = new HashSet<>();
        for (PolicyTypeCheck.Expression e : result.expressions()) {
            KubernetesCelEnvironment.Compiled c = typed.compiled().get(e.field());
            if (e.kind() == ExpressionKind.MATCH_CONDITION && c != null && c.ok()) {
                guards.addAll(UnguardedAccesses.guards(c.ast()));
            }
        }
        return guards;
    }

    private static Map<String, Set<String>> variableGuards(PolicyTypeCheck.Result result, Typed typed) {
        Map<String, Set<String>> guards = new HashMap<>();
        for (PolicyTypeCheck.Expression e : result.expressions()) {
            KubernetesCelEnvironment.Compiled c = typed.compiled().get(e.field());
            if (e.variable() != null && c != null && c.ok()) {
                guards.put(e.variable(), UnguardedAccesses.guards(c.ast()));
            }
        }
        return guards;
    }

    private Finding finding(RenderedObject object, PolicyTypeCheck.Expression e, dev.cel.common.types.CelType resultType,
                            List<UnguardedAccesses.Access> accesses, boolean failsOpen) {
        // an access whose path extends another's is reported with it: object.metadata.labels(.team)
        List<UnguardedAccesses.Access> shown = accesses.stream()
                .filter(a -> accesses.stream().noneMatch(b -> b != a && under(b.path(), a.path())))
                .toList();
        StringBuilder m = new StringBuilder();
        List<String> parts = new ArrayList<>();
        for (UnguardedAccesses.Access a : shown.stream().limit(3).toList()) {
            List<String> reasons = accesses.stream().filter(b -> a.path().equals(b.path()) || under(a.path(), b.path()))
                    .map(UnguardedAccesses.Access::reason).distinct().toList();
            parts.add("`" + a.path() + "` (" + String.join("; ", reasons) + ")");
        }
        m.append("unguarded access").append(shown.size() > 1 ? "es" : "").append(" that can fail at request time: ")
                .append(String.join(", ", parts));
        if (shown.size() > 3) {
            m.append(" and ").append(shown.size() - 3).append(" more");
        }
        m.append(". When it is absent the expression fails with \"no such key\"");
        m.append(failsOpen ? " and, with failurePolicy Ignore, the policy is skipped for that request"
                : " and, with failurePolicy Fail (the default), the request is denied");
        UnguardedAccesses.Access first = shown.get(0);
        String tests = accesses.stream().filter(a -> first.path().equals(a.path()) || under(first.path(), a.path()))
                .sorted(java.util.Comparator.comparingInt(a -> a.path().length()))
                .map(UnguardedAccesses.Access::presenceTest).collect(Collectors.joining(" && "));
        Optional<String> fallback = GuardedForms.emptyLiteral(first.type());
        m.append(". Guard it: ");
        if (fallback.isPresent()) {
            m.append('`').append(optionalForm(first.path(), accesses, fallback.get())).append("` in its place (with the ")
                    .append("default you mean), or ");
        } // else no literal of its type to default to (an object, or a value of unknown type)
        boolean inLoop = !ROOTS.contains(UnguardedAccesses.steps(first.path()).get(0));
        m.append("test presence first").append(inLoop ? ", inside the loop" : "").append(": `")
                // in a loop body the test goes before the access; at the top it must keep the expression's type
                .append(inLoop ? tests + " && ..." : GuardedForms.when(e.kind(), resultType, tests, "..."))
                .append('`');
        String message = m.toString();
        return failsOpen ? Finding.info(id(), object.id(), e.field(), message)
                : Finding.warning(id(), object.id(), e.field(), message);
    }

    /**
     * The path with every risky step made optional and a default: {@code object.metadata.?labels[?'team'].orValue('')}.
     * A map key is {@code [?'k']} (a key with dots or slashes has no {@code .?} form), a field {@code .?f}.
     */
    private static String optionalForm(String path, List<UnguardedAccesses.Access> accesses, String fallback) {
        Map<String, UnguardedAccesses.Access> risky = new HashMap<>();
        accesses.forEach(a -> risky.putIfAbsent(a.path(), a));
        List<String> steps = UnguardedAccesses.steps(path);
        StringBuilder out = new StringBuilder(steps.get(0));
        String prefix = steps.get(0);
        for (String step : steps.subList(1, steps.size())) {
            prefix = prefix + step;
            UnguardedAccesses.Access a = risky.get(prefix);
            if (a == null) {
                out.append(step);
            } else if (a.mapKey()) {
                out.append("[?").append(UnguardedAccesses.quote(a.step())).append(']');
            } else {
                out.append(".?").append(a.step());
            }
        }
        return out.append(".orValue(").append(fallback).append(")").toString();
    }

    /** The variables an expression starts from; any other root is a comprehension's (a loop's) variable. */
    private static final Set<String> ROOTS = Set.of("object", "oldObject", "params", "request", "namespaceObject",
            "variables", "authorizer");

    /** Whether {@code path} selects something under {@code prefix}: {@code m.a} or {@code m['a.b']} under {@code m}. */
    private static boolean under(String path, String prefix) {
        return path.startsWith(prefix + ".") || path.startsWith(prefix + "[");
    }


}
