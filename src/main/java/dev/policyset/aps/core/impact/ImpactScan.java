package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.ExistingObjectMutation;
import dev.policyset.aps.core.evaluate.ExistingObjectReview;
import dev.policyset.aps.core.evaluate.InterceptionScope;
import dev.policyset.aps.core.evaluate.Fixtures;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.evaluate.UserInfo;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates every ValidatingAdmissionPolicy of a configuration, through each of its bindings, against every
 * existing object the two intercept, and counts what the binding would decide (see {@link ExistingObjectReview}
 * for the request asked). The existing objects are also the cluster the evaluation sees: Namespace objects give
 * namespaceSelectors and {@code namespaceObject} their labels (a namespace not among them has only
 * {@code kubernetes.io/metadata.name}), and objects of a policy's paramKind are its params.
 */
public final class ImpactScan {
    /** Samples kept per binding by default. */
    public static final int DEFAULT_SAMPLES = 10;

    /**
     * Who the scan says writes the objects when no one is named: an authenticated user that is not a system
     * identity, as a person or a GitOps pipeline applying manifests is. Controllers' writes
     * ({@code system:serviceaccount:...}, {@code system:node:...}) are often exempted by matchConditions; ask as one
     * of them to see what they would meet.
     */
    public static final UserInfo DEFAULT_USER = new UserInfo("aps-impact", "", List.of("system:authenticated"), Map.of());

    /**
     * @param maxObjects objects scanned at most (the rest are counted as omitted); 0 or less: no limit
     * @param samples    objects named per binding at most
     * @param user       {@code request.userInfo} of every request asked
     * @param verdicts   keep every matched object's verdict ({@link BindingImpact#verdicts()}), for policy reports
     */
    public record Options(int maxObjects, int samples, UserInfo user, boolean verdicts) {
        public Options {
            user = user == null ? DEFAULT_USER : user;
            maxObjects = maxObjects <= 0 ? Integer.MAX_VALUE : maxObjects;
        }

        public Options(int maxObjects, int samples, UserInfo user) {
            this(maxObjects, samples, user, false);
        }

        public static Options defaults() {
            return new Options(Integer.MAX_VALUE, DEFAULT_SAMPLES, DEFAULT_USER);
        }
    }

    private ImpactScan() {}

    public static ImpactReport scan(List<RenderedObject> configuration, List<ObjectNode> existing, KubeVersion version,
                                    Options limits) {
        Run run = new Run(configuration, version, limits, fixtures(configuration, existing));
        existing.forEach(run::offer);
        return run.report();
    }

    /**
     * The operator's scan: only the resources some binding can intercept are listed (and Namespaces, for selectors,
     * and the policies' param kinds), at most {@code options.maxObjects()} objects evaluated in all.
     *
     * @param incomplete why a binding's counts may be low (by binding name; absent when the scan saw everything
     *                   the policy matches)
     */
    public record SourceScan(ImpactReport report, Map<String, String> incomplete) {}

