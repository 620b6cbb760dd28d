package dev.policyset.aps.core.util;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one port of the API server's name grammar, used by the API-server rules, the CEL {@code format} and
 * {@code authz} libraries, and the renderer's checks: {@code apimachinery/pkg/util/validation/validation.go}
 * ({@code IsDNS1123Label}, {@code IsDNS1123Subdomain}, {@code IsDNS1035Label}, {@code IsQualifiedName},
 * {@code IsValidLabelValue}, {@code RegexError}, {@code MaxLenError}), {@code apimachinery/pkg/api/validation/generic.go}
 * ({@code NameIsDNSSubdomain} and friends with {@code maskTrailingDash}) and {@code path/name.go}
 * ({@code IsValidPathSegmentName}). Every function returns the API server's messages, one per problem; lengths
 * are UTF-8 bytes, as Go's {@code len}. Patterns match the whole string.
 */
public final class NameFormats {
    public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
    /** DNS-1123 labels, DNS-1035 labels, qualified-name parts and label values. */
    public static final int LABEL_MAX_LENGTH = 63;

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

    private NameFormats() {}

    /** {@code IsDNS1123Subdomain}: at most 253 bytes of lower-case alphanumerics, '-' and '.', alphanumeric at both ends. */
    public static List<String> subdomainProblems(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    /** {@code IsDNS1123Label}; a valid subdomain that is not a label can only have dots, and says so. */
    public static List<String> dns1123LabelProblems(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > LABEL_MAX_LENGTH) {
            errs.add(maxLenError(LABEL_MAX_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            errs.add(DNS1123_SUBDOMAIN.matcher(value).matches() ? "must not contain dots"
                    : regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
        }
        return errs;
    }

    /** {@code IsDNS1035Label}: like a DNS-1123 label, but starting with a letter. */
    public static List<String> dns1035LabelProblems(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > LABEL_MAX_LENGTH) {
            errs.add(maxLenError(LABEL_MAX_LENGTH));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errs;
    }

    /**
     * {@code IsQualifiedName}: {@code [prefix/]name}, the prefix a DNS-1123 subdomain, the name at most 63
     * alphanumerics, '-', '_' or '.', alphanumeric at both ends (label and annotation keys, finalizers, ...).
     */
    public static List<String> qualifiedNameProblems(String value) {
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
                subdomainProblems(prefix).forEach(m -> errs.add("prefix part " + m));
            }
        } else {
            errs.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errs;
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (byteLength(name) > LABEL_MAX_LENGTH) {
            errs.add("name part " + maxLenError(LABEL_MAX_LENGTH));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    /** {@code IsValidLabelValue}: empty, or at most 63 alphanumerics, '-', '_' or '.', alphanumeric at both ends. */
    public static List<String> labelValueProblems(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > LABEL_MAX_LENGTH) {
            errs.add(maxLenError(LABEL_MAX_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    /** {@code IsValidPathSegmentName}: usable as one URL path segment (resource names, param names). */
    public static List<String> pathSegmentNameProblems(String name) {
        if (name.equals(".") || name.equals("..")) {
            return List.of("may not be '" + name + "'");
        }
        List<String> errs = new ArrayList<>();
        for (String illegal : List.of("/", "%")) {
            if (name.contains(illegal)) {
                errs.add("may not contain '" + illegal + "'");
            }
        }
        return errs;
    }

    /** {@code NameIsDNSSubdomain(name, prefix)}: a {@code generateName} prefix may end in '-'. */
    public static List<String> nameIsDnsSubdomain(String name, boolean prefix) {
        return subdomainProblems(prefix ? maskTrailingDash(name) : name);
    }

    /** {@code NameIsDNSLabel(name, prefix)}. */
    public static List<String> nameIsDnsLabel(String name, boolean prefix) {
        return dns1123LabelProblems(prefix ? maskTrailingDash(name) : name);
    }

    /** {@code NameIsDNS1035Label(name, prefix)}. */
    public static List<String> nameIsDns1035Label(String name, boolean prefix) {
        return dns1035LabelProblems(prefix ? maskTrailingDash(name) : name);
    }

    /**
     * {@code maskTrailingDash}: a trailing '-' of a prefix is made valid before the check. Upstream drops the last
     * two characters and appends one ({@code name[:len(name)-2] + "a"}); kept as it is, since it decides which
     * prefixes pass.
     */
    static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }

    /** Go's {@code len(s)}: the length in UTF-8 bytes. */
    public static int byteLength(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@code MaxLenError}. */
    public static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    /** {@code RegexError}: the message, the examples and the pattern, worded as upstream (double space included). */
    public static String regexError(String msg, String fmt, String... examples) {
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
}
