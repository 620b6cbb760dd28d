/**
 * The benchmarks ({@code aps-bench validate | impact | parse}), kept out of the user-facing {@code aps} command
 * list: a separate entry point in the same jar ({@link dev.policyset.aps.cli.bench.Benchmarks}).
 *
 * <p>It may use {@code cli} (how the CLI reads input) and {@code core}; nothing in {@code cli} or {@code core}
 * imports it.
 */
package dev.policyset.aps.cli.bench;
