package dev.policyset.aps.core.chain;

/**
 * The worst-case time webhooks add to one write request, and the budgets it is judged against. One implementation,
 * used by APS302 (over every request the rules can describe) and by {@code aps chain} (for one request).
 *
 * <p>The API server calls the matching mutating webhooks one after another, calls those with
 * {@code reinvocationPolicy: IfNeeded} once more when a later mutation changed the object (one reinvocation round),
 * then calls the matching validating webhooks in parallel. Worst case: the sum of the mutating timeouts, plus the
 * IfNeeded ones again, plus the slowest validating timeout. Fail-open webhooks count too: a timeout costs the same
 * time whatever happens after it. Policies run in-process under a CEL cost budget and are not counted.
 *
 * <pre>{@code
 * WorstCaseLatency l = new WorstCaseLatency();
 * l.addMutating(10, true);   // IfNeeded: counted twice
 * l.addValidating(5);
 * l.totalSeconds();          // 25
 * }</pre>
 */
public final class WorstCaseLatency {
    /** The APS302 budget: half the API server's request timeout, so a slow chain still leaves room for storage. */
    public static final int BUDGET_SECONDS = 30;
    /** kube-apiserver {@code --request-timeout} default (60 s): a request still in admission then fails. */
    public static final int REQUEST_TIMEOUT_SECONDS = 60;

    private int mutating;
    private int reinvocation;
    private int slowestValidating;

    /** What one mutating webhook can cost: its timeout, twice with reinvocationPolicy IfNeeded. */
    public static int mutatingCost(int timeoutSeconds, boolean ifNeeded) {
        return ifNeeded ? 2 * timeoutSeconds : timeoutSeconds;
    }

    /** A mutating webhook the request reaches; {@code ifNeeded}: its reinvocationPolicy is IfNeeded. */
    public void addMutating(int timeoutSeconds, boolean ifNeeded) {
        mutating += timeoutSeconds;
        if (ifNeeded) {
            reinvocation += timeoutSeconds;
        }
    }

    /** A validating webhook the request reaches (they are called in parallel: only the slowest counts). */
    public void addValidating(int timeoutSeconds) {
        slowestValidating = Math.max(slowestValidating, timeoutSeconds);
    }

    /** The mutating webhooks' timeouts, called in sequence. */
    public int mutatingSeconds() {
        return mutating;
    }

    /** The reinvocation round: the IfNeeded mutating webhooks once more. */
    public int reinvocationSeconds() {
        return reinvocation;
    }

    /** The slowest validating webhook's timeout. */
    public int slowestValidatingSeconds() {
        return slowestValidating;
    }

    public int totalSeconds() {
        return mutating + reinvocation + slowestValidating;
    }

    public boolean overBudget() {
        return totalSeconds() > BUDGET_SECONDS;
    }

    public boolean overRequestTimeout() {
        return totalSeconds() >= REQUEST_TIMEOUT_SECONDS;
    }
}
