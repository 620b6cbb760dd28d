/**
 * Small helpers shared by several rooms: the API server's name grammar ({@link
 * dev.policyset.aps.core.util.NameFormats}: the API-server rules, the CEL {@code format} and {@code authz}
 * libraries, the renderer, the review checks), bounded caches ({@link dev.policyset.aps.core.util.BoundedMaps}:
 * the CEL environment, the cost and type-check rules) and the "did you mean" hint for a misspelt field ({@link
 * dev.policyset.aps.core.util.NearestName}: the set reader and the API-server decoding rules).
 *
 * <p>Floor: JDK only, no project imports. A helper used by one room lives in that room, not here.
 */
package dev.policyset.aps.core.util;
