package dev.policyset.aps.core.review;

import dev.policyset.aps.core.finding.Severity;

/**
 * One observation about a review: {@code ERROR} the API server would not accept it (a contract violation, a failed
 * call, a request it would never send), {@code WARNING} it works here but is fragile or differs between versions,
 * {@code INFO} context.
 *
 * @param check   a short stable name of what was checked ({@code response.uid}, {@code http.status}, ...)
 * @param message what is wrong and what to do
 */
public record ReviewFinding(Severity severity, String check, String message) {
    public static ReviewFinding error(String check, String message) {
        return new ReviewFinding(Severity.ERROR, check, message);
    }

    public static ReviewFinding warning(String check, String message) {
        return new ReviewFinding(Severity.WARNING, check, message);
    }

    public static ReviewFinding info(String check, String message) {
        return new ReviewFinding(Severity.INFO, check, message);
    }
}
