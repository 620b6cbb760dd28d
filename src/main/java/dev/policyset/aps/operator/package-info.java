/**
 * The operator shell: the JOSDK reconciler and what it needs to act on the cluster (discovery, apply,
 * prune, events, metrics, health, start-up). It gathers inputs, asks {@code core} (read, render, validate,
 * status), and acts on the answer; it holds no admission logic of its own.
 *
 * <p>Invariants: nothing is written before the whole generation validated, passed every server-side dry
 * run and owns every object it touches; deletion happens only after a successful apply (prune) or at the
 * set's deletion; a reconcile that finds nothing to change issues no write request. Not packaged into the
 * CLI jar ({@code target/aps.jar} excludes this package).
 */
package dev.policyset.aps.operator;
