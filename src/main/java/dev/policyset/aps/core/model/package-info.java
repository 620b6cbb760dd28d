/** The policy set as the core reads it: immutable records, native specs kept verbatim as JSON trees. */
package dev.policyset.aps.core.model;
