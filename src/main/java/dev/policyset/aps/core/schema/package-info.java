/**
 * OpenAPI v3 structural schemas of the resources an admission policy can match, and where they come from:
 * the built-in kinds ({@link dev.policyset.aps.core.schema.BuiltinSchemas}, from the fabric8 model classes' definitions
 * that the build writes into a resource; {@link dev.policyset.aps.core.schema.ModelReflection} is the one class that
 * loads the model classes), CRD manifests ({@link dev.policyset.aps.core.schema.CrdSchemas}, every served version) and a
 * cluster's {@code /openapi/v3} documents ({@link dev.policyset.aps.core.schema.OpenApiDocuments}, which the
 * operator fetches). Pure: nothing here reads files, the network or the environment (only class-path resources); callers hand in parsed
 * JSON. The CEL type checker ({@code core.validate.typecheck}) and the structured merge of custom resources read
 * these schemas.
 */
package dev.policyset.aps.core.schema;
