package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class YamlTest {
    @ParameterizedTest
    @ValueSource(strings = {"1", "0x1F", "1e3", "true", "yes", "no", "on", "off", "null", "~", "", " leading", "a: b", "- x", "#x"})
    void stringsThatLookLikeOtherScalarsStayStrings(String value) throws Exception {
        ObjectNode node = JsonNodeFactory.instance.objectNode().put("v", value);
        JsonNode back = Yaml.parse("t", Yaml.write(List.of(node))).get(0).content();
        assertTrue(back.get("v").isTextual(), () -> "'" + value + "' came back as " + back.get("v").getNodeType());
        assertEquals(value, back.get("v").asText());
    }

    @Test
    void multiDocumentStreamKeepsOrderAndStartLines() throws Exception {
        String text = "# comment\na: 1\n---\n---\nb: 2\n...\n---\nc: 3\n";
        List<Document> docs = Yaml.parse("f.yaml", text);
        assertEquals(3, docs.size(), "empty documents are skipped");
        assertEquals(2, docs.get(0).line());
        assertEquals(5, docs.get(1).line());
        assertEquals(8, docs.get(2).line());
        assertEquals(3, docs.get(2).index(), "index counts every document of the file");
    }

    @Test
    void syntaxErrorNamesFileAndLine() {
        DocumentParseException e = assertThrows(DocumentParseException.class,
                () -> Yaml.parse("bad.yaml", "a: 1\nb: [unclosed\nc: 3\n"));
        assertEquals("bad.yaml", e.source());
        assertTrue(e.line() >= 2, "line " + e.line());
        assertTrue(e.getMessage().startsWith("bad.yaml:" + e.line() + ": "), e.getMessage());
    }

    @Test
    void duplicateKeysAreAnError() {
        DocumentParseException e = assertThrows(DocumentParseException.class, () -> Yaml.parse("dup.yaml", "a: 1\na: 2\n"));
        assertTrue(e.getMessage().contains("a"), e.getMessage());
    }

    @Test
    void deepNestingIsRefusedNotAStackOverflow() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        DocumentParseException e = assertThrows(DocumentParseException.class, () -> Yaml.parse("deep.yaml", deep));
        assertTrue(e.getMessage().startsWith("deep.yaml:"), e.getMessage());
    }

    @Test
    void textOverTheInputLimitIsRefusedBeforeParsing() {
        // Invalid YAML first: were it parsed, the error would be a syntax error, not the size.
        String text = "a: [unclosed\n" + "b".repeat((int) Yaml.MAX_INPUT_BYTES);
        DocumentParseException e = assertThrows(DocumentParseException.class, () -> Yaml.parse("big.yaml", text));
        assertEquals(1, e.line());
        assertTrue(e.getMessage().contains("over the 16 MiB limit for one input") && e.getMessage().contains("without being parsed"),
                e.getMessage());
    }

    @Test
    void specialCharactersAreRefusedWithTheirLine() {
        DocumentParseException e = assertThrows(DocumentParseException.class,
                () -> Yaml.parse("bell.yaml", "a: 1\r\nb: 2\nc: x\u0007y\n"));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().contains("U+0007") && e.getMessage().contains("\\u0007"), e.getMessage());
    }

    @Test
    void aliasBombIsRefused() {
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        char prev = 'a';
        for (char c = 'b'; c <= 'p'; c++) {
            bomb.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 10; i++) {
                bomb.append(i == 0 ? "" : ", ").append('*').append(prev);
            }
            bomb.append("]\n");
            prev = c;
        }
        assertThrows(DocumentParseException.class, () -> Yaml.parse("bomb.yaml", bomb.toString()));
    }

    @Test
    void aliasesAreExpandedAsKubectlWould() throws Exception {
        JsonNode doc = Yaml.parse("a.yaml", "base: &rules [CREATE, UPDATE]\nother: *rules\n").get(0).content();
        assertEquals(doc.get("base"), doc.get("other"));
    }

    @Test
    void yaml11ScalarsResolveLikeKubectl() throws Exception {
        JsonNode doc = Yaml.parse("s.yaml", "i: 10\nh: 0x10\nf: 1.5\nb: true\nn: null\ns: '10'\nv: v1\n").get(0).content();
        assertEquals(10, doc.get("i").asLong());
        assertEquals(16, doc.get("h").asLong());
        assertEquals(1.5, doc.get("f").asDouble());
        assertTrue(doc.get("b").asBoolean());
        assertTrue(doc.get("n").isNull());
        assertTrue(doc.get("s").isTextual());
        assertTrue(doc.get("i").isIntegralNumber());
    }

    @Test
    void everyValueKnowsItsLine() throws Exception {
        Document doc = Yaml.parse("l.yaml", "---\nspec:\n  validations:\n    - expression: x\n      message: m\n").get(0);
        assertEquals(4, doc.lineOf("spec.validations[0].expression"));
        assertEquals(5, doc.lineOf("spec.validations[0].message"));
        assertEquals(5, doc.lineOf("spec.validations[0].message.missing"), "a missing field points at its parent");
        assertEquals(2, doc.lineOf("spec"));
    }

    @Test
    void multiLineStringsAreLiteralBlocks() {
        ObjectNode node = JsonNodeFactory.instance.objectNode().put("expression", "a &&\n  b");
        assertTrue(Yaml.write(List.of(node)).contains("expression: |-\n  a &&\n    b"), Yaml.write(List.of(node)));
    }
}
