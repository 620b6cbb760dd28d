package dev.policyset.aps.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The rule sections of docs/rules.md, which the build packages into the jar (pom.xml, resources), so
 * {@code aps explain} and SARIF's rule help show the same text as the repository. A section is everything from
 * {@code ### ID} to the next heading.
 */
final class RuleDocs {
    static final String RESOURCE = "/dev/policyset/aps/docs/rules.md";

    private static volatile String text;

    private RuleDocs() {}

    /** The Markdown of a rule's section, without its heading; empty when the file has none for the ID. */
    static Optional<String> section(String id) {
        String docs = text();
        int start = docs.indexOf("\n### " + id + "\n");
        if (start < 0) {
            return Optional.empty();
        }
        int body = start + ("\n### " + id + "\n").length();
        int end = nextHeading(docs, body);
        return Optional.of(docs.substring(body, end).strip());
    }

    /** The section's first paragraph ("Catches: ..."), as plain text: SARIF's full description. */
    static Optional<String> catches(String id) {
        return section(id).map(s -> {
            String plain = plain(s);
            int why = plain.indexOf("\nWhy it matters:");
            int example = plain.indexOf("\nExample:");
            int end = why >= 0 ? why : example >= 0 ? example : plain.length();
            return plain.substring(0, end).replaceFirst("^Catches( \\(([^)]*)\\))?: ", "").replace('\n', ' ').strip();
        });
    }

    /** Markdown as a terminal shows it best: bold markers and backticks dropped, everything else kept. */
    static String plain(String markdown) {
        return markdown.replace("**", "").replace("`", "");
    }

    private static int nextHeading(String docs, int from) {
        int end = docs.length();
        for (String heading : new String[] {"\n### ", "\n## ", "\n# "}) {
            int i = docs.indexOf(heading, from);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        return end;
    }

    private static String text() {
        String t = text;
        if (t == null) {
            try (InputStream in = RuleDocs.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(RESOURCE + " is not in the jar: the build packages docs/rules.md there");
                }
                t = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            text = t;
        }
        return t;
    }
}
