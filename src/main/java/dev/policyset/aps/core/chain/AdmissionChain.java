package dev.policyset.aps.core.chain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.MatchCondition;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Verdict;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The admission chain of one request, in the API server's order, given some admission objects (rendered sets and
 * bare objects). Pure: matching is the interception model's ({@link Interceptor}); nothing here matches on its own.
 *
 * <pre>{@code
 * AdmissionChain.Result r = AdmissionChain.of(objects,
 *         AdmissionRequest.of("apps", "v1", "deployments", Operation.CREATE).inNamespace("team-a", Map.of()));
 * r.steps();            // in order: built-in mutating plugins, MAPs, mutating webhooks, reinvocation, schema, ...
 * r.latency().totalSeconds();
 * }</pre>
 *
 * <p>The order (DESIGN §2): the mutating phase runs every enabled plugin's mutating half in the compiled order
 * ({@link BuiltinPlugin}, then MutatingAdmissionPolicy, then MutatingAdmissionWebhook), with one reinvocation round
 * when a webhook or policy asks for it; then schema and strategy validation (CREATE and UPDATE); then the
 * validating halves in the same order (built-in plugins, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook,
 * ResourceQuota). Webhooks: the API server sorts the configurations by name and calls each configuration's
 * webhooks in list order ({@code k8s.io/apiserver/pkg/admission/configuration/mutating_webhook_manager.go} and
 * {@code validating_webhook_manager.go}, {@code sort.SliceStable(..., ByName)}); mutating webhooks in sequence
 * ({@code plugin/webhook/mutating/dispatcher.go}), validating ones in parallel ({@code validating/dispatcher.go}).
 * Policies are listed by policy name, then binding name: the API server documents no order among policies.
 */
public final class AdmissionChain {
    /**
     * @param steps      the steps that see the request (MATCHES or UNDECIDED), in order
     * @param notReached the webhooks and policy bindings in the input that do not see it, with the reason
     * @param latency    worst-case time the webhooks among {@code steps} add
     */
    public record Result(AdmissionRequest request, List<ChainStep> steps, List<ChainStep> notReached,
                         WorstCaseLatency latency) {
        public Result {
            steps = List.copyOf(steps);
            notReached = List.copyOf(notReached);
        }
    }

    private AdmissionChain() {}

    public static Result of(List<RenderedObject> objects, AdmissionRequest request) {
        List<ChainStep> steps = new ArrayList<>();
        List<ChainStep> notReached = new ArrayList<>();
        WorstCaseLatency latency = new WorstCaseLatency();
        boolean writes = request.operations().contains(Operation.CREATE) || request.operations().contains(Operation.UPDATE);

        for (BuiltinPlugin p : BuiltinPlugin.DEFAULT_ENABLED) {
            if (p.mutatesOn(request)) {
                steps.add(ChainStep.builtin(ChainStep.Phase.MUTATING, ChainStep.Type.BUILTIN_PLUGIN, p.name(), p.does()));
            }
        }
        List<ChainStep> reinvoked = new ArrayList<>();
        for (ChainStep s : policies(objects, request, true)) {
            place(s, steps, notReached);
            if (s.outcome() != Verdict.Outcome.NO_MATCH && s.note().contains("IfNeeded")) {
                reinvoked.add(s);
            }
        }
        for (ChainStep s : webhooks(objects, request, AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION)) {
            place(s, steps, notReached);
            if (s.outcome() != Verdict.Outcome.NO_MATCH) {
                boolean ifNeeded = s.note().contains("IfNeeded");
                latency.addMutating(s.timeoutSeconds(), ifNeeded);
                if (ifNeeded) {
                    reinvoked.add(s);
                }
            }
        }
        if (!reinvoked.isEmpty()) {
            // admission/reinvocation.go: when a later plugin changed the object, the mutating plugins run once more;
            // webhooks and policies are called again only if their reinvocationPolicy is IfNeeded.
            steps.add(new ChainStep(ChainStep.Phase.MUTATING, ChainStep.Type.REINVOCATION, "reinvocation round", "",
                    Verdict.Outcome.MATCHES, reinvoked.stream().map(s -> s.object() + " " + s.name()).toList(), List.of(),
                    "", latency.reinvocationSeconds(), List.of(),
                    "if a step after these changed the object, they are called once more (reinvocationPolicy IfNeeded)"));
        }
        if (writes) {
            steps.add(ChainStep.builtin(ChainStep.Phase.SCHEMA_VALIDATION, ChainStep.Type.SCHEMA, "schema and strategy validation",
                    "the mutated object is validated against the resource's schema (OpenAPI for custom resources)"));
        }
        for (BuiltinPlugin p : BuiltinPlugin.DEFAULT_ENABLED) {
            if (p.validatesOn(request)) {
                steps.add(ChainStep.builtin(ChainStep.Phase.VALIDATING, ChainStep.Type.BUILTIN_PLUGIN, p.name(), p.does()));
            }
        }
        for (ChainStep s : policies(objects, request, false)) {
            place(s, steps, notReached);
        }
        for (ChainStep s : webhooks(objects, request, AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION)) {
            place(s, steps, notReached);
            if (s.outcome() != Verdict.Outcome.NO_MATCH) {
                latency.addValidating(s.timeoutSeconds());
            }
        }
        // resourcequota/admission.go: quota evaluators charge namespaced objects, not their subresources.
        if (writes && !request.namespace().isEmpty() && !request.isNamespaceObject() && request.subresource().isEmpty()) {
            steps.add(ChainStep.builtin(ChainStep.Phase.VALIDATING, ChainStep.Type.BUILTIN_PLUGIN, "ResourceQuota",
                    "charges the object to the namespace's ResourceQuotas, refusing it over quota (always last)"));
        }
        return new Result(request, steps, notReached, latency);
    }

