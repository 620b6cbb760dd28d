package dev.policyset.aps.core.cel;

import dev.cel.common.types.SimpleType;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The prebuilt checker environment answers exactly what cel-java's own {@code check()} answers. */
class PrebuiltCheckerEnvTest {
    private static final List<String> EXPRESSIONS = List.of(
            "object.spec.replicas <= params.max",
            "request.userInfo.username.startsWith('system:')",
            "request.userInfo.usename == 'x'",
            "namespaceObject.metadata.UID != ''",
            "undefinedVar == 1",
            "1 + 'a'",
            "[1, 2].all(x, x > 0) && {'a': 1}.exists(k, v, v > 0)",
            "object.spec.containers.map(c, c.image).exists(i, i.matches('^x'))",
            "quantity('1Gi').isGreaterThan(quantity('1Mi')) && ip('10.0.0.1').family() == 4",
            "authorizer.group('apps').resource('deployments').check('create').allowed()",
            "variables.n + 1 > 2",
            "variables.s + 1",
            "'%s'.format([1])",
            "lists.range(3).sort() == [0, 1, 2]",
            "object.?spec.orValue({}) == {}",
            "has(object.spec) ? object.spec.x : 'none'",
            "int('1') == 1u");

    @AfterEach
    void restore() {
        KubernetesCelEnvironment.usePrebuiltChecker(true);
        KubernetesCelEnvironment.clearCaches();
    }

    private static List<String> outcomes(KubeVersion version, KubernetesCelEnvironment.Declarations declarations) {
        KubernetesCelEnvironment.clearCaches();
        KubernetesCelEnvironment env = KubernetesCelEnvironment.create(version, declarations);
        List<String> out = new ArrayList<>();
        for (String e : EXPRESSIONS) {
            KubernetesCelEnvironment.Compiled c = env.compile(e);
            out.add(e + " -> " + (c.ok() ? "ok: " + KubeCelTypes.format(c.resultType()) : c.error()));
        }
        return out;
    }

    @Test
    void sameAnswersAsCelJavasOwnCheck() {
        var declarations = new KubernetesCelEnvironment.Declarations(true, true, false,
                Map.of("n", SimpleType.INT, "s", SimpleType.STRING));
        for (int minor : new int[]{30, 33, 36}) {
            KubeVersion version = new KubeVersion(1, minor);
            KubernetesCelEnvironment.usePrebuiltChecker(true);
            KubernetesCelEnvironment.clearCaches();
            assertTrue(KubernetesCelEnvironment.create(version, declarations).usesPrebuiltChecker());
            List<String> prebuilt = outcomes(version, declarations);
            KubernetesCelEnvironment.usePrebuiltChecker(false);
            KubernetesCelEnvironment.clearCaches();
            assertFalse(KubernetesCelEnvironment.create(version, declarations).usesPrebuiltChecker());
            List<String> stock = outcomes(version, declarations);
            assertEquals(stock, prebuilt, "1." + minor);
        }
    }
}
