package dev.policyset.aps.cli;

import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.suite.ObjectDiff;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the offline evaluation and the API server answered one request differently: what the client sees
 * (verdict, code, message, warnings) and, for an admitted request, the fields the offline mutation produced that
 * the server's object does not hold as such (the server's object also has its defaults and metadata).
 */
final class OfflineComparison {
    private OfflineComparison() {}

    static List<String> differences(AdmissionOutcome offline, AdmissionOutcome server) {
        List<String> d = new ArrayList<>();
        if (offline == null || server == null) {
            return d;
        }
        if (offline.allowed() != server.allowed()) {
            d.add("offline " + verdict(offline) + ", server " + verdict(server));
            return d;
        }
        if (offline.code() != server.code()) {
            d.add("code offline " + offline.code() + ", server " + server.code());
        }
        if (!offline.message().equals(server.message())) {
            d.add("message offline '" + offline.message() + "', server '" + server.message() + "'");
        }
        if (!offline.warnings().equals(server.warnings())) {
            d.add("warnings offline " + offline.warnings() + ", server " + server.warnings());
        }
        if (offline.allowed() && offline.object() != null && server.object() != null) {
            ObjectDiff.diff(withoutMetadata(offline), server.object(), true).forEach(x -> d.add("object " + x));
        }
        return d;
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode withoutMetadata(AdmissionOutcome o) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = o.object().deepCopy();
        // what a mutation may set in metadata; the rest is the server's (uid, timestamps, managedFields)
        com.fasterxml.jackson.databind.node.ObjectNode meta = copy.with("metadata");
        meta.retain("labels", "annotations");
        if (meta.isEmpty()) {
            copy.remove("metadata");
        }
        copy.remove("status");
        return copy;
    }

    private static String verdict(AdmissionOutcome o) {
        return o.allowed() ? "allowed" : "denied (" + o.code() + " " + o.message() + ")";
    }
}
