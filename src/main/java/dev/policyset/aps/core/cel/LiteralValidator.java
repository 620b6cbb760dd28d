package dev.policyset.aps.core.cel;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.bundle.Cel;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.validator.CelAstValidator;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * cel-go's {@code ValidateDurationLiterals}, {@code ValidateTimestampLiterals} and
 * {@code ValidateRegexLiterals} (Kubernetes 1.29+): a literal argument of {@code duration()},
 * {@code timestamp()} or {@code matches()} must be valid, reported as
 * {@code invalid <function> argument: <reason>}. Written here rather than using cel-java's validators
 * because their wording differs and cel-java checks regexes with {@code java.util.regex}, which accepts
 * back-references that RE2 (and so the API server) rejects.
 */
final class LiteralValidator implements CelAstValidator {
    static final LiteralValidator INSTANCE = new LiteralValidator();

    private LiteralValidator() {
    }

    @Override
    public void validate(CelNavigableAst ast, Cel cel, IssuesFactory issues) {
        ast.getRoot().allNodes().map(CelNavigableExpr::expr)
                .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.CALL)
                .forEach(e -> check(e, issues));
    }

    private static void check(CelExpr e, IssuesFactory issues) {
        var call = e.call();
        String function = call.function();
        CelExpr literal;
        if (function.equals("matches")) {
            literal = call.target().isPresent() && call.args().size() == 1 ? call.args().get(0)
                    : call.args().size() == 2 ? call.args().get(1) : null;
        } else if ((function.equals("duration") || function.equals("timestamp")) && call.target().isEmpty()
                && call.args().size() == 1) {
            literal = call.args().get(0);
        } else {
            return;
        }
        if (literal == null || literal.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || literal.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
            return;
        }
        String value = literal.constant().stringValue();
        Optional<String> reason = switch (function) {
            case "matches" -> regexError(value);
            case "duration" -> durationError(value);
            default -> timestampError(value);
        };
        reason.ifPresent(r -> issues.addError(literal.id(), "invalid " + function + " argument: " + r));
    }

    static Optional<String> regexError(String regex) {
        try {
            Pattern.compile(regex);
            return Optional.empty();
        } catch (PatternSyntaxException ex) {
            return Optional.of("error parsing regexp: " + ex.getMessage());
        }
    }

    /** Go's {@code time.ParseDuration}: {@code 1h30m}, {@code 1.5s}, {@code .5s}, {@code 0}; no days; about ±292 years. */
    static Optional<String> durationError(String text) {
        if (GoConversions.parseGoDuration(text) == null) {
            return Optional.of("type conversion error from 'string' to 'google.protobuf.Duration'");
        }
        return Optional.empty();
    }

    /** RFC 3339 with a time zone, as cel-go's {@code time.Parse(time.RFC3339, ...)}. */
    static Optional<String> timestampError(String text) {
        try {
            Instant.from(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text));
            return Optional.empty();
        } catch (DateTimeParseException ex) {
            return Optional.of("type conversion error from 'string' to 'google.protobuf.Timestamp'");
        }
    }
}
