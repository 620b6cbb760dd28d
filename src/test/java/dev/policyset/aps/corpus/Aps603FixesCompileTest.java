package dev.policyset.aps.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.policyset.aps.cli.InputFiles;
import dev.policyset.aps.cli.ValidationRun;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.validate.safety.Aps602SchemaTypeCheck;
import dev.policyset.aps.core.validate.safety.Aps603UnguardedAccess;
import dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck;
import dev.policyset.aps.core.validate.typecheck.UnguardedAccesses;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.policyset.aps.testing.FieldPaths.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every fix APS603 prints, pasted where it says: the optional form in place of each occurrence of the access, and
 * the presence test in front of the expression (in a loop, in front of the access). Each pasted expression must
 * compile as the API server compiles it at create time (no {@code api/*} finding), type-check against the matched
 * kinds' schemas as well as the original did (no new APS602), and no longer be reported for that access.
 * Over the corpus ({@code ../shared/corpus}; skipped with the reason when it is absent), the shipped samples and
 * hand-made cases (keys with dots, slashes and quotes, mutations, variables, loop variables).
 */
class Aps603FixesCompileTest {
    private static final ValidationOptions OPTIONS = ValidationOptions.offline(KubeVersion.NEWEST);
    private static final Validator VALIDATOR = new Validator(OPTIONS, new KubernetesCelChecker(),
            List.of(new Aps602SchemaTypeCheck(), new Aps603UnguardedAccess()));
    private static final Pattern ACCESS = Pattern.compile("request time: `([^`]+)`");
    private static final Pattern OPTIONAL_FORM = Pattern.compile("Guard it: `([^`]+)` in its place");
    private static final Pattern PRESENCE = Pattern.compile("test presence first(, inside the loop)?: `([^`]+)`");

    /** How many findings and pasted fixes a run checked. */
    private record Tally(int findings, int optionalForms, int presenceTests) {
    }

    @Test
    void corpusFixesCompile() throws Exception {
        Path corpus = SharedData.require("corpus");
        List<ValidationSubject> subjects = new ArrayList<>();
        for (CorpusTest.Row row : CorpusTest.readIndex(corpus.resolve("INDEX.md"))) {
            subjects.add(CorpusTest.read(corpus.resolve(row.file())));
        }
        Tally t = check(subjects);
        System.out.println("APS603 fixes over the corpus: " + t);
        assertTrue(t.findings() > 0, "the corpus has unguarded accesses: " + t);
        assertTrue(t.optionalForms() > 0 && t.presenceTests() == t.findings(), t.toString());
    }

    @Test
    void sampleFixesCompile() {
        var loaded = InputFiles.load(List.of(Path.of("config/samples")));
        Tally t = check(ValidationRun.subjects(loaded.documents(), KubeVersion.NEWEST).subjects());
        System.out.println("APS603 fixes over config/samples: " + t);
    }

    @Test
    void handMadeFixesCompile() throws Exception {
        String yaml = Files.readString(Path.of("src/test/resources/aps603/fixes.yaml"), StandardCharsets.UTF_8);
        List<ValidationSubject> subjects = new ArrayList<>();
        for (var d : Yaml.parse("fixes.yaml", yaml)) {
            subjects.add(ValidationSubject.bare(new RenderedObject(AdmissionKind.fromKind(d.kind()).orElseThrow(),
                    d.apiVersion(), d.name(), (ObjectNode) d.content(), "")));
        }
        Tally t = check(subjects);
        System.out.println("APS603 fixes over the hand-made cases: " + t);
        // each hand-made expression has one unguarded access (fixes.yaml says which), and each has a literal default
        // except the object-valued ones
        assertEquals(12, t.findings(), t.toString());
        assertEquals(11, t.optionalForms(), t.toString());
        assertEquals(12, t.presenceTests(), t.toString());
    }

    private static Tally check(List<ValidationSubject> subjects) {
        int findings = 0;
        int optional = 0;
        int presence = 0;
        for (ValidationSubject s : subjects) {
            List<Finding> before = VALIDATOR.validate(List.of(s)).findings();
            for (Finding f : before) {
                if (!f.rule().equals("APS603")) {
                    continue;
                }
                findings++;
                String where = s.object().id() + " " + f.field() + ": " + f.message();
                String expression = at(s.object().manifest(), f.field()).asText();
                Matcher access = ACCESS.matcher(f.message());
                assertTrue(access.find(), where);
                String path = access.group(1);
                List<int[]> spans = spans(s, f.field(), expression, path);
                assertTrue(!spans.isEmpty(), "the access " + path + " is not in the expression: " + where);
                Matcher form = OPTIONAL_FORM.matcher(f.message());
                if (form.find()) {
                    optional++;
                    pasted(s, f, before, path, replace(expression, spans, "(" + form.group(1) + ")"), where);
                }
                Matcher test = PRESENCE.matcher(f.message());
                assertTrue(test.find(), where);
                presence++;
                String fixed;
                if (test.group(1) != null) { // in a loop: the test goes in front of the access, as a condition
                    String tests = test.group(2).substring(0, test.group(2).length() - " && ...".length());
                    fixed = replaceEach(expression, spans, a -> "(" + tests + " ? " + a + " : " + a + ")");
                } else {
                    assertTrue(test.group(2).contains("..."), where);
                    fixed = test.group(2).replace("...", "(" + expression + ")");
                }
                pasted(s, f, before, path, fixed, where);
            }
        }
        return new Tally(findings, optional, presence);
    }

    /** The expression with the fix pasted compiles and type-checks as well as before, and no longer has the access. */
    private static void pasted(ValidationSubject s, Finding f, List<Finding> before, String path, String fixed, String where) {
        ObjectNode manifest = s.object().manifest().deepCopy();
        set(manifest, f.field(), fixed);
        ValidationSubject changed = new ValidationSubject(new RenderedObject(s.object().kind(), s.object().apiVersion(),
                s.object().name(), manifest, s.object().source()), s.setName(), s.safety(), s.origin());
        List<Finding> after = VALIDATOR.validate(List.of(changed)).findings();
        for (Finding a : after) {
            if (!a.field().equals(f.field())) {
                continue;
            }
            if (a.rule().startsWith("api/") || a.rule().equals("APS602")) {
                assertTrue(before.stream().anyMatch(b -> b.field().equals(f.field()) && b.rule().equals(a.rule())),
                        "pasted fix does not compile: " + fixed + "\n  " + a + "\n  for " + where);
            }
            if (a.rule().equals("APS603")) {
                String reported = a.message().substring(0, a.message().indexOf(". When it is absent"));
                assertTrue(!reported.contains("`" + path + "`"), "still unguarded after the fix: " + fixed + "\n  " + a);
            }
        }
    }

    /** Where each outermost occurrence of {@code path} is in the expression's text, as [start, end) code points. */
    private static List<int[]> spans(ValidationSubject s, String field, String expression, String path) {
        var result = PolicyTypeCheck.of(s.object().kind(), s.object().manifest(), OPTIONS.schemas(), OPTIONS.kubeVersion())
                .orElseThrow();
        var ast = result.untyped().get(field).ast();
        var positions = ast.getSource().getPositionsMap();
        int[] text = expression.codePoints().toArray();
        List<int[]> out = new ArrayList<>();
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(n -> {
            if (!path.equals(UnguardedAccesses.path(n.expr())) || n.parent().map(p -> path.equals(
                    UnguardedAccesses.path(p.expr()))).orElse(false)) {
                return;
            }
            int start = n.allNodes().mapToInt(c -> positions.getOrDefault(c.expr().id(), Integer.MAX_VALUE)).min().orElseThrow();
            out.add(new int[] {start, end(text, positions.get(n.expr().id()), n.expr())});
        });
        out.sort(Comparator.comparingInt(a -> a[0]));
        return out;
    }

    /** The end of the last step of an access: after {@code .f} / {@code .?f}, or after the {@code ]} of an index. */
    private static int end(int[] text, int at, CelExpr e) {
        int i = at;
        if (e.getKind() == CelExpr.ExprKind.Kind.SELECT || e.getKind() == CelExpr.ExprKind.Kind.CALL
                && e.call().function().equals("_?._")) {
            i++; // the dot
            while (text[i] == '?' || Character.isWhitespace(text[i])) {
                i++;
            }
            while (i < text.length && (Character.isLetterOrDigit(text[i]) || text[i] == '_')) {
                i++;
            }
            return i;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            return at + e.ident().name().length();
        }
        int quote = 0;
        for (i = at + 1; i < text.length; i++) {
            int c = text[i];
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ']') {
                return i + 1;
            }
        }
        throw new AssertionError("no ] after " + at);
    }

    private static String replace(String expression, List<int[]> spans, String with) {
        return replaceEach(expression, spans, a -> with);
    }

    private static String replaceEach(String expression, List<int[]> spans, java.util.function.UnaryOperator<String> with) {
        int[] text = expression.codePoints().toArray();
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int[] span : spans) {
            if (span[0] < from) {
                continue; // inside an earlier occurrence
            }
            out.append(new String(text, from, span[0] - from));
            out.append(with.apply(new String(text, span[0], span[1] - span[0])));
            from = span[1];
        }
        return out.append(new String(text, from, text.length - from)).toString();
    }


    private static void set(ObjectNode root, String field, String value) {
        int dot = field.lastIndexOf('.');
        ((ObjectNode) at(root, field.substring(0, dot))).set(field.substring(dot + 1), TextNode.valueOf(value));
    }
}
