package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Line-by-line parity with cel-go where cel-java behaves differently. Each case names the upstream code it
 * follows. Kubernetes 1.36 vendors cel-go v0.26.0 (CEL compatibility 1.35, the default here); 1.37 vendors
 * v0.29.2 (compatibility 1.36), see {@link #celGo029Changes()}.
 */
class CelGoParityTest {
    private static final Map<String, Object> PARAMS = new LinkedHashMap<>();

    static {
        PARAMS.put("s", "abc");
        PARAMS.put("none", null);
        PARAMS.put("ip", "10.0.0.1");
        PARAMS.put("cidr", "10.0.0.0/8");
        PARAMS.put("url", "https://example.com:8443/p?q=1");
        PARAMS.put("quantity", "1Gi");
        PARAMS.put("version", "1.2.3");
        PARAMS.put("i", 3);
        PARAMS.put("flag", "T");
        PARAMS.put("ints", List.of(1, 2));
    }

    private static CelEvaluator.Result eval(int compatMinor, String expression) {
        KubernetesCelEnvironment env = KubernetesCelEnvironment.create(new KubeVersion(1, compatMinor),
                KubernetesCelEnvironment.Declarations.validation());
        CelEvaluator.Activation a = new CelEvaluator.Activation(Map.of("spec", Map.of("x", "y")), null, PARAMS,
                null, null, null, null);
        return CelEvaluator.evaluate(env, expression, a);
    }

    /** expression → expected value, or "error: <exact message>", or "compile: <substring>". */
    private static void check(int compatMinor, Map<String, Object> cases) {
        List<String> failures = new ArrayList<>();
        cases.forEach((expression, expected) -> {
            CelEvaluator.Result r = eval(compatMinor, expression);
            String got = r.compileError() != null ? "compile: " + r.compileError()
                    : r.error() != null ? "error: " + r.error() : null;
            if (expected instanceof String e && (e.startsWith("error: ") || e.startsWith("compile: "))) {
                boolean ok = got != null && (e.startsWith("compile: ") ? got.contains(e.substring(9)) : got.equals(e));
                if (!ok) {
                    failures.add(expression + "\n   expected " + e + "\n   got      " + (got != null ? got : r.value()));
                }
            } else if (got != null || !expected.equals(r.value())) {
                failures.add(expression + "\n   expected " + expected + "\n   got      " + (got != null ? got : r.value()));
            }
        });
        assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    }

    private static Map<String, Object> cases(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void stringsExtension() {
        check(35, cases(
                // ext/strings.go substrRange: start > end first, then the start bound, then the end bound
                "'abc'.substring(5, 7)", "error: index out of range: 5",
                "'abc'.substring(-1, 7)", "error: index out of range: -1",
                "'abc'.substring(1, 7)", "error: index out of range: 7",
                "'abc'.substring(4, 2)", "error: invalid substring range. start: 4, end: 2",
                "'abc'.substring(3, 3)", "",
                // ext/strings.go substr
                "'abc'.substring(4)", "error: index out of range: 4",
                "'ab😀c'.substring(2, 3)", "😀",
                // ext/strings.go charAt: the length itself is '' (not an error)
                "'abc'.charAt(3)", "",
                "'abc'.charAt(4)", "error: index out of range: 4",
                "'abc'.charAt(-1)", "error: index out of range: -1",
                // ext/strings.go indexOfOffset (v0.26): an offset past the end is -1, a negative one an error
                "'abc'.indexOf('b', 5)", -1L,
                "'abc'.indexOf('b', -1)", "error: index out of range: -1",
                "'abc'.indexOf('', 5)", 5L,
                "'a😀b😀'.indexOf('😀', 2)", 3L,
                // ext/strings.go lastIndexOf / lastIndexOfOffset
                "'abcb'.lastIndexOf('b')", 3L,
                "'abc'.lastIndexOf('b', 5)", -1L,
                "'abc'.lastIndexOf('b', -1)", "error: index out of range: -1",
                "'abc'.lastIndexOf('')", 3L,
                "'ab'.lastIndexOf('abc')", -1L,
                // ext/strings.go replaceN: Go strings.Replace; n < 0 replaces all, an empty needle matches per rune
                "'aaa'.replace('a', 'b', -1)", "bbb",
                "'aaa'.replace('a', 'b', 0)", "aaa",
                "'aaa'.replace('', 'x')", "xaxaxax",
                "'aaa'.replace('', 'x', 2)", "xaxaa",
                // ext/strings.go splitN: Go strings.SplitN
                "'a,b,c'.split(',', 0)", List.of(),
                "'a,b,c'.split(',', -1)", List.of("a", "b", "c"),
                "'a,b,c'.split(',', 2)", List.of("a", "b,c"),
                "'abc'.split('')", List.of("a", "b", "c"),
                "'abc'.split('', 2)", List.of("a", "bc"),
                "''.split(',')", List.of(""),
                "''.split('')", List.of(),
                // ext/strings.go trimSpace: Go unicode.IsSpace (NBSP, NEL, U+2028 trimmed; zero-width space kept)
                "'\\u00a0\\u0085 a \\u2028\\u3000'.trim()", "a",
                "'\\u200b a'.trim()", "\u200b a",
                "'\\u180e a'.trim()", "\u180e a",
                // ext/strings.go lowerASCII/upperASCII: ASCII only
                "'ÀbC'.lowerAscii()", "Àbc",
                "'àbc'.upperAscii()", "àBC",
                // ext/strings.go joinValSeparator: every element must be a string (a dyn list reaches it)
                "params.ints.join()", "error: join: invalid input: 1",
                "params.ints.join('-')", "error: join: invalid input: 1",
                "['a', 'b'].join('-')", "a-b",
                // ext/strings.go quote
                "strings.quote('a\"b\\\\c\\n\\t\\a\\v')", "\"a\\\"b\\\\c\\n\\t\\a\\v\""));
    }

    @Test
    void conversionsFromStrings() {
        check(35, cases(
                // common/types/string.go ConvertToType(BoolType): strconv.ParseBool
                "[bool('1'), bool('t'), bool('T'), bool('TRUE'), bool('true'), bool('True')]", List.of(true, true, true, true, true, true),
                "[bool('0'), bool('f'), bool('F'), bool('FALSE'), bool('false'), bool('False')]", List.of(false, false, false, false, false, false),
                "bool('tRuE')", "compile: type conversion error from 'string' to 'bool'",
                "bool('yes')", "compile: type conversion error from 'string' to 'bool'",
                "bool(params.flag)", true,
                "bool(params.s)", "error: type conversion error from 'string' to 'bool'",
                // ConvertToType(IntType): strconv.ParseInt(s, 10, 64): sign allowed, ASCII digits only
                "int('+1')", 1L,
                "int('-0')", 0L,
                "int(' 1')", "compile: type conversion error from 'string' to 'int'",
                "int('0x10')", "compile: type conversion error from 'string' to 'int'",
                "int('1e3')", "compile: type conversion error from 'string' to 'int'",
                "int('\u0663')", "compile: type conversion error from 'string' to 'int'",
                "int('9223372036854775808')", "compile: type conversion error from 'string' to 'int'",
                "int(params.s)", "error: type conversion error from 'string' to 'int'",
                // ConvertToType(UintType): strconv.ParseUint: no sign
                "uint('+1')", "compile: type conversion error from 'string' to 'uint'",
                "uint('18446744073709551615') == 18446744073709551615u", true,
                // ConvertToType(DoubleType): strconv.ParseFloat: inf/infinity/nan in any case, hex floats,
                // no spaces, no Java suffixes, out of range is an error
                "double('inf') == double('+Infinity')", true,
                "double('-INF') < 0.0", true,
                "double('nan') != double('NaN')", true,
                "double('0x1p-2')", 0.25,
                "double('.5')", 0.5,
                "double('5.')", 5.0,
                "double('1e3')", 1000.0,
                "double(' 1')", "compile: type conversion error from 'string' to 'double'",
                "double('1d')", "compile: type conversion error from 'string' to 'double'",
                "double('1e400')", "compile: type conversion error from 'string' to 'double'",
                "double('-nan')", "compile: type conversion error from 'string' to 'double'",
                // ConvertToType(DurationType): time.ParseDuration
                "duration('.5s') == duration('500ms')", true,
                "duration('1.s') == duration('1s')", true,
                "duration('+1h') == duration('60m')", true,
                "duration('1µs') == duration('1us')", true,
                "duration('2562048h')", "compile: type conversion error from 'string' to 'google.protobuf.Duration'",
                "duration(params.s)", "error: type conversion error from 'string' to 'google.protobuf.Duration'",
                // a dyn argument dispatches by name over every overload
                "int(params.i) == 3 && double(params.i) == 3.0 && uint(params.i) == 3u", true,
                "string(params.i)", "3"));
    }

    @Test
    void timestampAndDurationAccessors() {
        check(35, cases(
                // common/types/duration.go DurationGetMilliseconds: d.Milliseconds(), the whole duration
                "duration('1h1m1s1ms').getMilliseconds()", 3661001L,
                "duration('1.5s').getMilliseconds()", 1500L,
                "duration('-1.5s').getMilliseconds()", -1500L,
                // DurationGetHours/Minutes/Seconds: whole units too
                "duration('3661s').getMinutes()", 61L,
                "duration('3661s').getHours()", 1L,
                // common/types/timestamp.go timestampGetMilliseconds: the millisecond part
                "timestamp('2024-01-01T00:00:01.5Z').getMilliseconds()", 500L,
                // timestamp.go timeZone: IANA names, "" and UTC; else [+-]HH:MM through strconv.Atoi
                "timestamp('2024-01-01T00:00:00Z').getHours('America/New_York')", 19L,
                "timestamp('2024-01-01T00:00:00Z').getHours('')", 0L,
                "timestamp('2024-01-01T00:00:00Z').getHours('+05:30')", 5L,
                "timestamp('2024-01-01T00:00:00Z').getMinutes('-00:30')", 30L,
                "timestamp('2024-01-01T00:00:00Z').getHours('+5:3')", 5L,
                "timestamp('2024-01-01T00:00:00Z').getHours('+20:00')", 20L,
                "timestamp('2024-01-01T00:00:00Z').getDate('-05:00')", 31L,
                "timestamp('2024-01-01T00:00:00Z').getDayOfMonth('+01:00')", 0L,
                "timestamp('2024-01-01T00:00:00Z').getDayOfWeek('-01:00')", 0L,
                "timestamp('2024-01-01T00:00:00Z').getMonth('-01:00')", 11L,
                "timestamp('2024-01-01T00:00:00Z').getFullYear('-01:00')", 2023L,
                "timestamp('2024-01-01T00:00:00Z').getDayOfYear('-01:00')", 364L,
                "timestamp('2024-01-01T00:00:00Z').getHours('-05:99')", 17L,
                "timestamp('2024-01-01T00:00:00Z').getHours('Bad/Zone')", "error: unknown time zone Bad/Zone",
                "timestamp('2024-01-01T00:00:00Z').getHours('+0530')", "error: unknown time zone +0530",
                "timestamp('2024-01-01T00:00:00Z').getHours('Z')", "error: unknown time zone Z",
                "timestamp('2024-01-01T00:00:00Z').getHours('x:00')", "error: strconv.Atoi: parsing \"x\": invalid syntax",
                "timestamp('2024-01-01T00:00:00Z').getHours(params.s)", "error: unknown time zone abc",
                // common/types/overflow.go addTimeDurationChecked: past year 9999 or before year 1
                "timestamp('9999-12-31T23:59:59Z') + duration('1s')", "error: timestamp overflow",
                "timestamp('0001-01-01T00:00:00Z') - duration('1s')", "error: timestamp overflow",
                // Go durations are int64 nanoseconds (about ±292 years): overflow.go addDurationChecked,
                // subtractTimeChecked
                "duration('2562047h') + duration('2562047h')", "error: integer overflow",
                "duration('-2562047h') - duration('2562047h')", "error: integer overflow",
                "timestamp('9999-01-01T00:00:00Z') - timestamp('0001-01-01T00:00:00Z')", "error: integer overflow",
                "timestamp('2024-01-01T00:00:00Z') - timestamp('2023-01-01T00:00:00Z') == duration('8760h')", true,
                "duration('1h') + timestamp('2024-01-01T00:00:00Z') == timestamp('2024-01-01T01:00:00Z')", true,
                "1 + 2 == 3 && 'a' + 'b' == 'ab' && [1] + [2] == [1, 2] && 3 - 1 == 2 && 1.5 - 0.5 == 1.0", true));
    }

    @Test
    void quantityOfOnlyASuffixOrASign() {
        // apimachinery resource.ParseQuantity / parseQuantityString: a lone sign or suffix is a zero quantity,
        // only the empty string is ErrFormatWrong; library/quantity.go isQuantity is ParseQuantity == nil
        check(35, cases(
                "[isQuantity('Ki'), isQuantity('+'), isQuantity('-'), isQuantity('.'), isQuantity('e3')]",
                List.of(true, true, true, true, true),
                "[isQuantity(''), isQuantity('1e'), isQuantity('1Kii'), isQuantity(' 1')]", List.of(false, false, false, false),
                "quantity('Ki') == quantity('0')", true,
                "quantity('-').isLessThan(quantity('1m'))", true,
                "quantity('')", "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    }

    @Test
    void libraryFunctionsOnDynValues() {
        // cel-go dispatches on the runtime type when the checker left several overloads open (common/decls
        // FunctionDecl.Bindings, the "dynamic dispatch" function); params/object/variables are dyn.
        check(35, cases(
                "cidr(params.cidr).containsIP(params.ip)", true,
                "cidr('10.0.0.0/8').containsIP(params.ip)", true,
                "cidr(params.cidr).containsCIDR(params.cidr)", true,
                "cidr(params.cidr).containsIP(ip(params.ip))", true,
                "ip(params.ip).family()", 4L,
                "url(params.url).getPort()", "8443",
                "quantity(params.quantity).isGreaterThan(quantity('1G'))", true,
                "quantity('1').add(params.i).asInteger()", 4L,
                "quantity('5').sub(params.i).asInteger()", 2L,
                "semver(params.version).major()", 1L,
                "params.ints.sum()", 3L,
                "params.s.indexOf('b')", 1L,
                // wrong runtime types are errors, never a crash
                "ip(params.i)", "compile: ",
                "ip(params.s)", "error: IP Address \"abc\" parse error during conversion from string: ParseAddr(\"abc\"): unable to parse IP",
                "cidr(params.cidr).containsIP(params.i)", "compile: "));
    }

    @Test
    void stringFormatNestedValues() {
        // ext/formatting.go (the legacy formatter of strings v2): clauseForType, formatList, formatMap, quoteForCEL
        check(35, cases(
                "'%s'.format([[1.5, -0.0, 1e-7]])", "[1.500000, -0.000000, 0.000000]",
                "'%s'.format([[double('NaN'), double('inf'), -double('inf')]])", "[\"NaN\", \"+Inf\", \"-Inf\"]",
                "'%s'.format([double('inf')])", "+Inf",
                "'%s'.format([[b'a\"b']])", "[b\"a\\\"b\"]",
                "'%s'.format([{'b': 1, 1: 2, true: 3}])", "{\"b\":1, 1:2, true:3}",
                "'%s'.format([[duration('1.5s'), timestamp('2024-01-01T00:00:00Z'), null, int, 1u]])",
                "[duration(\"1.5s\"), timestamp(\"2024-01-01T00:00:00Z\"), null, int, 1]",
                "'%s'.format([{'\\u00a0': 'x\\ny'}])", "{\"\\u00a0\":\"x\\ny\"}",
                "'%s'.format([[optional.of(1)]])", "error: error during formatting: string clause can only be used on"
                        + " strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type",
                "'%s'.format([quantity('1')])", "error: error during formatting: string clause can only be used on"
                        + " strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.Quantity"));
    }

    @Test
    void presenceTestsOnValuesThatAreNotMaps() {
        // interpreter/attributes.go refQualify: a presence test on null, a string or a number is false
        // (Kubernetes leaves EnableErrorOnBadPresenceTest off); on a list it is an index error; a missing
        // intermediate field is still "no such key"
        check(35, cases(
                "has(params.none.x)", false,
                "has(params.s.x)", false,
                "has(params.i.x)", false,
                "has(object.spec.x)", true,
                "has(object.spec.x.y)", false,
                "has(object.spec.z)", false,
                "has(params.none.x.y)", "error: no such key: x",
                "has(object.nope.x)", "error: no such key: nope",
                "has(params.ints.x)", "error: unsupported index type 'string' in list",
                "has(oldObject.spec)", false,
                "[1, 2].all(v, !has(params.none.x))", true));
    }

    @Test
    void celGo029Changes() {
        // Kubernetes 1.37 (compatibility 1.36) vendors cel-go v0.29.2: #1335 checks the offset of an empty search
        // string, #1336 refuses time zone minutes outside [0, 59]
        check(35, cases(
                "'abc'.indexOf('', 5)", 5L,
                "'abc'.indexOf('', -1)", -1L,
                "'abc'.lastIndexOf('', 7)", 7L));
        check(36, cases(
                "'abc'.indexOf('', 5)", 3L,
                "'abc'.indexOf('', -1)", "error: index out of range: -1",
                "'abc'.lastIndexOf('', 7)", 3L,
                "'abc'.lastIndexOf('', -1)", "error: index out of range: -1",
                "'abc'.indexOf('b', 5)", -1L,
                "timestamp('2024-01-01T00:00:00Z').getHours('-05:99')",
                "error: timezone offset minutes out of range [0, 59]: -05:99",
                "timestamp('2024-01-01T00:00:00Z').getHours('+05:30')", 5L));
    }

    @Test
    void resultsAreStableAcrossRepeatedEvaluation() {
        assertEquals(Boolean.FALSE, eval(35, "has(params.none.x)").value());
        assertEquals(Boolean.FALSE, eval(35, "has(params.none.x)").value());
    }
}
