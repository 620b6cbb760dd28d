package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompletionCommandTest {
    @Test
    void bashScriptCompletesEveryCommandAndTheOutputFormats() {
        RenderCommandTest.Run r = run("completion", "bash");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        String script = r.out();
        assertTrue(script.startsWith("#!/usr/bin/env bash"), script.substring(0, 40));
        assertTrue(script.contains("complete -F _complete_aps"), "registers a completion function for aps");
        for (String command : new String[] {"render", "validate", "explain", "completion", "chain", "review"}) {
            assertTrue(script.contains(command), command);
        }
        assertTrue(script.contains("--output") && script.contains("sarif") && script.contains("codequality"),
                "the output formats are completion candidates");
        assertTrue(script.contains("--kube-version"));
        assertTrue(script.contains("--send-unmatched") && script.contains("validating"),
                "aps review's options and its --type values are completed too");
    }

    @Test
    void zshUsesTheSameScriptThroughBashcompinitAndBashIsTheDefault() {
        RenderCommandTest.Run zsh = run("completion", "zsh");
        assertEquals(ExitCodes.OK, zsh.exit());
        assertEquals(run("completion").out(), zsh.out());
        assertTrue(zsh.out().contains("bashcompinit"), "the picocli script carries its zsh compatibility");
        assertEquals(ExitCodes.USAGE_OR_INPUT, run("completion", "fish").exit());
    }
}
