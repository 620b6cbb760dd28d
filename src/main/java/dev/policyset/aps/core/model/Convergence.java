package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * Does a live object already carry everything the operator would apply? The check is "desired is contained
 * in actual": fields the API server defaults (e.g. {@code matchPolicy}) or others own (cert-manager's
 * {@code caBundle}) are in actual only and do not count as drift, so the operator neither fights over them
 * nor re-applies on every resync. Lists compare element by element (same length, each contained); an
 * empty list or object in desired matches an absent field (the API server omits empty values).
 */
public final class Convergence {
    private Convergence() {}

    public static boolean contains(JsonNode actual, JsonNode desired) {
        if (desired == null || desired.isNull()) {
            return true;
        }
        if (isEmptyContainer(desired) && (actual == null || actual.isNull() || isEmptyContainer(actual))) {
            return true;
        }
        if (actual == null || actual.isNull()) {
            return false;
        }
        if (desired.isObject()) {
            if (!actual.isObject()) {
                return false;
            }
            Iterator<Map.Entry<String, JsonNode>> fields = desired.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (!contains(actual.get(f.getKey()), f.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isArray()) {
            if (!actual.isArray() || actual.size() != desired.size()) {
                return false;
            }
            for (int i = 0; i < desired.size(); i++) {
                if (!contains(actual.get(i), desired.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isNumber() && actual.isNumber()) {
            return desired.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        return desired.equals(actual);
    }

    private static boolean isEmptyContainer(JsonNode node) {
        return (node.isObject() || node.isArray()) && node.isEmpty();
    }
}
