/**
 * The Kubernetes CEL function libraries (k8s.io/apiserver/pkg/cel/library) written on cel-java.
 * Pure Java: no Quarkus, no Kubernetes client, no clock or environment reads.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every overload declared for the checker is bound for the runtime under the same overload id
 *       ({@code AbstractKubeLibrary.add}); declarations and ids follow upstream.</li>
 *   <li>Messages are upstream's (Go {@code net/url}, {@code net/netip}, {@code resource.Quantity},
 *       blang/semver, apimachinery validation), because users compare them with the API server's.</li>
 *   <li>A checked AST goes through {@link dev.policyset.aps.core.cel.lib.KubernetesLibraries#prepareProgram}
 *       before {@code createProgram}: it reproduces cel-go's program-creation checks (constant regex) and pins
 *       element-typed list overloads for {@code dyn} receivers the way cel-go dispatches them.</li>
 *   <li>Library values (Quantity, IpAddress, Cidr, Semver, NamedFormat, URL) are immutable cel-java
 *       {@code OpaqueValue}s with value equality as upstream defines {@code ==}.</li>
 * </ul>
 */
package dev.policyset.aps.core.cel.lib;
