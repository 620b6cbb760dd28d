/**
 * Judging a set before anything is applied: the API-server rules ({@code .apiserver}), CEL compile and type
 * checks of every expression ({@code .typecheck}, through {@code core.cel}) and the safety rules
 * ({@code .safety}), each giving {@code core.finding} findings.
 *
 * <p>Floor: it stands on {@code core.cel}, {@code core.finding}, {@code core.util}, {@code core.model},
 * {@code core.render}, {@code core.schema}, {@code core.intercept} and {@code core.chain}; it runs no expression
 * against a request (that is {@code core.evaluate}), and nothing below it imports it ({@code LayeringTest}).
 */
package dev.policyset.aps.core.validate;
