package dev.policyset.aps.core.intercept;

import java.util.List;

/**
 * What an {@link Interceptor} answers about an {@link AdmissionRequest}.
 *
 * @param outcome              {@link Outcome#MATCHES}: the API server sends this request to it; {@link Outcome#NO_MATCH}:
 *                             it does not; {@link Outcome#UNDECIDED}: it depends on something the model cannot see
 *                             (a matchCondition it does not evaluate, a label the request does not state, an object
 *                             name it does not know)
 * @param reasons              why, in the order the API server decides: the first reason of a NO_MATCH is what rules
 *                             it out; for UNDECIDED, what is left open
 * @param conditionsToEvaluate the matchConditions still to evaluate when everything else matches: a caller that can
 *                             evaluate CEL on the request decides with them (all true: matches; any false: not)
 */
public record Verdict(Outcome outcome, List<String> reasons, List<MatchCondition> conditionsToEvaluate) {
    public enum Outcome { MATCHES, NO_MATCH, UNDECIDED }

    public Verdict {
        reasons = List.copyOf(reasons);
        conditionsToEvaluate = List.copyOf(conditionsToEvaluate);
    }

    public boolean matches() {
        return outcome == Outcome.MATCHES;
    }

    /** Matches, or might: the request is not ruled out. */
    public boolean mayMatch() {
        return outcome != Outcome.NO_MATCH;
    }

    public boolean undecided() {
        return outcome == Outcome.UNDECIDED;
    }

    /** The reasons joined for a message. */
    public String explain() {
        return String.join("; ", reasons);
    }
}
