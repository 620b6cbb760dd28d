package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * config/rbac is the reviewed source of the operator's permissions; QOSDK derives RBAC from the code
 * ({@code @RBACRule}s and the reconciler's primary resource) into target/kubernetes/kubernetes.yml at package.
 * Every grant the code asks for must be in config/rbac, or the operator fails with 403 in a real cluster.
 * The one deliberate narrowing: QOSDK grants every verb on the primary resource and its subresources; the
 * operator never creates or deletes AdmissionPolicySets, so config/rbac does not grant that.
 */
class RbacInSyncIT {
    static final String GROUP = "admission.policyset.dev";

    @Test
    void configRbacCoversWhatTheCodeAsksFor() throws Exception {
        Path root = ProjectFiles.root();
        Path generated = root.resolve("target/kubernetes/kubernetes.yml");
        assertTrue(Files.isRegularFile(generated), generated + " is missing: run `mvn package`");
        Set<String> asked = new TreeSet<>();
        Set<String> boundRoles = new HashSet<>();
        List<JsonNode> objects = ProjectFiles.readAll(generated);
        for (JsonNode o : objects) {
            if (o.path("kind").asText().endsWith("RoleBinding")) {
                boundRoles.add(o.path("roleRef").path("kind").asText() + "/" + o.path("roleRef").path("name").asText());
            }
        }
        for (JsonNode o : objects) {
            String kind = o.path("kind").asText();
            if ((kind.equals("ClusterRole") || kind.equals("Role"))
                    && boundRoles.contains(kind + "/" + o.path("metadata").path("name").asText())) {
                asked.addAll(InstallManifestsTest.grants(o.path("rules")));
            }
        }
        Set<String> granted = new TreeSet<>(InstallManifestsTest.grants(
                ProjectFiles.operatorClusterRole(root).path("rules")));
        granted.addAll(InstallManifestsTest.grants(ProjectFiles.find(root.resolve("config/rbac"), "Role").path("rules")));

        Set<String> missing = new TreeSet<>(asked);
        missing.removeAll(granted);
        missing.removeIf(g -> g.startsWith(GROUP + "/admissionpolicysets") && (g.endsWith(":create") || g.endsWith(":delete")
                || (!g.startsWith(GROUP + "/admissionpolicysets:") && (g.endsWith(":list") || g.endsWith(":watch")))
                || (g.startsWith(GROUP + "/admissionpolicysets/finalizers:") && !g.endsWith(":update"))));
        assertEquals(Set.of(), missing, "the code asks for grants config/rbac does not give: review them, add them to "
                + "config/rbac/role.yaml (and InstallManifestsTest.EXPECTED_CLUSTER_GRANTS), explain them in "
                + "docs/install.md, then `make bundle`");

        Set<String> unused = new TreeSet<>(granted);
        unused.removeAll(asked);
        if (!unused.isEmpty()) {
            // Not a failure: leader election (leases) and some grants are not declared through @RBACRule.
            System.out.println("config/rbac grants that no @RBACRule declares: " + unused);
        }
    }
}
