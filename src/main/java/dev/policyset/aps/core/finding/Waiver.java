package dev.policyset.aps.core.finding;

/**
 * How a finding was waived, so that a waived finding stays visible with its decision: the severity it had before,
 * the reason given, and where the waiver was written ({@code spec.safety.exemptions[0]}, the object's annotation,
 * {@code .aps.yaml waivers[0]}).
 */
public record Waiver(Severity severity, String reason, String source) {}
