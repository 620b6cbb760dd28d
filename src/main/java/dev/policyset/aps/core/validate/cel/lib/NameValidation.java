package dev.policyset.aps.core.validate.cel.lib;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The apimachinery name checks the format and authz libraries use ({@code util/validation/validation.go},
 * {@code api/validation/generic.go}), with their messages. Patterns are matched against the whole string.
 */
final class NameValidation {
    private NameValidation() {
    }

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters "
            + "or '-', start with an alphabetic character, and end with an alphanumeric character";
    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must "
            + "start and end with an alphanumeric character";
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";

    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);

    static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    static String regexError(String msg, String fmt, String... examples) {
        if (examples.length == 0) {
            return msg + " (regex used for validation is '" + fmt + "')";
        }
        StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                sb.append(" or ");
            }
            sb.append('\'').append(examples[i]).append("', ");
        }
        return sb.append("regex used for validation is '").append(fmt).append("')").toString();
    }

    /** Go's {@code len} counts UTF-8 bytes. */
    private static int len(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    static List<String> isDns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (len(value) > 63) {
            errs.add(maxLenError(63));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                errs.add("must not contain dots");
            } else {
                errs.add(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
            }
        }
        return errs;
    }

    static List<String> isDns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (len(value) > 253) {
            errs.add(maxLenError(253));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    static List<String> isDns1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (len(value) > 63) {
            errs.add(maxLenError(63));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errs;
    }

    static List<String> isQualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                isDns1123Subdomain(prefix).forEach(m -> errs.add("prefix part " + m));
            }
        } else {
            errs.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errs;
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (len(name) > 63) {
            errs.add("name part " + maxLenError(63));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    static List<String> isValidLabelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (len(value) > 63) {
            errs.add(maxLenError(63));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    /** {@code maskTrailingDash}: a generateName prefix may end in '-'; the last two characters become "a". */
    static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }

    static List<String> nameIsDnsLabel(String name, boolean prefix) {
        return isDns1123Label(prefix ? maskTrailingDash(name) : name);
    }

    static List<String> nameIsDnsSubdomain(String name, boolean prefix) {
        return isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);
    }

    static List<String> nameIsDns1035Label(String name, boolean prefix) {
        return isDns1035Label(prefix ? maskTrailingDash(name) : name);
    }
}
