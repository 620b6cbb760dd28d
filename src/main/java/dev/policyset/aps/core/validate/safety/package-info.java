/**
 * The operator's own safety rules (DESIGN §4): one small class per stable rule ID, each seeing the whole input
 * ({@link dev.policyset.aps.core.validate.safety.SafetyContext}) and reporting every occurrence. Rules read the
 * rendered JSON leniently (a value of the wrong type is skipped; the API-server rules report it) and never
 * throw on bad input. Pure: no cluster, no clock. IDs are never renumbered; each is documented in docs/rules.md.
 */
package dev.policyset.aps.core.validate.safety;
