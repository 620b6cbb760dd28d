/**
 * The operator's own safety rules (DESIGN §4): one small class per stable rule ID, each seeing the whole input
 * ({@link dev.policyset.aps.core.validate.safety.SafetyContext}) and reporting every occurrence. Rules read the
 * rendered JSON leniently (a value of the wrong type is skipped; the API-server rules report it) and never
 * throw on bad input. Rules that ask what a webhook or policy intercepts ask the interception model
 * ({@link dev.policyset.aps.core.intercept}) instead of reading match fields themselves. A finding's severity is a
 * promise (docs/rules.md): error only where the configuration can cause the failure the rule names. Pure: no
 * cluster, no clock. IDs are never renumbered; each is documented in docs/rules.md.
 */
package dev.policyset.aps.core.validate.safety;
