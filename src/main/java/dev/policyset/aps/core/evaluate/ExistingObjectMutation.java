package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.List;
import java.util.Optional;

/**
 * One MutatingAdmissionPolicy through one of its bindings, asked about objects that already exist: what would the
 * binding do to each object the next time it is written? The same request model as {@link ExistingObjectReview}
 * (the UPDATE that leaves the object as it is, its CREATE where UPDATE is not intercepted) and the same mutation
 * engine as {@code aps test} ({@link MutatingDispatcher}: matchConditions, params, JSONPatch and ApplyConfiguration,
 * typed and strict decoding, the binding's own reinvocation when its policy says {@code IfNeeded}).
 *
 * <p><b>Applied again.</b> When the mutation changed the object, it is applied once more to its own output, the
 * request otherwise the same: what the API server's reinvocation does ({@code admission/reinvocation.go}: the policy
 * runs again on the object the chain produced, its matchConditions re-evaluated), and what every later write of a
 * stored, already mutated object meets when the binding intercepts UPDATE. An idempotent mutation changes nothing
 * the second time.
 */
public final class ExistingObjectMutation {
    private final RenderedObject policy;
    private final RenderedObject binding;
    private final InterceptionScope scope;
    private final PolicyConfiguration configuration;
    private final KubeVersion version;
    private final boolean failClosed;
    private final boolean reinvoked;

    /**
     * What the binding did to one object.
     *
     * @param operation UPDATE or CREATE: the request that was asked
     * @param applied   false when the policy does not act on the object (its matchConditions say no, no param
     *                  with {@code parameterNotFoundAction: Allow})
     * @param before    the object as it exists
     * @param after     the object the mutation produced (the object as it is when nothing changed or the request was
     *                  refused)
     * @param rejection the API server's refusal of the request (an error under failurePolicy Fail, or an internal
     *                  error such as strict decoding whatever the failurePolicy); null when admitted
     * @param internal  the rejection is an internal error (HTTP 500) rather than the policy's 403
     * @param errors    every error of the invocation, including those failurePolicy Ignore drops
     * @param again     the object after the mutation is applied once more to {@code after}; null when it was not
     *                  applied again (nothing changed, or refused) or the second application was refused
     * @param againError why the second application was refused; null otherwise
     */
    public record Mutation(String operation, boolean applied, ObjectNode before, ObjectNode after, String rejection,
                           boolean internal, List<String> errors, ObjectNode again, String againError) {
        public Mutation {
            errors = List.copyOf(errors);
        }

        public boolean changed() {
            return rejection == null && !before.equals(after);
        }

        /** The mutation applied to its own output changes it again, or is refused then. */
        public boolean notIdempotent() {
            return changed() && (againError != null || again != null && !again.equals(after));
        }
    }

    private ExistingObjectMutation(RenderedObject policy, RenderedObject binding, KubeVersion version) {
        this.policy = policy;
        this.binding = binding;
        this.scope = new InterceptionScope(policy, binding);
        this.configuration = new PolicyConfiguration(List.of(policy, binding));
        this.version = version;
        this.failClosed = !"Ignore".equals(policy.manifest().path("spec").path("failurePolicy").asText("Fail"));
        this.reinvoked = "IfNeeded".equals(policy.manifest().path("spec").path("reinvocationPolicy").asText(""));
    }

    /** A MutatingAdmissionPolicy and one binding whose {@code policyName} names it. */
    public static ExistingObjectMutation of(RenderedObject policy, RenderedObject binding, KubeVersion version) {
        return new ExistingObjectMutation(policy, binding, version);
    }

    public RenderedObject policy() {
        return policy;
    }

    public RenderedObject binding() {
        return binding;
    }

    public InterceptionScope scope() {
        return scope;
    }

    /** The policy's failurePolicy: Fail (the default) or Ignore. */
    public boolean failClosed() {
        return failClosed;
    }

    /** The policy's reinvocationPolicy is {@code IfNeeded}: the API server may apply it again within one request. */
    public boolean reinvoked() {
        return reinvoked;
    }

    /**
     * The binding's mutation of an existing object, or empty when the policy and binding do not intercept it
     * (resource rules, selectors, scope) for an UPDATE or a CREATE.
     */
    public Optional<Mutation> mutate(ExistingObjectReview.Candidate c) {
        AdmissionRequest chosen = c.chosen(scope.interceptor());
        if (chosen == null) {
            return Optional.empty();
        }
        MutatingDispatcher.Result first = MutatingDispatcher.dispatch(configuration, chosen, c.fixtures(), version);
        ObjectNode before = chosen.object();
        boolean refused = first.rejection() != null;
        ObjectNode after = refused || first.object() == null ? before : first.object();
        ObjectNode again = null;
        String againError = null;
        if (!refused && !after.equals(before)) {
            MutatingDispatcher.Result second = MutatingDispatcher.dispatch(configuration, chosen.withObject(after),
                    c.fixtures(), version);
            if (second.rejection() != null) {
                againError = second.rejection();
            } else {
                again = second.object();
            }
        }
        return Optional.of(new Mutation(chosen.operation(), first.applied(), before, after, first.rejection(),
                first.code() == 500, first.errors(), again, againError));
    }
}
