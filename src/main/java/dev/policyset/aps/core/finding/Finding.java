package dev.policyset.aps.core.finding;

import java.util.Comparator;
import java.util.Objects;

/**
 * One thing the validator has to say about one object (DESIGN §4).
 *
 * @param rule     {@code api/<ErrorType>} for what the API server would refuse, {@code APSnnn} for safety rules
 * @param object   {@code Kind/name} of the generated or validated object
 * @param field    Kubernetes-style path inside that object, e.g. {@code spec.validations[0].expression};
 *                 empty when the finding is about the object as a whole
 * @param message  what is wrong and what to do
 * @param waiver   how it was waived (its severity is then {@code info}), or null when it was not
 */
public record Finding(String rule, Severity severity, String object, String field, String message, Waiver waiver) {
    public static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity)
            .thenComparing(Finding::object)
            .thenComparing(Finding::field)
            .thenComparing(Finding::rule)
            .thenComparing(Finding::message);

    public Finding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(severity, "severity");
        object = object == null ? "" : object;
        field = field == null ? "" : field;
        message = message == null ? "" : message;
    }

    public Finding(String rule, Severity severity, String object, String field, String message) {
        this(rule, severity, object, field, message, null);
    }

    public static Finding error(String rule, String object, String field, String message) {
        return new Finding(rule, Severity.ERROR, object, field, message);
    }

    public static Finding warning(String rule, String object, String field, String message) {
        return new Finding(rule, Severity.WARNING, object, field, message);
    }

    public static Finding info(String rule, String object, String field, String message) {
        return new Finding(rule, Severity.INFO, object, field, message);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** True for findings that mirror the API server; they can be neither exempted nor downgraded. */
    public boolean isApiServerRule() {
        return rule.startsWith("api/");
    }

    public Finding withSeverity(Severity newSeverity, String newMessage) {
        return new Finding(rule, newSeverity, object, field, newMessage, waiver);
    }

    /** This finding waived: reported as {@code info}, its message led by {@code prefix}, the decision kept. */
    public Finding waived(Waiver how, String prefix) {
        return new Finding(rule, Severity.INFO, object, field, prefix + message, how);
    }

    public boolean isWaived() {
        return waiver != null;
    }
}