    /**
     * Streams the source: Namespaces first, then the param kinds, are read in full and kept (every evaluation may read
     * them: namespaceSelectors, {@code namespaceObject}, params); every other resource is evaluated a page at a time
     * and let go, so memory holds the fixtures, one page and the counts, whatever the size of the cluster. Objects
     * beyond {@code maxObjects} are still listed, to be counted as omitted.
     */
    public static SourceScan scan(List<RenderedObject> configuration, ExistingObjectSource source, KubeVersion version,
                                  Options options) {
        List<ExistingObjectReview> reviews = reviews(configuration, version);
        List<ExistingObjectMutation> mutations = mutations(configuration, version);
        List<Scoped> scopes = new ArrayList<>();
        reviews.forEach(v -> scopes.add(new Scoped(v.policy(), v.binding(), v.scope())));
        mutations.forEach(m -> scopes.add(new Scoped(m.policy(), m.binding(), m.scope())));
        List<ExistingObjectSource.Resource> available = source.resources();
        Set<String> paramResources = new HashSet<>();
        for (RenderedObject o : configuration) {
            JsonNode pk = o.manifest().path("spec").path("paramKind");
            if (isPolicy(o) && pk.isObject()) {
                paramResources.add(KindResources.groupOf(pk.path("apiVersion").asText("")) + "/"
                        + KindResources.resourceOf(pk.path("kind").asText("")));
            }
        }
        List<ExistingObjectSource.Resource> fixtureResources = new ArrayList<>();
        List<ExistingObjectSource.Resource> streamed = new ArrayList<>();
        for (ExistingObjectSource.Resource r : available) {
            boolean namespaces = isNamespaces(r);
            boolean params = paramResources.contains(r.group() + "/" + r.resource());
            if (scopes.isEmpty()) {
                continue;
            }
            if (namespaces || params) {
                fixtureResources.add(r);
            } else if (scopes.stream().anyMatch(v -> v.scope().mayIntercept(r.group(), r.resource()))) {
                streamed.add(r);
            }
        }
        fixtureResources.sort(java.util.Comparator.comparing(r -> isNamespaces(r) ? 0 : 1));
        List<ObjectNode> held = new ArrayList<>();
        for (ExistingObjectSource.Resource r : fixtureResources) {
            source.list(r, page -> held.addAll(page) || true);
        }
        Run run = new Run(configuration, version, options, fixtures(configuration, held));
        held.forEach(run::offer);
        for (ExistingObjectSource.Resource r : streamed) {
            source.list(r, page -> {
                page.forEach(run::offer);
                return true;
            });
        }
        ImpactReport report = run.report();
        Map<String, String> incomplete = new LinkedHashMap<>();
        for (Scoped v : scopes) {
            RenderedObject policy = v.policy();
            RenderedObject binding = v.binding();
            List<String> why = new ArrayList<>();
            List<String> unlisted = v.scope().unlisted((g, res) -> available.stream()
                    .anyMatch(a -> a.group().equals(g) && a.resource().equals(res)));
            if (!unlisted.isEmpty()) {
                why.add("the policy matches " + String.join(", ", unlisted)
                        + ", which the operator does not list (aps.impact.kinds)");
            }
            JsonNode pk = policy.manifest().path("spec").path("paramKind");
            if (pk.isObject()) {
                String g = KindResources.groupOf(pk.path("apiVersion").asText(""));
                String res = KindResources.resourceOf(pk.path("kind").asText(""));
                if (available.stream().noneMatch(a -> a.group().equals(g) && a.resource().equals(res))) {
                    // its params cannot be read: the binding would be evaluated as if none existed
                    why.add("its paramKind " + (g.isEmpty() ? "core" : g) + "/" + res
                            + " is not listed (aps.impact.kinds), so its params were not read");
                }
            }
            if (report.omitted() > 0) {
                why.add(report.omitted() + " object(s) were left out (aps.impact.max-objects)");
            }
            if (!why.isEmpty()) {
                incomplete.put(binding.name(), String.join("; ", why));
            }
        }
        return new SourceScan(report, incomplete);
    }

    private static boolean isNamespaces(ExistingObjectSource.Resource r) {
        return r.group().isEmpty() && r.resource().equals("namespaces");
    }

    /** One scan while the objects go by: each object is asked of every binding once, then dropped. */
    private static final class Run {
        private final Fixtures fixtures;
        private final Options limits;
        private final List<Tally> tallies;
        private final List<MutationTally> mutations;
        private int evaluated;
        private int omitted;

        Run(List<RenderedObject> configuration, KubeVersion version, Options limits, Fixtures fixtures) {
            this.fixtures = fixtures;
            this.limits = limits;
            this.tallies = reviews(configuration, version).stream()
                    .map(r -> new Tally(r, limits.samples(), limits.verdicts())).toList();
            this.mutations = mutations(configuration, version).stream()
                    .map(m -> new MutationTally(m, limits.samples())).toList();
        }

        void offer(ObjectNode object) {
            if (evaluated >= limits.maxObjects()) {
                omitted++;
                return;
            }
            evaluated++;
            ExistingObjectReview.Candidate candidate = ExistingObjectReview.candidate(object, fixtures, limits.user());
            for (Tally t : tallies) {
                t.review.review(candidate).ifPresent(r -> t.add(object, r));
            }
            for (MutationTally t : mutations) {
                t.mutation().mutate(candidate).ifPresent(m -> t.add(object, m));
            }
        }

        ImpactReport report() {
            return new ImpactReport(evaluated, omitted, tallies.stream().map(Tally::impact).toList(),
                    mutations.stream().map(MutationTally::impact).toList());
        }
    }

    /** Every (policy, binding) pair of the configuration, in its order; bindings of absent policies are APS401's. */
    static List<ExistingObjectReview> reviews(List<RenderedObject> configuration, KubeVersion version) {
        Map<String, RenderedObject> policies = new LinkedHashMap<>();
        configuration.stream().filter(o -> o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY)
                .forEach(p -> policies.putIfAbsent(p.name(), p));
        List<ExistingObjectReview> reviews = new ArrayList<>();
        for (RenderedObject policy : policies.values()) {
            for (RenderedObject binding : configuration) {
                if (binding.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
                        && binding.manifest().path("spec").path("policyName").asText("").equals(policy.name())) {
                    reviews.add(ExistingObjectReview.of(policy, binding, version));
                }
            }
        }
        return reviews;
    }

    /** A policy and binding of either kind with what they intercept. */
    private record Scoped(RenderedObject policy, RenderedObject binding, InterceptionScope scope) {}

