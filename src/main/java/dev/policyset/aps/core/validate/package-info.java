/** Findings: API-server rules, the Kubernetes CEL environment and the safety rules. */
package dev.policyset.aps.core.validate;
