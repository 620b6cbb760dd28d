package dev.policyset.aps.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Tests that paste a fix back into an object find the expression a finding names by its field path. */
public final class FieldPaths {
    private static final Pattern STEP = Pattern.compile("([^.\\[]+)(?:\\[(\\d+)])?");

    private FieldPaths() {}

    /** The node at a finding's field, e.g. {@code spec.validations[0].expression}; a missing node if there is none. */
    public static JsonNode at(JsonNode root, String field) {
        JsonNode n = root;
        for (String part : field.split("\\.")) {
            Matcher m = STEP.matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a field path: " + field);
            }
            n = n.path(m.group(1));
            if (m.group(2) != null) {
                n = n.path(Integer.parseInt(m.group(2)));
            }
        }
        return n;
    }
}
