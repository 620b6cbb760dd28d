package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One ValidatingAdmissionPolicy through one of its bindings, asked about objects that already exist: what would
 * the binding decide the next time each object is written? The answer comes from the same dispatcher that
 * {@code aps test} runs ({@link ValidatingDispatcher}), with the binding's decisions read before its
 * validationActions are applied, so the caller can say what a switch to {@code Deny} would do.
 *
 * <p><b>Which request.</b> An existing object is next written as an UPDATE (a re-apply from Git, a controller or
 * {@code kubectl} edit, a rollout) or, once deleted, re-created with a CREATE (a restore, a rebuilt cluster, a pod a
 * controller re-creates). The review asks the UPDATE the API server would see for an update that leaves the object
 * as it is: {@code object} and {@code oldObject} both the stored object ({@code k8s.io/apiserver/pkg/admission/
 * plugin/policy/validating/dispatcher.go}: {@code VersionedObject} and {@code VersionedOldObject} of the same
 * attributes; {@code plugin/cel/filter.go: CreateAdmissionRequest}). That is the request every object will meet
 * and the one that cannot be blamed on the change itself: a transition rule ({@code object.x == oldObject.x})
 * passes, as it would for an unrelated edit. When the binding does not intercept UPDATE for the object, the
 * CREATE of the same object is asked instead (a policy that guards only creation breaks re-creation).
 */
public final class ExistingObjectReview {
    private final RenderedObject policy;
    private final RenderedObject binding;
    private final Interceptor interceptor;
    private final InterceptionScope scope;
    private final PolicyConfiguration configuration;
    private final AdmissionSimulator.Options options;
    private final boolean failClosed;
    private final List<String> actions;

    /**
     * What the binding decided about one object, before its actions.
     *
     * @param operation       UPDATE or CREATE: the request that was asked
     * @param inScope         false when every matchCondition evaluation said no (the policy does not apply)
     * @param violations      the messages of the validations that were false
     * @param errors          evaluation and binding configuration errors
     * @param failClosedErrors the errors that failurePolicy Fail turns into a failed validation (then subject to the
     *                        binding's actions like a violation)
     * @param alwaysDenied    what denies whatever the actions are: binding configuration errors and audit
     *                        annotation errors under failurePolicy Fail
     */
    public record Review(String operation, boolean inScope, List<String> violations, List<String> errors,
                         List<String> failClosedErrors, List<String> alwaysDenied) {
        /** Whether a binding with {@code Deny} among its actions would refuse the request. */
        public boolean deniedUnderDeny() {
            return !violations.isEmpty() || !failClosedErrors.isEmpty() || !alwaysDenied.isEmpty();
        }

        /** Whether the binding's current actions see a failed validation (deny, warn or audit it). */
        public boolean failsValidation() {
            return !violations.isEmpty() || !failClosedErrors.isEmpty();
        }
    }

    private ExistingObjectReview(RenderedObject policy, RenderedObject binding, KubeVersion version) {
        this.policy = policy;
        this.binding = binding;
        JsonNode spec = policy.manifest().path("spec");
        this.scope = new InterceptionScope(policy, binding);
        this.interceptor = scope.interceptor();
        this.configuration = new PolicyConfiguration(List.of(policy, binding));
        this.options = AdmissionSimulator.Options.of(version);
        this.failClosed = !"Ignore".equals(spec.path("failurePolicy").asText("Fail"));
        List<String> a = new ArrayList<>();
        binding.manifest().path("spec").path("validationActions").forEach(n -> a.add(n.asText()));
        this.actions = List.copyOf(a);
    }

    /** A ValidatingAdmissionPolicy and one binding whose {@code policyName} names it. */
    public static ExistingObjectReview of(RenderedObject policy, RenderedObject binding, KubeVersion version) {
        return new ExistingObjectReview(policy, binding, version);
    }

    public RenderedObject policy() {
        return policy;
    }

    public RenderedObject binding() {
        return binding;
    }

    /** What the policy and binding intercept (for the resources a scan must list). */
    public InterceptionScope scope() {
        return scope;
    }

    /** The binding's validationActions as written. */
    public List<String> actions() {
        return actions;
    }

