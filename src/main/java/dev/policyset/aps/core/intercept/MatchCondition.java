package dev.policyset.aps.core.intercept;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code matchConditions} entry. The API server calls the webhook (or evaluates the policy) only when every
 * condition is true, and evaluates them again on reinvocation.
 *
 * <p>This model does not evaluate CEL. It decides a condition only in a few recognised forms that test nothing but
 * the request's resource or namespace (whitespace and quote style do not matter):
 * <ul>
 *   <li>{@code request.resource.group != "g"} (and {@code ==}), {@code request.resource.resource != "r"} (and {@code ==}),</li>
 *   <li>{@code !(request.resource.group == "g" && request.resource.resource == "r")},</li>
 *   <li>{@code request.namespace != "n"} (and {@code ==}).</li>
 * </ul>
 * Any other condition is <em>undecided</em>: the verdict says so and names it, and a caller that can evaluate CEL
 * on a concrete request ({@code aps test}) evaluates {@link Verdict#conditionsToEvaluate()} itself.
 */
public record MatchCondition(String path, String name, String expression) {
    private static final String STR = "[\"']([^\"']*)[\"']";
    private static final Pattern COMPARE = Pattern.compile(
            "^request\\.(resource\\.group|resource\\.resource|namespace)\\s*(==|!=)\\s*" + STR + "$");
    private static final Pattern NOT_GROUP_RESOURCE = Pattern.compile(
            "^!\\(\\s*request\\.resource\\.group\\s*==\\s*" + STR + "\\s*&&\\s*request\\.resource\\.resource\\s*==\\s*" + STR + "\\s*\\)$");

    public static List<MatchCondition> readAll(JsonNode list, String path) {
        List<MatchCondition> out = new ArrayList<>();
        if (list == null || !list.isArray()) {
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode c = list.get(i);
            JsonNode expression = c.get("expression");
            if (c.isObject() && expression != null && expression.isTextual()) {
                JsonNode name = c.get("name");
                out.add(new MatchCondition(path + "[" + i + "]", name != null && name.isTextual() ? name.asText() : "",
                        expression.asText()));
            }
        }
        return out;
    }

    /** How messages name it: {@code matchConditions[0] "exclude-leases"}. */
    public String label() {
        return path + (name.isEmpty() ? "" : " \"" + name + "\"");
    }

    /** Whether this condition is one of the recognised forms (so {@link #evaluate} never says UNKNOWN). */
    public boolean recognised() {
        String e = expression.strip();
        return COMPARE.matcher(e).matches() || NOT_GROUP_RESOURCE.matcher(e).matches();
    }

    Tri evaluate(AdmissionRequest r) {
        String e = expression.strip();
        Matcher m = COMPARE.matcher(e);
        if (m.matches()) {
            String actual = switch (m.group(1)) {
                case "resource.group" -> r.group();
                case "resource.resource" -> r.resource();
                default -> r.namespace();
            };
            boolean equal = actual.equals(m.group(3));
            return Tri.of(m.group(2).equals("==") == equal);
        }
        m = NOT_GROUP_RESOURCE.matcher(e);
        if (m.matches()) {
            return Tri.of(!(r.group().equals(m.group(1)) && r.resource().equals(m.group(2))));
        }
        return Tri.UNKNOWN;
    }
}
