package dev.policyset.aps.cli;

import dev.policyset.aps.core.finding.RuleCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code aps explain RULE}: a rule's documentation (risk, example, fix) from docs/rules.md in the jar. */
@Command(name = "explain",
        mixinStandardHelpOptions = true,
        description = {"Print a rule's documentation: what it catches, why it matters, an example finding and the fix.",
                "Without RULE, list every rule with its default severity."},
        footer = {"", "Examples:",
                "  aps explain APS201",
                "  aps explain api/Invalid",
                "  aps explain",
                "",
                "Exit codes: 0 printed, 2 unknown rule (the known ones are listed on stderr)."})
final class ExplainCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RULE", arity = "0..1", description = "A rule ID, e.g. APS201, api/Invalid (case does not matter).")
    String rule;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (rule == null) {
            list(out);
            return ExitCodes.OK;
        }
        Optional<RuleCatalog.Rule> found = RuleCatalog.find(rule.strip());
        if (found.isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("aps explain: unknown rule \"" + rule + "\"; the rules are:");
            list(err);
            err.flush();
            return ExitCodes.USAGE_OR_INPUT;
        }
        RuleCatalog.Rule r = found.get();
        out.println(r.id() + " (" + r.severity().label() + " by default): " + r.summary());
        out.println();
        out.println(RuleDocs.section(r.id()).map(RuleDocs::plain)
                .orElse("No section in docs/rules.md for this rule."));
        out.println();
        out.println("Documentation: " + r.helpUri());
        out.flush();
        return ExitCodes.OK;
    }

    private static void list(PrintWriter out) {
        for (RuleCatalog.Rule r : RuleCatalog.all()) {
            out.println(String.format("%-20s %-8s %s", r.id(), r.severity().label(), r.summary()));
        }
        out.flush();
    }
}
