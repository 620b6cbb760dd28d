package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;

import java.util.regex.Pattern;

/**
 * Quotes every string a YAML 1.1 reader (kubectl, Go's yaml, snakeyaml) could take for a number, so that
 * a string such as {@code "0x1F"} or {@code "1e3"} survives a round trip. Jackson's default only knows
 * plain decimal numbers and the boolean/null words.
 */
final class QuoteAmbiguousScalars extends StringQuotingChecker.Default {
    private static final Pattern NUMBER_LIKE = Pattern.compile(
            "[-+]?(\\.?[0-9].*|\\.(inf|Inf|INF|nan|NaN|NAN))");

    @Override
    public boolean needToQuoteValue(String value) {
        return super.needToQuoteValue(value) || NUMBER_LIKE.matcher(value).matches();
    }
}
