package dev.policyset.aps.cli;

/** The CLI's exit codes (DESIGN §5, a contract). */
public final class ExitCodes {
    /** No error findings. */
    public static final int OK = 0;
    /** At least one error finding (or a failed test case). */
    public static final int FINDINGS = 1;
    /** Usage error, or a file that cannot be read or parsed. */
    public static final int USAGE_OR_INPUT = 2;

    private ExitCodes() {}
}
