/**
 * Set → native objects, pure and deterministic. {@link dev.policyset.aps.core.render.Names} is the only place a
 * name is made; defaults fill only what a member leaves out.
 */
package dev.policyset.aps.core.render;
