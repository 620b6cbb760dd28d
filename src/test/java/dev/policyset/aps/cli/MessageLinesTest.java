package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageLinesTest {
    private static final String APS603 = "unguarded access that can fail at request time: `object.metadata.labels` "
            + "(`labels` is an optional map, left out when empty). When it is absent the expression fails with \"no such "
            + "key\" and, with failurePolicy Fail (the default), the request is denied. Guard it: "
            + "`object.metadata.?labels[?'example.com/owner'].orValue('') == 'team-a' && has(object.spec.containers)`, "
            + "or test presence first";

    @Test
    void theAdviceStartsOnALineOfItsOwnAndNoLineIsWiderThanAsked() {
        List<String> lines = MessageLines.of(APS603, 60, 80);
        assertTrue(lines.get(0).startsWith("unguarded access that can fail at request time:"), lines.get(0));
        assertTrue(lines.get(0).length() <= 60, lines.get(0));
        int advice = indexOfLineStartingWith(lines, "When it is absent");
        assertTrue(advice > 0, "the advice begins a line: " + lines);
        assertTrue(lines.get(advice - 1).endsWith("left out when empty)."), lines.toString());
        for (String line : lines) {
            assertTrue(line.length() <= 80 || !line.contains(" ") || line.startsWith("`"), "wrapped: " + line);
        }
    }

    @Test
    void aCodeSpanIsNeverBrokenSoItCanBePasted() {
        List<String> lines = MessageLines.of(APS603, 60, 80);
        String code = "`object.metadata.?labels[?'example.com/owner'].orValue('') == 'team-a' && has(object.spec.containers)`,";
        assertTrue(lines.contains(code), "the whole expression on one line: " + lines);
    }

    @Test
    void nothingIsLostOrAdded() {
        List<String> lines = MessageLines.of(APS603, 60, 80);
        assertEquals(APS603, String.join(" ", lines));
        assertEquals(List.of("short: no sentence break"), MessageLines.of("short: no sentence break", 60, 80));
    }

    /** Over the samples as a user runs it: every line of text output fits 100 columns but for one long token. */
    @Test
    void validateTextOutputFitsTheTerminal() {
        RenderCommandTest.Run r = RenderCommandTest.run("validate", "config/samples/");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
        assertTrue(r.out().lines().count() > 10, r.out());
        for (String line : r.out().lines().toList()) {
            boolean oneLongToken = java.util.Arrays.stream(line.split(" ")).anyMatch(word -> word.length() > 50);
            assertTrue(line.length() <= 100 || oneLongToken, line.length() + " columns: " + line);
        }
    }

    private static int indexOfLineStartingWith(List<String> lines, String start) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(start)) {
                return i;
            }
        }
        return -1;
    }
}
