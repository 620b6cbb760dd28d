package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.api.v1alpha1.LastAppliedStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import dev.policyset.aps.core.model.PolicySet;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.core.status.Conditions;
import dev.policyset.aps.core.status.Outcome;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationReport;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one judge of a reconcile, pure: (set, what the cluster holds) → {@link Plan}. It reads, renders and
 * validates the set (ownership APS403 and the server's type check APS601 are rules beside the others), then
 * decides: a blocked generation writes nothing of its own and only restores the last good generation's objects
 * that drifted; a good one writes what is absent or differs, and prunes what it no longer renders.
 *
 * <p>Invariants: nothing foreign is ever written or deleted (objects without this set's label); deletions only
 * in an APPLIED plan; the plan depends on its inputs only (no clock, no cluster, no memory between calls), so the
 * last good generation comes from {@code status.lastApplied} and survives restarts.
 */
public final class Planner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OWNERSHIP_RULE = "APS403";

    private final CelChecker cel;
    private final int maxRepairs;
    private final boolean paramInformerAnchors;

    public Planner(CelChecker cel) {
        this(cel, RepairGuard.DEFAULT_MAX_REPAIRS);
    }

    /** @param maxRepairs forced drift repairs of one object per generation before the contested-field guard (APS405) */
    public Planner(CelChecker cel, int maxRepairs) {
        this(cel, maxRepairs, true);
    }

    /**
     * @param paramInformerAnchors whether an applied plan also writes the {@link ParamInformerAnchorWrites anchors}
     *                             its built-in paramKinds need (aps.param-informer-anchors.enabled)
     */
    public Planner(CelChecker cel, int maxRepairs, boolean paramInformerAnchors) {
        this.cel = cel;
        this.maxRepairs = Math.max(1, maxRepairs);
        this.paramInformerAnchors = paramInformerAnchors;
    }

    public Plan plan(PlanInput in, ClusterView cluster) {
        AdmissionPolicySetStatus previous = in.previous();
        if (in.paused()) {
            return new Plan(in.generation(), Outcome.PAUSED, "", List.of(), List.of(), List.of(), List.of(),
                    lastApplied(previous), previous);
        }
        List<Finding> findings = new ArrayList<>();
        PolicySetReader.Result read = PolicySetReader.readStored(in.set());
        findings.addAll(read.findings());
        if (read.set().isEmpty()) {
            return blocked(in, cluster, Outcome.VALIDATION_FAILED, "the set itself is invalid: " + firstError(findings),
                    findings, List.of());
        }
        PolicySet set = read.set().get();
        if (!set.mutatingPolicies().isEmpty() && cluster.mutatingPolicyVersion().isEmpty()) {
            findings.add(Finding.error("api/NotSupported", AdmissionPolicySet.KIND + "/" + in.name(),
                    "spec.mutatingPolicies", MutatingPolicyVersions.notServedMessage()));
            return blocked(in, cluster, Outcome.MUTATING_POLICY_NOT_SERVED, "", findings, List.of());
        }
        List<RenderedObject> rendered = render(set, cluster);
        List<ValidationSubject> subjects = rendered.stream()
                .map(o -> new ValidationSubject(o, set.name(), set.safety())).toList();
        ValidationReport report = new Validator(ValidationOptions.against(cluster), cel).validate(subjects);
        findings.addAll(report.findings());

        List<String> foreign = report.findings().stream()
                .filter(f -> f.isError() && OWNERSHIP_RULE.equals(f.rule())).map(Finding::object).distinct().toList();
        List<Finding> otherErrors = report.findings().stream()
                .filter(f -> f.isError() && !OWNERSHIP_RULE.equals(f.rule())).toList();
        if (!otherErrors.isEmpty()) {
            return blocked(in, cluster, Outcome.VALIDATION_FAILED, otherErrors.size()
                            + " error finding(s) block the apply; first: " + firstError(otherErrors), findings,
                    rows(rendered, foreign, "not applied: the set has error findings"));
        }
        if (!foreign.isEmpty()) {
            return blocked(in, cluster, Outcome.OWNERSHIP_CONFLICT, "nothing applied: " + foreign
                    + " exist(s) and belong(s) to someone else (" + OWNERSHIP_RULE + ")", findings,
                    rows(rendered, foreign, "not applied"));
        }
        // the last finished impact scan (the operator scans off the reconcile and writes it into status.impact)
        ImpactStatus impact = in.previous() == null ? null : in.previous().getImpact();
        List<String> held = null;
        List<RenderedObject> toApply = rendered;
        if (DenyGate.requested(in.set().path("spec"))) {
            DenyGate.Result gated = DenyGate.apply(rendered, in.name(), cluster, impact);
            toApply = gated.objects();
            held = gated.held();
        }
        List<Write> anchors = paramInformerAnchors ? ParamInformerAnchorWrites.needed(toApply, cluster) : List.of();
        return applied(in, cluster, set, toApply, anchors, findings, held, maxRepairs, rendered);
    }

    /**
     * The plan once the server's checks are known (dry runs, and the first write's own apply). A refused write of
     * a generation blocks the whole generation (all or nothing: nothing is written, the refusal becomes findings);
     * a refused restore of the last good generation leaves the objects as they are and says so.
     */
    public static Plan afterDryRun(Plan plan, List<DryRunRejection> rejections) {
        if (rejections.isEmpty()) {
            return plan;
        }
        Map<String, String> refused = new LinkedHashMap<>();
        List<Finding> findings = new ArrayList<>(plan.findings());
        for (DryRunRejection r : rejections) {
            List<Finding> found = r.findings();
            findings.addAll(found);
            refused.putIfAbsent(r.objectId(), found.get(0).message());
        }
        String first = refused.values().iterator().next();
        if (plan.outcome() != Outcome.APPLIED) {
            String note = "the last good objects were not restored: the API server rejected " + refused.keySet() + ": " + first;
            return plan.withoutWrites(plan.detail().isEmpty() ? note : plan.detail() + "; " + note);
        }
        List<ObjectResult> rows = plan.objects().stream().map(o -> refused.containsKey(o.id())
                ? o.with(ObjectState.REJECTED, refused.get(o.id()))
                : o.with(ObjectState.PENDING, "not applied: another object was rejected")).toList();
        return new Plan(plan.generation(), Outcome.DRY_RUN_REJECTED, "nothing applied: the API server rejected "
                + refused.keySet() + ": " + first, findings, List.of(), List.of(), rows, lastApplied(plan.previous()),
                plan.previous());
    }

    /** The set is being deleted: what happens to every object that carries its label (paused or not). */
    public static Release release(PlanInput in, ClusterView cluster) {
        boolean orphan = "Orphan".equals(in.set().path("spec").path("deletionPolicy").asText(""));
        return new Release(orphan, inRemovalOrder(cluster.labelled(in.name()).stream()));
    }

    // ------------------------------------------------------------------------------------------------ applied

    /** @param anchors written first: before the set's bindings can make the server start a param informer */
    private static Plan applied(PlanInput in, ClusterView cluster, PolicySet set, List<RenderedObject> rendered,
                                List<Write> anchors, List<Finding> findings, List<String> held, int maxRepairs,
                                List<RenderedObject> scanned) {
        boolean appliedBefore = appliedAtThisGeneration(in);
        List<Write> writes = new ArrayList<>(anchors);
        List<ObjectResult> rows = new ArrayList<>();
        for (RenderedObject o : rendered) {
            ObjectNode desired = desired(o, in);
            Optional<LiveObject> live = cluster.find(o.kind(), o.name());
            String message = "";
            // repairs count per generation: a new generation starts from zero (its update is forced)
            int repairs = appliedBefore ? previousRepairs(in.previous(), o) : 0;
            if (live.isEmpty() || !inSync(desired, live.get(), in.uid())) {
                // At a generation already applied in full, a missing or different object is drift.
                Write.Action action = appliedBefore ? RepairGuard.nextRepair(repairs, maxRepairs)
                        : live.isEmpty() ? Write.Action.CREATE : Write.Action.UPDATE;
                writes.add(new Write(o.kind(), o.apiVersion(), o.name(), desired, action));
                if (action == Write.Action.REPAIR) {
                    repairs++;
                    message = RepairGuard.repairMessage(repairs, maxRepairs, in.generation(),
                            live.map(l -> ManagedFieldOwners.others(l, desired)).orElse(Map.of()));
                } else if (action == Write.Action.CONTESTED_REPAIR) {
                    message = RepairGuard.unforcedMessage(repairs, in.generation());
                }
            } else {
                message = previousMessage(in.previous(), o).orElse("");
            }
            rows.add(new ObjectResult(o.apiVersion(), o.kind(), o.name(), ObjectState.APPLIED, message, repairs));
        }
        List<Removal> removals = set.prune() ? removals(in.name(), cluster, rendered) : List.of();
        LastAppliedStatus last = new LastAppliedStatus(in.generation(), in.set().path("spec").toString());
        return new Plan(in.generation(), Outcome.APPLIED, "", findings, writes, removals, rows, last, in.previous(),
                null, held, scanned);
    }

    /** Objects labelled for the set that it no longer renders: bindings before policies, webhooks first. */
    private static List<Removal> removals(String setName, ClusterView cluster, List<RenderedObject> rendered) {
        Set<String> keep = new HashSet<>();
        rendered.forEach(o -> keep.add(o.id()));
        return inRemovalOrder(cluster.labelled(setName).stream().filter(l -> !keep.contains(l.id())));
    }

    /** Webhook configurations, then bindings before their policies (apply order reversed), then by name. */
    private static List<Removal> inRemovalOrder(java.util.stream.Stream<LiveObject> objects) {
        return objects.sorted(Comparator.comparing((LiveObject l) -> -l.kind().ordinal()).thenComparing(LiveObject::name))
                .map(l -> new Removal(l.kind(), l.name())).toList();
    }

    // ------------------------------------------------------------------------------------------------ blocked

    /** A blocked generation: its own objects wait; drifted objects of the last good generation are restored. */
    private static Plan blocked(PlanInput in, ClusterView cluster, Outcome outcome, String detail, List<Finding> findings,
                                List<ObjectResult> rows) {
        return new Plan(in.generation(), outcome, detail, findings, restores(in, cluster), List.of(), rows,
                lastApplied(in.previous()), in.previous());
    }

    /**
     * The last good generation's objects that are absent or differ and are still the set's (or nobody's):
     * re-rendered from {@code status.lastApplied.spec}. Kinds the cluster no longer serves are left out.
     */
    private static List<Write> restores(PlanInput in, ClusterView cluster) {
        LastAppliedStatus last = lastApplied(in.previous());
        if (last == null || last.getSpec() == null || last.getSpec().isEmpty()) {
            return List.of();
        }
        ObjectNode document = JSON.createObjectNode();
        document.put("apiVersion", AdmissionPolicySet.API_VERSION).put("kind", AdmissionPolicySet.KIND);
        document.putObject("metadata").put("name", in.name());
        try {
            document.set("spec", JSON.readTree(last.getSpec()));
        } catch (java.io.IOException e) {
            return List.of(); // not written by this operator; nothing trustworthy to restore
        }
        Optional<PolicySet> set = PolicySetReader.readStored(document).set();
        if (set.isEmpty()) {
            return List.of();
        }
        List<Write> writes = new ArrayList<>();
        List<RenderedObject> lastGood = render(set.get(), cluster);
        if (DenyGate.requested(document.path("spec"))) {
            // the last good generation was applied through the gate: restore what it applied, not what it asked
            lastGood = DenyGate.apply(lastGood, in.name(), cluster, in.previous() == null ? null : in.previous().getImpact())
                    .objects();
        }
        for (RenderedObject o : lastGood) {
            if (o.kind().isMutatingPolicyKind() && cluster.mutatingPolicyVersion().isEmpty()) {
                continue;
            }
            ObjectNode desired = desired(o, in);
            Optional<LiveObject> live = cluster.find(o.kind(), o.name());
            if (live.isPresent() && !live.get().isLabelledFor(in.name())) {
                continue;
            }
            if (live.isEmpty() || !inSync(desired, live.get(), in.uid())) {
                writes.add(new Write(o.kind(), o.apiVersion(), o.name(), desired, Write.Action.RESTORE));
            }
        }
        return writes;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static List<RenderedObject> render(PolicySet set, ClusterView cluster) {
        RenderOptions options = cluster.mutatingPolicyVersion().map(RenderOptions::new)
                .orElseGet(() -> RenderOptions.forKubeVersion(cluster.kubeVersion()));
        return Renderer.render(set, options);
    }

    /** The rendered object with the set's controller owner reference (for garbage collection and drift). */
    static ObjectNode desired(RenderedObject o, PlanInput in) {
        ObjectNode manifest = o.manifest().deepCopy();
        ObjectNode ref = manifest.with("metadata").putArray("ownerReferences").addObject();
        ref.put("apiVersion", AdmissionPolicySet.API_VERSION);
        ref.put("kind", AdmissionPolicySet.KIND);
        ref.put("name", in.name());
        ref.put("uid", in.uid());
        ref.put("controller", true);
        return manifest;
    }

    /** The live object names the set as an owner and carries every rendered field. */
    static boolean inSync(ObjectNode desired, LiveObject live, String uid) {
        if (!live.isOwnedBy(uid)) {
            return false;
        }
        ObjectNode withoutRefs = desired.deepCopy();
        ((ObjectNode) withoutRefs.get("metadata")).remove("ownerReferences");
        return live.carries(withoutRefs);
    }

    private static List<ObjectResult> rows(List<RenderedObject> rendered, List<String> foreign, String pending) {
        return rendered.stream().map(o -> foreign.contains(o.id())
                ? new ObjectResult(o.apiVersion(), o.kind(), o.name(), ObjectState.CONFLICT, "exists and is not owned by this set")
                : new ObjectResult(o.apiVersion(), o.kind(), o.name(), ObjectState.PENDING, pending)).toList();
    }

    /** The stored status says this generation was applied in full: a difference now is drift, not an update. */
    private static boolean appliedAtThisGeneration(PlanInput in) {
        AdmissionPolicySetStatus s = in.previous();
        return s != null && Objects.equals(s.getObservedGeneration(), in.generation()) && s.getConditions() != null
                && s.getConditions().stream().anyMatch(c -> Conditions.APPLIED.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The repairs the previous status counted for the object (the caller knows it describes this generation). */
    private static int previousRepairs(AdmissionPolicySetStatus previous, RenderedObject o) {
        if (previous == null || previous.getResources() == null) {
            return 0;
        }
        return previous.getResources().stream()
                .filter(r -> o.kind().kind().equals(r.getKind()) && o.name().equals(r.getName()))
                .map(ResourceStatus::getRepairs).filter(Objects::nonNull).findFirst().orElse(0);
    }

    private static Optional<String> previousMessage(AdmissionPolicySetStatus previous, RenderedObject o) {
        if (previous == null || previous.getResources() == null) {
            return Optional.empty();
        }
        return previous.getResources().stream()
                .filter(r -> o.kind().kind().equals(r.getKind()) && o.name().equals(r.getName())
                        && o.apiVersion().equals(r.getApiVersion()) && ObjectState.APPLIED.label().equals(r.getState()))
                .map(ResourceStatus::getMessage).filter(Objects::nonNull).findFirst();
    }

    private static LastAppliedStatus lastApplied(AdmissionPolicySetStatus previous) {
        return previous == null ? null : previous.getLastApplied();
    }

    private static String firstError(List<Finding> findings) {
        return findings.stream().filter(Finding::isError).sorted(Finding.ORDER).findFirst()
                .map(f -> f.rule() + " " + f.object() + (f.field().isEmpty() ? "" : " " + f.field()) + ": " + f.message())
                .orElse("");
    }

}