    /** The policy's failurePolicy: Fail (the default) or Ignore. */
    public boolean failClosed() {
        return failClosed;
    }

    /**
     * An existing object with the two requests it can meet, built once and asked of every binding (the
     * interception model's view of them includes the namespace's labels).
     */
    public static final class Candidate {
        private final AdmissionRequest update;
        private final AdmissionRequest create;
        private final dev.policyset.aps.core.intercept.AdmissionRequest updateView;
        private final dev.policyset.aps.core.intercept.AdmissionRequest createView;
        private final Fixtures fixtures;
        /** Both requests share the object, so its CEL values are converted once for every binding asked. */
        private final RequestValues values = new RequestValues();

        private Candidate(ObjectNode object, Fixtures fixtures, UserInfo user) {
            this.update = request("UPDATE", object, user);
            this.create = request("CREATE", object, user);
            this.updateView = values.view(update, fixtures);
            this.createView = values.view(create, fixtures);
            this.fixtures = fixtures;
        }

        /**
         * The request an interceptor is asked about: the UPDATE that leaves the object as it is, or its CREATE when
         * the UPDATE is not intercepted; null when neither is.
         */
        AdmissionRequest chosen(Interceptor interceptor) {
            if (interceptor.match(updateView).matches()) {
                return update;
            }
            return interceptor.match(createView).matches() ? create : null;
        }

        Fixtures fixtures() {
            return fixtures;
        }
    }

    /**
     * @param user who writes the object ({@code request.userInfo}; matchConditions often exempt controllers by name)
     */
    public static Candidate candidate(ObjectNode object, Fixtures fixtures, UserInfo user) {
        return new Candidate(object, fixtures, user);
    }

    /** {@link #review(Candidate)} for one object. */
    public Optional<Review> review(ObjectNode object, Fixtures fixtures, UserInfo user) {
        return review(candidate(object, fixtures, user));
    }

    /**
     * The binding's decision on an existing object, or empty when the policy and binding do not intercept it
     * (resource rules, selectors, scope) for an UPDATE or a CREATE.
     */
    public Optional<Review> review(Candidate c) {
        AdmissionRequest chosen = c.chosen(interceptor);
        if (chosen == null) {
            return Optional.empty();
        }
        Fixtures fixtures = c.fixtures;
        ValidatingDispatcher.Result result = ValidatingDispatcher.dispatch(configuration, chosen, fixtures, options, c.values);
        boolean inScope = false;
        List<String> violations = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        List<String> failClosedErrors = new ArrayList<>();
        List<String> alwaysDenied = new ArrayList<>();
        for (ValidatingDispatcher.BindingOutcome o : result.outcomes()) {
            inScope |= o.matched();
            errors.addAll(o.errors());
            alwaysDenied.addAll(o.alwaysDenied());
            for (PolicyDecision d : o.decisions()) {
                if (d.deny() && d.error()) {
                    failClosedErrors.add(d.message());
                } else if (d.deny()) {
                    violations.add(d.message());
                }
            }
        }
        if (result.outcomes().isEmpty()) {
            // no param found (parameterNotFoundAction Allow): the binding admits without evaluating
            return Optional.of(new Review(chosen.operation(), false, List.of(), List.of(), List.of(), List.of()));
        }
        return Optional.of(new Review(chosen.operation(), inScope, violations, errors, failClosedErrors, alwaysDenied));
    }

    /** The request for writing {@code object} as it is (UPDATE: the stored object is also the old one). */
    static AdmissionRequest request(String operation, ObjectNode object, UserInfo user) {
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        String group = KindResources.groupOf(apiVersion);
        String name = object.path("metadata").path("name").asText("");
        String namespace = object.path("metadata").path("namespace").asText("");
        if (kind.equals("Namespace") && group.isEmpty()) {
            namespace = name; // the API server gives a Namespace request its own name as namespace
        }
        return new AdmissionRequest(operation, group, KindResources.versionOf(apiVersion), KindResources.resourceOf(kind),
                "", kind, namespace, name, object, "UPDATE".equals(operation) ? object : null, user, false, null);
    }

}