    /** Every (policy, binding) pair of the configuration's MutatingAdmissionPolicies, in its order. */
    static List<ExistingObjectMutation> mutations(List<RenderedObject> configuration, KubeVersion version) {
        Map<String, RenderedObject> policies = new LinkedHashMap<>();
        configuration.stream().filter(o -> o.kind() == AdmissionKind.MUTATING_ADMISSION_POLICY)
                .forEach(p -> policies.putIfAbsent(p.name(), p));
        List<ExistingObjectMutation> out = new ArrayList<>();
        for (RenderedObject policy : policies.values()) {
            for (RenderedObject binding : configuration) {
                if (binding.kind() == AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING
                        && binding.manifest().path("spec").path("policyName").asText("").equals(policy.name())) {
                    out.add(ExistingObjectMutation.of(policy, binding, version));
                }
            }
        }
        return out;
    }

    private static boolean isPolicy(RenderedObject o) {
        return o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY || o.kind() == AdmissionKind.MUTATING_ADMISSION_POLICY;
    }

    /** The counts of one binding while the objects go by. */
    private static final class Tally {
        private final ExistingObjectReview review;
        private final int sampleLimit;
        private final List<BindingImpact.Sample> samples = new ArrayList<>();
        private final List<ObjectVerdict> verdicts;
        private int matched;
        private int deniedUnderDeny;
        private int denied;
        private int warned;
        private int audited;
        private int errors;

        Tally(ExistingObjectReview review, int sampleLimit, boolean keepVerdicts) {
            this.review = review;
            this.sampleLimit = sampleLimit;
            this.verdicts = keepVerdicts ? new ArrayList<>() : null;
        }

        void add(ObjectNode object, ExistingObjectReview.Review r) {
            if (!r.inScope() && r.alwaysDenied().isEmpty()) {
                return;
            }
            List<String> actions = review.actions();
            matched++;
            if (!r.errors().isEmpty()) {
                errors++;
            }
            if (r.deniedUnderDeny()) {
                deniedUnderDeny++;
            }
            boolean fails = r.failsValidation();
            if (!r.alwaysDenied().isEmpty() || fails && actions.contains("Deny")) {
                denied++;
            }
            if (fails && actions.contains("Warn")) {
                warned++;
            }
            if (fails && actions.contains("Audit")) {
                audited++;
            }
            boolean flagged = r.deniedUnderDeny() || !r.errors().isEmpty();
            boolean sampled = flagged && samples.size() < sampleLimit;
            // one sample serves both the bounded list and the verdict (it reads the object's identity and message)
            BindingImpact.Sample s = flagged && (sampled || verdicts != null) ? sample(object, r) : null;
            if (sampled) {
                samples.add(s);
            }
            if (verdicts != null) {
                verdicts.add(ObjectVerdict.of(object, r.operation(), s == null ? ObjectVerdict.PASS : s.outcome(),
                        s == null ? "" : s.message()));
            }
        }

        BindingImpact impact() {
            return new BindingImpact(review.policy().name(), review.binding().name(), review.actions(),
                    review.failClosed(), matched, deniedUnderDeny, denied, warned, audited, errors, samples,
                    verdicts == null ? List.of() : verdicts);
        }
    }

    private static BindingImpact.Sample sample(ObjectNode object, ExistingObjectReview.Review r) {
        if (!r.violations().isEmpty()) {
            return new BindingImpact.Sample(describe(object), r.operation(), "violation", r.violations().get(0));
        }
        if (!r.alwaysDenied().isEmpty()) {
            return new BindingImpact.Sample(describe(object), r.operation(), "denied", r.alwaysDenied().get(0));
        }
        String error = !r.failClosedErrors().isEmpty() ? r.failClosedErrors().get(0) : r.errors().get(0);
        return new BindingImpact.Sample(describe(object), r.operation(), "error", error);
    }

    /** {@code Kind namespace/name}, or {@code Kind name} for a cluster-scoped object. */
    public static String describe(JsonNode object) {
        String ns = object.path("metadata").path("namespace").asText("");
        return object.path("kind").asText("") + " " + (ns.isEmpty() ? "" : ns + "/")
                + object.path("metadata").path("name").asText("");
    }

    /** Namespaces and params from the existing objects (params: only the kinds the policies name). */
    static Fixtures fixtures(List<RenderedObject> configuration, List<ObjectNode> objects) {
        Set<String> paramKinds = new HashSet<>();
        for (RenderedObject o : configuration) {
            JsonNode pk = o.manifest().path("spec").path("paramKind");
            if (isPolicy(o) && pk.isObject()) {
                paramKinds.add(pk.path("apiVersion").asText("") + " " + pk.path("kind").asText(""));
            }
        }
        Map<String, ObjectNode> namespaces = new LinkedHashMap<>();
        List<ObjectNode> params = new ArrayList<>();
        for (ObjectNode o : objects) {
            String apiVersion = o.path("apiVersion").asText("");
            String kind = o.path("kind").asText("");
            if (apiVersion.equals("v1") && kind.equals("Namespace")) {
                namespaces.putIfAbsent(o.path("metadata").path("name").asText(""), o);
            }
            if (paramKinds.contains(apiVersion + " " + kind)) {
                params.add(o);
            }
        }
        return new Fixtures(namespaces, params, null);
    }
}
