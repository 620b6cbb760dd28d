package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.evaluate.PolicyExpressions;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The CEL differential suite's probe expressions ({@link CelServerProbe#tag}, {@link CelServerProbe#render}),
 * evaluated offline: the rendering the server's messageExpression produces must be what
 * {@link CelDifferentialRealServerTest#rendered} makes of our own value, or every case would diverge for the
 * harness's sake.
 */
class CelServerProbeTest {
    private static final KubeVersion COMPAT = new KubeVersion(1, 33);

    @ParameterizedTest
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', value = {
            "1 + 2 => aps|int|3|",
            "5u => aps|uint|5|",
            "0.5 + 0.25 => aps|double|0.75|",
            "'a\\nb\\\\c' => aps|string|a\\nb\\\\c|",
            "1 == 1 => aps|bool|true|",
            "null => aps|null||",
            "[1, 2] => aps|list|eq|",
            "{'a': 1} => aps|map|ne|",
            "b'x' => aps|bytes||",
            "duration('1s') => aps|other||"})
    void renderShowsTheValue(String expression, String rendered) {
        Object expected = expression.startsWith("[") ? List.of(1, 2) : expression.startsWith("{") ? Map.of("a", 2) : null;
        CelServerProbe.Probe p = new CelServerProbe.Probe("x", expression, false, Map.of(), expected != null, expected, false);
        String render = CelServerProbe.render("(" + expression + ")", p);
        CelEvaluator.Result r = PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, COMPAT,
                ExpressionKind.MESSAGE_EXPRESSION, render, CelEvaluator.Activation.empty());
        assertNull(r.compileError(), render);
        assertNull(r.error(), render);
        assertEquals(rendered, r.value());
    }

    @Test
    void theProbeValidationFailsForEveryValueAndErrsWithTheExpression() {
        for (String e : List.of("1", "'a'", "true", "false", "[1]", "null")) {
            CelEvaluator.Result r = PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, COMPAT,
                    ExpressionKind.VALIDATION, CelServerProbe.tag("(" + e + ")") + " == 'aps-never'", CelEvaluator.Activation.empty());
            assertEquals(false, r.value(), e);
        }
        CelEvaluator.Result r = PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, COMPAT, ExpressionKind.VALIDATION,
                CelServerProbe.tag("(1 / (1 - 1))") + " == 'aps-never'", CelEvaluator.Activation.empty());
        assertEquals("division by zero", r.error() == null ? null : r.error().replaceAll(".*(division by zero).*", "$1"));
    }

    @Test
    void literalsKeepTypesAndEscapes() {
        assertEquals("[dyn(1), dyn('a\\'b'), dyn(2.5)]", CelServerProbe.celLiteral(List.of(1, "a'b", 2.5)));
        assertEquals("(-9223372036854775807 - 1)", CelServerProbe.celLiteral(Long.MIN_VALUE));
        assertEquals("0.30000000000000004", CelServerProbe.canonical("double", "0.30000000000000004"));
        assertEquals("3.0", CelServerProbe.canonical("double", "3"));
        assertEquals("Infinity", CelServerProbe.canonical("double", "+Inf"));
    }
}
