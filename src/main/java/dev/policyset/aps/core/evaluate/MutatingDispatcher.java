package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.intercept.Verdict;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.intercept.KubeResources;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.Schema;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The MutatingAdmissionPolicy plugin for one request: {@code k8s.io/apiserver/pkg/admission/plugin/policy/
 * generic/policy_dispatcher.go: Dispatch} (which policies, bindings and params apply) and {@code mutating/
 * dispatcher.go: dispatchInvocations} (matchConditions, then each mutation in order on the object the previous
 * one produced).
 *
 * <p><b>Reinvocation</b> ({@code admission/reinvocation.go}, {@code mutating/reinvocationcontext.go}): when a
 * mutation changed the object in the first pass, the chain runs once more and every invocation whose policy
 * says {@code reinvocationPolicy: IfNeeded} (and that ran in the first pass) is invoked again, its
 * matchConditions re-evaluated on the current object. Webhooks and in-tree plugins, which could also change the
 * object between passes, are not simulated.
 *
 * <p><b>Errors</b> (an expression, a merge, a patch, a param) are collected as upstream's {@code PolicyError}s
 * and dropped under {@code failurePolicy: Ignore}; under {@code Fail} the first one rejects the request with
 * {@code policy '<p>' with binding '<b>' denied request: <error>} (403, reason Invalid).
 */
final class MutatingDispatcher {
    /**
     * @param applied whether some invocation got past its matchConditions (or failed evaluating them, or its binding
     *                failed to configure): the request is one the policies act on, whether or not they change it
     */
    record Result(ObjectNode object, String rejection, String rejectionReason, int code, List<String> errors,
                  List<String> trace, boolean applied) {}

    private record Invocation(RenderedObject policy, RenderedObject binding, ObjectNode param, PolicyExpressions expressions) {
        String key() {
            return policy.name() + "/" + binding.name() + Activations.describe(param);
        }
    }

    private MutatingDispatcher() {}

