package dev.policyset.aps.core.render;

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
 */
public final class Names {
    public static final int MAX_LENGTH = 253;
    public static final String DEFAULT_BINDING_SUFFIX = "-binding";

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");

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
        if (name.length() > MAX_LENGTH) {
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
}
