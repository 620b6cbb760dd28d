package dev.policyset.aps.core.evaluate;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.SchemaSource;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The admission configuration a request meets: the policies, bindings and webhook configurations of the
 * sets and bare objects a test loads, in the order they were read (the order policies are evaluated in), and
 * the schemas of the custom resources whose CRDs it loads (for ApplyConfiguration merges).
 *
 * <p>It also keeps what every request would otherwise derive again from the same objects (each policy's and
 * binding's interception model, each policy's expressions), so that a configuration asked about many requests (an
 * impact scan asks one per existing object) reads its objects once. The objects are not changed after they are
 * given, which is what makes that safe.
 */
public final class PolicyConfiguration {
    private final List<RenderedObject> objects;
    private final SchemaSource schemas;
    private final Map<RenderedObject, Interceptor> policyInterceptors = identityMap();
    private final Map<RenderedObject, Map<RenderedObject, Interceptor>> bindingInterceptors = identityMap();
    private final Map<ExpressionsKey, PolicyExpressions> expressions = Collections.synchronizedMap(new HashMap<>());

    public PolicyConfiguration(List<RenderedObject> objects, SchemaSource schemas) {
        this.objects = List.copyOf(objects);
        this.schemas = schemas == null ? SchemaSource.NONE : schemas;
    }

    public PolicyConfiguration(List<RenderedObject> objects) {
        this(objects, SchemaSource.NONE);
    }

    public List<RenderedObject> objects() {
        return objects;
    }

    public SchemaSource schemas() {
        return schemas;
    }

    List<RenderedObject> of(AdmissionKind kind) {
        return objects.stream().filter(o -> o.kind() == kind).toList();
    }

    /** The bindings of one policy, in order. */
    List<RenderedObject> bindingsOf(AdmissionKind bindingKind, String policyName) {
        return of(bindingKind).stream()
                .filter(b -> b.manifest().path("spec").path("policyName").asText("").equals(policyName)).toList();
    }

    /** Whether a policy of this name exists (of the validating or mutating kind). */
    public boolean hasPolicy(AdmissionKind kind, String name) {
        return of(kind).stream().anyMatch(p -> p.name().equals(name));
    }

    /** A policy's matchConstraints as the interception model reads them (matchConditions left out). */
    Interceptor policyInterceptor(RenderedObject policy) {
        return policyInterceptors.computeIfAbsent(policy,
                p -> Interceptor.ofPolicy(Interception.withoutConditions(p.manifest().path("spec"))));
    }

    /** A binding's matchResources on top of its policy's matchConstraints. */
    Interceptor bindingInterceptor(RenderedObject policy, RenderedObject binding) {
        return bindingInterceptors.computeIfAbsent(binding, b -> identityMap()).computeIfAbsent(policy,
                p -> Interceptor.ofBinding(Interception.withoutConditions(p.manifest().path("spec")),
                        binding.manifest().path("spec")));
    }

    /** A policy's expressions, whose environments and variable references are then worked out once. */
    PolicyExpressions expressions(RenderedObject policy, CelChecker.PolicyType type, boolean hasParams,
                                  KubeVersion version) {
        return expressions.computeIfAbsent(new ExpressionsKey(policy, type, hasParams, version), k -> new PolicyExpressions(
                type, hasParams, version, ValidatingDispatcher.variables(policy.manifest().path("spec"))));
    }

    /** The policy by identity (records compare manifests by value, which would read them whole). */
    private record ExpressionsKey(RenderedObject policy, CelChecker.PolicyType type, boolean hasParams,
                                  KubeVersion version) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ExpressionsKey k && k.policy == policy && k.type == type && k.hasParams == hasParams
                    && k.version.equals(version);
        }

        @Override
        public int hashCode() {
            return Objects.hash(System.identityHashCode(policy), type, hasParams, version);
        }
    }

    private static <K, V> Map<K, V> identityMap() {
        return Collections.synchronizedMap(new IdentityHashMap<>());
    }
}