    private static void place(ChainStep s, List<ChainStep> steps, List<ChainStep> notReached) {
        (s.outcome() == Verdict.Outcome.NO_MATCH ? notReached : steps).add(s);
    }

    /** Every webhook of the configurations of {@code kind}, configurations by name, webhooks in list order. */
    private static List<ChainStep> webhooks(List<RenderedObject> objects, AdmissionRequest request, AdmissionKind kind) {
        boolean mutating = kind == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION;
        List<RenderedObject> configurations = objects.stream().filter(o -> o.kind() == kind)
                .sorted(Comparator.comparing(RenderedObject::name)).toList();
        List<ChainStep> out = new ArrayList<>();
        for (RenderedObject c : configurations) {
            JsonNode list = c.manifest().get("webhooks");
            if (list == null || !list.isArray()) {
                continue;
            }
            for (int i = 0; i < list.size(); i++) {
                JsonNode hook = list.get(i);
                if (!hook.isObject()) {
                    continue;
                }
                String path = "webhooks[" + i + "]";
                Verdict v = Interceptor.ofWebhook(hook, path).match(request);
                String name = text(hook, "name", path);
                String failure = text(hook, "failurePolicy", "Fail");
                JsonNode t = hook.get("timeoutSeconds");
                int timeout = t != null && t.isIntegralNumber() ? t.asInt() : 10;
                String note = mutating
                        ? "called in sequence" + (text(hook, "reinvocationPolicy", "Never").equals("IfNeeded")
                                ? "; reinvocationPolicy IfNeeded" : "")
                        : "called in parallel with the other validating webhooks";
                out.add(new ChainStep(mutating ? ChainStep.Phase.MUTATING : ChainStep.Phase.VALIDATING,
                        mutating ? ChainStep.Type.MUTATING_WEBHOOK : ChainStep.Type.VALIDATING_WEBHOOK, name, c.id(),
                        v.outcome(), v.reasons(), open(v), failure, timeout, List.of(), note));
            }
        }
        return out;
    }

    /** Every binding of the mutating or validating policies, paired with its policy by {@code spec.policyName}. */
    private static List<ChainStep> policies(List<RenderedObject> objects, AdmissionRequest request, boolean mutating) {
        AdmissionKind policyKind = mutating ? AdmissionKind.MUTATING_ADMISSION_POLICY : AdmissionKind.VALIDATING_ADMISSION_POLICY;
        AdmissionKind bindingKind = mutating ? AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING
                : AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING;
        List<RenderedObject> bindings = objects.stream().filter(o -> o.kind() == bindingKind).toList();
        List<RenderedObject> policies = objects.stream().filter(o -> o.kind() == policyKind)
                .sorted(Comparator.comparing(RenderedObject::name)).toList();
        List<ChainStep> out = new ArrayList<>();
        for (RenderedObject policy : policies) {
            JsonNode spec = policy.manifest().path("spec");
            List<RenderedObject> mine = bindings.stream()
                    .filter(b -> policy.name().equals(b.manifest().path("spec").path("policyName").asText()))
                    .sorted(Comparator.comparing(RenderedObject::name)).toList();
            if (mine.isEmpty()) {
                out.add(new ChainStep(mutating ? ChainStep.Phase.MUTATING : ChainStep.Phase.VALIDATING,
                        mutating ? ChainStep.Type.MUTATING_POLICY : ChainStep.Type.VALIDATING_POLICY, policy.name(),
                        policy.id(), Verdict.Outcome.NO_MATCH,
                        List.of("no binding in the input names it (spec.policyName): the API server evaluates a policy "
                                + "only through a binding"), List.of(), text(spec, "failurePolicy", "Fail"), 0, List.of(), ""));
            }
            for (RenderedObject binding : mine) {
                JsonNode bspec = binding.manifest().path("spec");
                Verdict v = Interceptor.ofBinding(spec, bspec).match(request);
                List<String> actions = new ArrayList<>();
                bspec.path("validationActions").forEach(a -> actions.add(a.asText()));
                String note = mutating
                        ? "evaluated in-process" + (text(spec, "reinvocationPolicy", "Never").equals("IfNeeded")
                                ? "; reinvocationPolicy IfNeeded" : "")
                        : "evaluated in-process";
                out.add(new ChainStep(mutating ? ChainStep.Phase.MUTATING : ChainStep.Phase.VALIDATING,
                        mutating ? ChainStep.Type.MUTATING_POLICY : ChainStep.Type.VALIDATING_POLICY, policy.name(),
                        binding.id(), v.outcome(), v.reasons(), open(v), text(spec, "failurePolicy", "Fail"), 0,
                        actions, note));
            }
        }
        return out;
    }

    private static List<String> open(Verdict v) {
        return v.conditionsToEvaluate().stream().map(AdmissionChain::describe).toList();
    }

    private static String describe(MatchCondition c) {
        return c.label() + ": " + c.expression();
    }

    private static String text(JsonNode node, String field, String otherwise) {
        JsonNode n = node.get(field);
        return n != null && n.isTextual() ? n.asText() : otherwise;
    }
}
