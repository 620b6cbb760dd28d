/**
 * The {@code aps} command line: picocli verbs over {@code core}, printers and exit codes. Packaged into
 * {@code target/aps.jar} without Quarkus; must not import {@code operator}, Quarkus or a Kubernetes client.
 */
package dev.policyset.aps.cli;
