package dev.policyset.aps.core.model;

/** A waiver of one safety rule for one generated object ({@code Kind/name}), with the reason shown in status. */
public record Exemption(String rule, String object, String reason) {
}
