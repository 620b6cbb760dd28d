package dev.policyset.aps.cli;

import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test whose MutatingAdmissionPolicies are written in an API version the target Kubernetes version cannot serve
 * fails every case, as on such a server no request meets them (found by the behaviour suite at 1.35.4: the server
 * could not even be asked); at a version that serves it the same file passes.
 */
class RefusedObjectsNotServedTest {
    private static final Path SUITE = Path.of("src/test/resources/aps-test/mutating-server-semantics/");

    @org.junit.jupiter.api.io.TempDir
    static Path dir;

    /** The semantics suite (bare MutatingAdmissionPolicies in v1) without its kubeVersion pin, at {@code version}. */
    private static List<CaseResult> run(String version) throws java.io.IOException {
        for (Path p : java.nio.file.Files.list(SUITE).toList()) {
            java.nio.file.Files.writeString(dir.resolve(p.getFileName()),
                    java.nio.file.Files.readString(p).replace("kubeVersion: \"1.36\"\n", ""));
        }
        return TestRun.run(List.of(dir), java.io.InputStream.nullInputStream(), KubeVersion.parse(version))
                .files().stream().flatMap(f -> f.cases().stream()).toList();
    }

    @Test
    void mutatingPolicyV1BeforeItsVersionFailsEveryCaseWithTheReason() throws Exception {
        List<CaseResult> at135 = run("1.35");
        assertTrue(!at135.isEmpty());
        for (CaseResult c : at135) {
            assertTrue(!c.passed() && c.differences().get(0).contains("Kubernetes 1.35 does not serve "
                    + "admissionregistration.k8s.io/v1 MutatingAdmissionPolicy (it can serve v1beta1, v1alpha1 with the "
                    + "MutatingAdmissionPolicy feature gate)"), c.toString());
        }
    }

    @Test
    void fromItsVersionTheSameFilePasses() throws Exception {
        List<CaseResult> at136 = run("1.36");
        assertEquals(at136.size(), at136.stream().filter(CaseResult::passed).count(), at136.toString());
    }
}
