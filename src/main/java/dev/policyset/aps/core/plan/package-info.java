/**
 * Plan: the pure decision of one reconcile. {@link dev.policyset.aps.core.plan.Planner} takes a set and a
 * {@link dev.policyset.aps.core.model.ClusterView} (what the cluster holds) and answers with a
 * {@link dev.policyset.aps.core.plan.Plan}: outcome, findings, writes, removals, one row per object, the status
 * and events that follow. The operator gathers the view from its caches, dry-runs and applies the plan, and
 * writes the status; it builds no finding and judges nothing itself.
 *
 * <p>Invariants: no clock, no cluster, no memory between calls (time is passed to {@code Plan.status}); the
 * last good generation is read from {@code status.lastApplied}. Tested by golden cases under
 * {@code src/test/resources/golden/plan/}.
 */
package dev.policyset.aps.core.plan;
