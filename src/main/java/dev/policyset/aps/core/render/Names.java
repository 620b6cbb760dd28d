package dev.policyset.aps.core.render;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one place a generated object's name is made or checked.
 *
 * <p>Scheme: a member's {@code name} is the object's {@code metadata.name}, verbatim: what you write is
 * what you get, so {@code kubectl get} finds it by the name in Git. The only name the operator makes up
 * is a policy's default binding, {@code <policy>-binding}. All six kinds are cluster-scoped and the API
 * server requires a DNS-1123 subdomain: at most 253 characters of lower-case alphanumerics, '-' and '.',
 * starting and ending with an alphanumeric ({@code apimachinery/pkg/util/validation: IsDNS1123Subdomain}).
 * Names are never truncated or hashed: a name that does not fit is a finding, not a surprise.
 *
 * <p>It also holds the other name formats the API server checks ({@code apimachinery/pkg/util/validation}:
 * DNS-1123/1035 labels, qualified names, label values, path-segment names), each returning the API server's
 * messages, one per problem: the validator reports one error per message, as the API server does. Lengths
 * are counted in UTF-8 bytes, as Go's {@code len} does.
 */
public final class Names {
    public static final int MAX_LENGTH = 253;
    public static final String DEFAULT_BINDING_SUFFIX = "-binding";

    /** DNS-1123 labels, DNS-1035 labels, qualified-name parts and label values. */
    public static final int MAX_LABEL_LENGTH = 63;

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern DNS1123_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final String QUALIFIED_NAME_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FORMAT);
    private static final Pattern LABEL_VALUE = Pattern.compile("(" + QUALIFIED_NAME_FORMAT + ")?");

    private Names() {}

    /** The name of the binding generated for a policy whose {@code bindings} list is absent. */
    public static String defaultBindingName(String policyName) {
        return policyName + DEFAULT_BINDING_SUFFIX;
    }

    /**
     * What is wrong with a name as a DNS-1123 subdomain, in the API server's words; empty when nothing is.
     */
    public static List<String> subdomainProblems(String name) {
        List<String> problems = new ArrayList<>();
        if (byteLength(name) > MAX_LENGTH) {
            problems.add("must be no more than " + MAX_LENGTH + " characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(name).matches()) {
            problems.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                    + "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                    + "validation is '" + DNS1123_SUBDOMAIN.pattern() + "')");
        }
        return problems;
    }

    public static boolean isValidSubdomain(String name) {
        return subdomainProblems(name).isEmpty();
    }

    /**
     * {@code NameIsDNSSubdomain(name, prefix=true)}: a {@code generateName} is checked as the start of a
     * subdomain, so a trailing '-' is allowed.
     */
    public static List<String> subdomainPrefixProblems(String prefix) {
        String masked = prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) + "a" : prefix;
        return subdomainProblems(masked);
    }

    /** {@code IsDNS1123Label}: at most 63 lower-case alphanumerics or '-', alphanumeric at both ends. */
    public static List<String> dns1123LabelProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > MAX_LABEL_LENGTH) {
            problems.add(maxLength(MAX_LABEL_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            problems.add("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                    + "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                    + "validation is '" + DNS1123_LABEL.pattern() + "')");
        }
        return problems;
    }

    /** {@code IsDNS1035Label}: like a DNS-1123 label, but starting with a letter. */
    public static List<String> dns1035LabelProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > MAX_LABEL_LENGTH) {
            problems.add(maxLength(MAX_LABEL_LENGTH));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            problems.add("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                    + "regex used for validation is '" + DNS1035_LABEL.pattern() + "')");
        }
        return problems;
    }

    /**
     * {@code IsQualifiedName}: {@code [prefix/]name}, the prefix a DNS-1123 subdomain, the name at most 63
     * alphanumerics, '-', '_' or '.', alphanumeric at both ends (label keys, annotation keys, finalizers,
     * matchCondition names).
     */
    public static List<String> qualifiedNameProblems(String value) {
        List<String> problems = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    problems.add("prefix part must be non-empty");
                } else {
                    subdomainProblems(prefix).forEach(p -> problems.add("prefix part " + p));
                }
            }
            default -> {
                problems.add("a qualified name " + qualifiedNameFormat()
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return problems;
            }
        }
        if (name.isEmpty()) {
            problems.add("name part must be non-empty");
        } else if (byteLength(name) > MAX_LABEL_LENGTH) {
            problems.add("name part " + maxLength(MAX_LABEL_LENGTH));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            problems.add("name part " + qualifiedNameFormat());
        }
        return problems;
    }

    /** {@code IsValidLabelValue}: empty, or at most 63 alphanumerics, '-', '_' or '.', alphanumeric at both ends. */
    public static List<String> labelValueProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > MAX_LABEL_LENGTH) {
            problems.add(maxLength(MAX_LABEL_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            problems.add("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    + "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                    + "'12345', regex used for validation is '" + LABEL_VALUE.pattern() + "')");
        }
        return problems;
    }

    /** {@code IsPathSegmentName}: usable as one URL path segment (resource names, param names). */
    public static List<String> pathSegmentNameProblems(String name) {
        if (name.equals(".") || name.equals("..")) {
            return List.of("may not be '" + name + "'");
        }
        List<String> problems = new ArrayList<>();
        for (String illegal : List.of("/", "%")) {
            if (name.contains(illegal)) {
                problems.add("may not contain '" + illegal + "'");
            }
        }
        return problems;
    }

    /** Go's {@code len(s)}: the length in UTF-8 bytes. */
    public static int byteLength(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }

    private static String maxLength(int max) {
        return "must be no more than " + max + " characters";
    }

    private static String qualifiedNameFormat() {
        return "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '"
                + QUALIFIED_NAME_FORMAT + "')";
    }
}
