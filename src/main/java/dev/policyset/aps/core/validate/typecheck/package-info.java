/**
 * Schema-aware type checking of admission policy expressions (APS602) and the runtime-error lint (APS603):
 * {@code object}/{@code oldObject}/{@code params} declared with CEL types built from {@code core.schema} schemas
 * ({@link dev.policyset.aps.core.validate.typecheck.SchemaCelTypes}) for every kind a policy matches
 * ({@link dev.policyset.aps.core.validate.typecheck.MatchedKinds}), compiled once per kind
 * ({@link dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck}). Where upstream's checker reports an expression
 * that works at run time (branches another kind takes, nominal object types over structural data), the deviation is
 * written down at the class that makes it. Pure, like the rest of core; results are cached per manifest and schema
 * source, types per schema.
 */
package dev.policyset.aps.core.validate.typecheck;
