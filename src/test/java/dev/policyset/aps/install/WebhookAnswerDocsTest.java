package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README and docs/install.md show what `kubectl apply` prints when the set webhook refuses the unsafe sample.
 * Both show the same answer, and it is the webhook's recorded answer (golden/webhook/create-unsafe-set-denied):
 * every warning and every error line begins as the webhook's own does, and none is left out.
 */
class WebhookAnswerDocsTest {
    private static final Pattern BLOCK = Pattern.compile(
            "\\$ kubectl apply -f config/samples/unsafe-fail-closed-webhook\\.yaml\\n(.*?)```", Pattern.DOTALL);

    @Test
    void readmeAndInstallShowTheWebhooksRecordedAnswer() throws Exception {
        String readme = block("README.md");
        String install = block("docs/install.md");
        assertEquals(install, readme, "the README and docs/install.md show different answers");

        JsonNode response = ProjectFiles.JSON.readTree(ProjectFiles.root()
                .resolve("src/test/resources/golden/webhook/create-unsafe-set-denied/out-reply.json").toFile())
                .path("body").path("response");
        List<String> warnings = new ArrayList<>();
        response.path("warnings").forEach(w -> warnings.add(w.asText()));
        List<String> errors = response.path("status").path("message").asText().lines()
                .filter(l -> l.startsWith("- ")).map(l -> l.substring(2)).toList();
        assertFalse(warnings.isEmpty() || errors.isEmpty(), response.toString());

        List<String> shownWarnings = install.lines().filter(l -> l.startsWith("Warning: "))
                .map(l -> l.substring("Warning: ".length())).toList();
        List<String> shownErrors = install.lines().filter(l -> l.startsWith("- ")).map(l -> l.substring(2)).toList();
        assertEquals(warnings.size(), shownWarnings.size(), "every warning is shown: " + warnings);
        assertEquals(errors.size(), shownErrors.size(), "every error is shown: " + errors);
        for (int i = 0; i < warnings.size(); i++) {
            assertTrue(warnings.get(i).startsWith(upToEllipsis(shownWarnings.get(i))), shownWarnings.get(i) + "\n vs " + warnings.get(i));
        }
        for (int i = 0; i < errors.size(); i++) {
            assertTrue(errors.get(i).startsWith(upToEllipsis(shownErrors.get(i))), shownErrors.get(i) + "\n vs " + errors.get(i));
        }
    }

    private static String block(String file) throws Exception {
        Matcher m = BLOCK.matcher(Files.readString(ProjectFiles.root().resolve(file)));
        assertTrue(m.find(), file + " shows no kubectl apply of the unsafe sample");
        return m.group(1);
    }

    /** The documentation shortens a long message with "…"; what it shows before that must be the webhook's. */
    private static String upToEllipsis(String line) {
        int cut = line.indexOf('…');
        return (cut < 0 ? line : line.substring(0, cut)).stripTrailing();
    }
}
