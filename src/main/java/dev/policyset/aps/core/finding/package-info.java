/**
 * A foundation room: findings ({@link dev.policyset.aps.core.finding.Finding}, {@link
 * dev.policyset.aps.core.finding.Severity}) and the catalogue of rule IDs ({@link
 * dev.policyset.aps.core.finding.RuleCatalog}) that model, render, validate, plan, status and both shells stand on.
 *
 * <p>Floor: it imports nothing of the project (JDK only), so every room may use it and it can never point back up.
 * Which rule makes a finding, and how a finding is attributed to the object it is about, belongs to the rooms that
 * judge ({@code core.validate}: {@code AttributedFinding}, {@code SubjectAttribution}, which need its subjects).
 */
package dev.policyset.aps.core.finding;
