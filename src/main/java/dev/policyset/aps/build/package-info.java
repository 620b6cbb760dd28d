/**
 * Generators the build runs over the compiled classes ({@code process-classes}) to write resources into
 * {@code target/classes}: what is derived from the dependencies once, at build time, instead of at every start.
 * A top-floor room: it may use core, and nothing uses it.
 */
package dev.policyset.aps.build;
