/**
 * The Kubernetes CEL function libraries (k8s.io/apiserver/pkg/cel/library) written on cel-java.
 * Pure Java: no Quarkus, no Kubernetes client.
 */
package dev.policyset.aps.core.validate.cel.lib;
