package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user sees when the command line is wrong, and whether the help's examples can be pasted. */
class CliUsageTest {

    @Test
    void bareApsNamesEveryCommandInOneLineAndPointsAtHelp() {
        RenderCommandTest.Run r = run();
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        assertEquals("", r.out());
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.err());
        for (String command : List.of("render", "validate", "test", "chain", "review", "impact", "explain", "completion")) {
            assertTrue(lines.get(0).contains(command), command + " is named: " + lines.get(0));
        }
        assertEquals("See 'aps --help'.", lines.get(1));
    }

    @Test
    void aUsageErrorIsTheErrorAndOneLineAboutHelpNotTheWholeHelp() {
        RenderCommandTest.Run missing = run("chain", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, missing.exit());
        assertEquals(List.of("aps chain: Missing required options: '--resource=[GROUP/]VERSION/RESOURCE', '--operation=OP'",
                "See 'aps chain --help'."), missing.err().lines().toList());

        RenderCommandTest.Run misspelt = run("validate", "--outptu", "json", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, misspelt.exit());
        List<String> lines = misspelt.err().lines().toList();
        assertEquals("aps validate: Unknown option: '--outptu'", lines.get(0));
        assertTrue(misspelt.err().contains("--output"), "the suggestion stays: " + misspelt.err());
        assertEquals("See 'aps validate --help'.", lines.get(lines.size() - 1));
        assertTrue(lines.size() <= 4, misspelt.err());

        RenderCommandTest.Run unknownCommand = run("valdate", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, unknownCommand.exit());
        assertTrue(unknownCommand.err().contains("validate"), "did you mean: " + unknownCommand.err());
        assertTrue(unknownCommand.err().lines().count() <= 4, unknownCommand.err());
    }

    /**
     * Picocli wraps a footer line longer than the usage width, which breaks an example in the middle of a command;
     * a pasted half-command fails or, worse, runs something else. Every example fits on its line, or continues
     * with a trailing backslash that a shell joins.
     */
    @Test
    void everyHelpLineOfEveryCommandFitsTheHelpWidth() {
        List<String> tooLong = new ArrayList<>();
        walk(ApsCommand.commandLine(System.in), tooLong);
        assertEquals(List.of(), tooLong);
    }

    private static void walk(CommandLine command, List<String> tooLong) {
        CommandLine.Model.UsageMessageSpec usage = command.getCommandSpec().usageMessage();
        int width = usage.width();
        List<String> lines = new ArrayList<>(List.of(usage.footer()));
        lines.addAll(List.of(usage.description()));
        for (String line : lines) {
            // description lines are wrapped at word boundaries on purpose; only commands must not be cut
            boolean example = line.startsWith("  ");
            if (example && line.length() > width) {
                tooLong.add(command.getCommandSpec().qualifiedName() + ": " + line.length() + " > " + width + ": " + line);
            }
        }
        command.getSubcommands().values().stream().distinct().forEach(sub -> walk(sub, tooLong));
    }
}
