/** Parsing and printing YAML documents with their source lines, with limits against hostile input. */
package dev.policyset.aps.core.yaml;
