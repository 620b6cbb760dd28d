package dev.policyset.aps.core.evaluate.suite;

import java.util.List;

/**
 * One test file, read: its cases, or the problems that stop it from running (then no case runs).
 *
 * @param format {@code PolicyTest} or {@code kaptest}
 */
public record PolicyTest(String file, String name, String format, List<TestCase> cases, List<Problem> problems) {
    public PolicyTest {
        cases = List.copyOf(cases);
        problems = List.copyOf(problems);
    }

    public boolean runnable() {
        return problems.isEmpty();
    }
}
