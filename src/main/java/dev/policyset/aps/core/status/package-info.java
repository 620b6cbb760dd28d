/**
 * Status from outcome: one pure calculator that turns what a reconcile found and did into the set's
 * {@code status} (conditions, findings, resources). Time is passed in; nothing here reads a clock, the
 * cluster or the environment, so every transition is unit-tested without a cluster.
 *
 * <p>Invariants: {@code lastTransitionTime} moves only when a condition's {@code status} flips; every
 * condition carries the {@code observedGeneration} it describes; the same inputs give an equal status, so
 * the operator can compare and skip the write (a no-op resync issues no request).
 */
package dev.policyset.aps.core.status;
