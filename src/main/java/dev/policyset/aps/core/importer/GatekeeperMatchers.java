package dev.policyset.aps.core.importer;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The matchConditions Gatekeeper adds to every generated policy so that a constraint's {@code spec.match}
 * (namespaces, excludedNamespaces, name, kinds) is decided in CEL against the constraint as param. The expressions
 * are Gatekeeper's, character for character apart from indentation ({@code open-policy-agent/gatekeeper:
 * pkg/drivers/k8scel/transform/cel_snippets.go}: {@code matchExcludedNamespacesGlob}, {@code matchNamespacesGlob},
 * {@code matchNameGlob}, {@code matchKinds}; order as {@code AllMatchersV1Beta1}), so the imported policy decides as
 * Gatekeeper's own generated one.
 */
final class GatekeeperMatchers {
    private GatekeeperMatchers() {}

    static Map<String, String> all() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("gatekeeper_internal_match_excluded_namespaces", """
                !has(params.spec) ? true: (
                  !has(params.spec.match) ? true: (
                    !has(params.spec.match.excludedNamespaces) ? true : (
                      [object, oldObject].exists(obj,
                        obj != null && (
                          // cluster-scoped objects always match
                          !has(obj.metadata.namespace) || obj.metadata.namespace == "" ? true : (
                            !params.spec.match.excludedNamespaces.exists(nsMatcher,
                              (string(obj.metadata.namespace).matches("^" + string(nsMatcher).replace("*", ".*") + "$"))
                            )
                          )
                        )
                      )
                    )
                  )
                )
                """);
        m.put("gatekeeper_internal_match_namespaces", """
                !has(params.spec) ? true: (
                  !has(params.spec.match) ? true: (
                    !has(params.spec.match.namespaces) ? true : (
                      [object, oldObject].exists(obj,
                        obj != null && (
                          // cluster-scoped objects always match
                          !has(obj.metadata.namespace) || obj.metadata.namespace == "" ? true : (
                            params.spec.match.namespaces.exists(nsMatcher,
                              (string(obj.metadata.namespace).matches("^" + string(nsMatcher).replace("*", ".*") + "$"))
                            )
                          )
                        )
                      )
                    )
                  )
                )
                """);
        m.put("gatekeeper_internal_match_name", """
                !has(params.spec) ? true: (
                  !has(params.spec.match) ? true: (
                    !has(params.spec.match.name) ? true : (
                      [object, oldObject].exists(obj,
                        obj != null && (
                          (has(obj.metadata.generateName) && obj.metadata.generateName != "" && params.spec.match.name.endsWith("*") && string(obj.metadata.generateName).matches("^" + string(params.spec.match.name).replace("*", ".*") + "$")) ||
                          (has(obj.metadata.name) && string(obj.metadata.name).matches("^" + string(params.spec.match.name).replace("*", ".*") + "$"))
                        )
                      )
                    )
                  )
                )
                """);
        m.put("gatekeeper_internal_match_kinds", """
                !has(params.spec) ? true: (
                  !has(params.spec.match) ? true: (
                    !has(params.spec.match.kinds) ? true : (
                      params.spec.match.kinds.exists(groupskinds,
                        (!has(groupskinds.kinds) || size(groupskinds.kinds) == 0 || "*" in groupskinds.kinds || request.kind.kind in groupskinds.kinds) &&
                        (!has(groupskinds.apiGroups) || size(groupskinds.apiGroups) == 0 || "*" in groupskinds.apiGroups || request.kind.group in groupskinds.apiGroups)
                      )
                    )
                  )
                )
                """);
        return m;
    }
}
