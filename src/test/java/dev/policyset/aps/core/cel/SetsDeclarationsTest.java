package dev.policyset.aps.core.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.extensions.CelExtensions;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker's own sets declarations are cel-java's, so the compile-time environment does not change. */
class SetsDeclarationsTest {
    @Test
    void theDeclarationsAreCelJavas() {
        List<String> celJava = CelExtensions.sets(KubernetesCelEnvironment.options(KubeVersion.parse("1.36")))
                .functions().stream().sorted(Comparator.comparing(CelFunctionDecl::name))
                .map(SetsDeclarationsTest::signature).toList();
        List<String> ours = SetsDeclarations.FUNCTIONS.stream().map(SetsDeclarationsTest::signature).toList();
        assertEquals(celJava, ours);
    }

    @Test
    void setsFunctionsCheckAsTheyDidAndOnlyFromTheirVersion() {
        KubernetesCelEnvironment env = KubernetesCelEnvironment.create(KubeVersion.parse("1.36"),
                KubernetesCelEnvironment.Declarations.validation());
        assertTrue(env.compile("sets.contains([1, 2], [1]) && sets.intersects(['a'], ['a', 'b'])"
                + " && sets.equivalent([true], [true])").ok());
        KubernetesCelEnvironment.Compiled mixed = env.compile("sets.contains([1, 2], ['a'])");
        assertFalse(mixed.ok());
        assertTrue(mixed.error().contains("found no matching overload for 'sets.contains'"), mixed.error());
        assertFalse(KubernetesCelEnvironment.create(KubeVersion.parse("1.28"),
                KubernetesCelEnvironment.Declarations.validation()).compile("sets.contains([1], [1])").ok());
    }

    private static String signature(CelFunctionDecl f) {
        StringBuilder s = new StringBuilder(f.name());
        for (CelOverloadDecl o : f.overloads()) {
            s.append(' ').append(o.overloadId()).append(o.isInstanceFunction() ? " member " : " global ")
                    .append(o.parameterTypes()).append(" -> ").append(o.resultType());
        }
        return s.toString();
    }
}