    static Result dispatch(PolicyConfiguration config, AdmissionRequest r, Fixtures fixtures, KubeVersion version) {
        List<String> errors = new ArrayList<>();
        List<String> trace = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<Invocation> invocations = new ArrayList<>();
        boolean applied = false;
        for (RenderedObject policy : config.of(AdmissionKind.MUTATING_ADMISSION_POLICY)) {
            JsonNode spec = policy.manifest().path("spec");
            String name = "MutatingAdmissionPolicy/" + policy.name();
            boolean fail = !"Ignore".equals(spec.path("failurePolicy").asText("Fail"));
            Verdict definition = Interception.policy(spec, r, fixtures);
            if (!definition.matches()) {
                trace.add(name + ": not applied (" + definition.explain() + ")");
                continue;
            }
            List<RenderedObject> bindings = config.bindingsOf(AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING, policy.name());
            if (bindings.isEmpty()) {
                trace.add(name + ": not applied (no binding)");
            }
            PolicyExpressions expressions = new PolicyExpressions(CelChecker.PolicyType.MUTATING,
                    spec.has("paramKind") && !spec.get("paramKind").isNull(), version, ValidatingDispatcher.variables(spec));
            for (RenderedObject binding : bindings) {
                Optional<SelectedBinding> selected = SelectedBinding.of(spec, binding, name, true, r, fixtures, trace);
                if (selected.isEmpty()) {
                    continue;
                }
                String where = selected.get().where();
                ParamResolver.Params params = selected.get().params();
                if (params.error() != null) {
                    String message = "failed to configure binding: " + params.error();
                    fail(errors, failures, fail, where, policy, binding, message, trace);
                    applied = true;
                    continue;
                }
                for (ObjectNode param : params.params()) {
                    invocations.add(new Invocation(policy, binding, param, expressions));
                }
            }
        }

        ObjectNode object = r.object() == null ? null : r.object().deepCopy();
        Set<String> reinvocable = new LinkedHashSet<>();
        boolean changed = false;
        JsonNode namespaceObject = Activations.namespaceObject(r, fixtures);
        for (int pass = 1; pass <= 2; pass++) {
            if (pass == 2 && (!changed || reinvocable.isEmpty())) {
                break;
            }
            for (Invocation inv : invocations) {
                if (pass == 2 && !reinvocable.contains(inv.key())) {
                    continue;
                }
                JsonNode spec = inv.policy().manifest().path("spec");
                boolean fail = !"Ignore".equals(spec.path("failurePolicy").asText("Fail"));
                String at = "MutatingAdmissionPolicy/" + inv.policy().name() + " binding " + inv.binding().name()
                        + Activations.describe(inv.param()) + (pass == 2 ? " (reinvoked)" : "");
                PolicyExpressions.Context context = inv.expressions().context(
                        Activations.of(r.withObject(object), inv.param(), namespaceObject, fixtures));
                MatchConditions.Result match = MatchConditions.evaluate(spec.path("matchConditions"), context,
                        ExpressionKind.MATCH_CONDITION, fail);
                match.errors().forEach(e -> errors.add(at + ": " + e));
                if (match.error() != null) {
                    fail(errors, failures, fail, at, inv.policy(), inv.binding(), match.error(), trace);
                    applied = true;
                    continue;
                }
                if (!match.matches()) {
                    trace.add(at + ": skipped (matchCondition " + (match.failedCondition() == null
                            ? "errored, failurePolicy Ignore" : "'" + match.failedCondition() + "' is false") + ")");
                    continue;
                }
                applied = true;
                if (object == null) {
                    trace.add(at + ": nothing to mutate (no object)");
                    continue;
                }
                ObjectNode before = object.deepCopy();
                JsonNode mutations = spec.path("mutations");
                for (int i = 0; i < mutations.size(); i++) {
                    context.use(Activations.of(r.withObject(object), inv.param(), namespaceObject, fixtures));
                    Mutations.Result m = Mutations.apply(mutations.get(i), object, r.group(), schemaOf(config, object),
                            builtinSchemaOf(object), context);
                    if (m.internal()) {
                        // dispatcher.go: a StatusError from a patcher ends the dispatch, whatever the failurePolicy
                        errors.add(at + ": mutations[" + i + "]: " + m.error());
                        trace.add(at + ": " + m.error() + " (an internal error: the request fails whatever the failurePolicy)");
                        return new Result(object, m.error(), "InternalError", 500, errors, trace, true);
                    }
                    if (m.error() != null) {
                        errors.add(at + ": mutations[" + i + "]: " + m.error());
                        fail(null, failures, fail, at, inv.policy(), inv.binding(), m.error(), trace);
                    } else {
                        object = m.object();
                    }
                }
                boolean mutated = !before.equals(object);
                changed |= mutated;
                trace.add(at + ": " + (mutated ? "mutated the object" : "no change"));
                if (pass == 1 && "IfNeeded".equals(spec.path("reinvocationPolicy").asText(""))) {
                    reinvocable.add(inv.key());
                }
            }
        }
        if (!failures.isEmpty()) {
            return new Result(object, failures.get(0), "Invalid", 403, errors, trace, applied);
        }
        return new Result(object, null, null, 0, errors, trace, applied);
    }

    /**
     * The object's schema when the test loads its kind's CRD: the API server's type converter for the kind
     * ({@code dispatchOne: typeConverterManager.GetTypeConverter}); built-in kinds keep the built-in table.
     */
    private static Schema schemaOf(PolicyConfiguration config, ObjectNode object) {
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            return null;
        }
        return config.schemas().schema(GroupVersionKind.of(apiVersion, kind)).orElse(null);
    }

    /**
     * The built-in kind's schema (the fabric8 model's, {@code BuiltinSchemas}): what the API server's typed decoding
     * of a patched object and its type converter know of the kind's fields; null for other kinds.
     */
    private static Schema builtinSchemaOf(ObjectNode object) {
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty() || !KubeResources.isBuiltinGroup(GroupVersionKind.of(apiVersion, kind).group())) {
            return null;
        }
        return BuiltinSchemas.instance().schema(GroupVersionKind.of(apiVersion, kind)).orElse(null);
    }

    /** Records a PolicyError: in {@code errors} (when not already there) and, under Fail, as a rejection. */
    private static void fail(List<String> errors, List<String> failures, boolean fail, String where, RenderedObject policy,
                             RenderedObject binding, String message, List<String> trace) {
        if (errors != null) {
            errors.add(where + ": " + message);
        }
        trace.add(where + ": " + message + (fail ? " (failurePolicy Fail: denied)" : " (failurePolicy Ignore)"));
        if (fail) {
            failures.add("policy '" + policy.name() + "' with binding '" + binding.name() + "' denied request: " + message);
        }
    }
}
