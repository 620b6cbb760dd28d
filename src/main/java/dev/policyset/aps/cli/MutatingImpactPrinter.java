package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.impact.ImpactReport;
import dev.policyset.aps.core.impact.MutatingBindingImpact;
import dev.policyset.aps.core.impact.ObjectChanges;

import java.io.PrintWriter;

/**
 * The mutating part of {@code aps impact}: text beside the validating part, and JSON fields added beside the
 * validating ones ({@code mutatingBindings}, and counts in {@code summary}). Prints nothing when the configuration
 * has no MutatingAdmissionPolicy binding, so a validating-only run reads as before.
 */
final class MutatingImpactPrinter {
    private MutatingImpactPrinter() {}

    static void text(ImpactReport r, PrintWriter out) {
        if (r.mutating().isEmpty()) {
            return;
        }
        out.println();
        out.println("Impact of " + r.mutating().size() + " MutatingAdmissionPolicy binding(s) on the same objects and "
                + "requests; each change applied once more to its own output to test idempotence");
        for (MutatingBindingImpact b : r.mutating()) {
            out.println();
            out.println("MutatingAdmissionPolicy " + b.policy() + ", binding " + b.binding() + ", failurePolicy "
                    + (b.failClosed() ? "Fail" : "Ignore") + ", reinvocationPolicy " + (b.reinvoked() ? "IfNeeded" : "Never"));
            out.println("  matched " + b.matched() + "; would change " + b.changed() + ", leave as they are " + b.noop()
                    + ", refused by the server " + b.refused() + "; mutation errors " + b.errors() + "; not idempotent "
                    + b.notIdempotent());
            for (MutatingBindingImpact.Sample s : b.samples()) {
                String outcome = s.outcome() + (s.reason().isEmpty() ? "" : ": " + s.reason());
                out.println("  - " + s.object() + " (" + s.operation() + ", " + outcome + ")"
                        + (s.message().isEmpty() ? "" : ": " + s.message()));
                s.changes().forEach(c -> out.println("      " + c.describe()));
                if (s.omittedChanges() > 0) {
                    out.println("      ... and " + s.omittedChanges() + " more change(s) (--output json lists the same)");
                }
            }
            int more = b.changed() + b.refused() - b.samples().size();
            if (more > 0) {
                out.println("  ... and " + more + " more (--samples N names more)");
            }
        }
    }

    static void summary(ImpactReport r, PrintWriter out) {
        if (r.mutating().isEmpty()) {
            return;
        }
        out.println(changing(r) + " of " + r.mutating().size() + " mutating binding(s) would change existing objects; "
                + r.refusing().size() + " would make the server refuse writes; " + notIdempotent(r) + " not idempotent");
    }

    static void json(ImpactReport r, ObjectNode root) {
        ArrayNode rows = root.putArray("mutatingBindings");
        for (MutatingBindingImpact b : r.mutating()) {
            ObjectNode o = rows.addObject();
            o.put("policy", b.policy()).put("binding", b.binding()).put("failurePolicy", b.failClosed() ? "Fail" : "Ignore")
                    .put("reinvocationPolicy", b.reinvoked() ? "IfNeeded" : "Never").put("matched", b.matched())
                    .put("changed", b.changed()).put("noop", b.noop()).put("refused", b.refused()).put("errors", b.errors())
                    .put("notIdempotent", b.notIdempotent());
            ArrayNode samples = o.putArray("samples");
            for (MutatingBindingImpact.Sample s : b.samples()) {
                ObjectNode sample = samples.addObject().put("object", s.object()).put("operation", s.operation())
                        .put("outcome", s.outcome());
                if (!s.reason().isEmpty()) {
                    sample.put("reason", s.reason());
                }
                if (!s.message().isEmpty()) {
                    sample.put("message", s.message());
                }
                ArrayNode changes = sample.putArray("changes");
                for (ObjectChanges.Change c : s.changes()) {
                    ObjectNode change = changes.addObject().put("op", c.op()).put("path", c.path());
                    if (c.old() != null) {
                        change.set("old", c.old());
                    }
                    if (c.value() != null) {
                        change.set("value", c.value());
                    }
                }
                if (s.omittedChanges() > 0) {
                    sample.put("omittedChanges", s.omittedChanges());
                }
            }
        }
    }

    static void summary(ImpactReport r, ObjectNode summary) {
        summary.put("mutatingBindings", r.mutating().size()).put("changing", changing(r))
                .put("refusing", r.refusing().size()).put("notIdempotent", notIdempotent(r));
    }

    private static long changing(ImpactReport r) {
        return r.mutating().stream().filter(b -> b.changed() > 0).count();
    }

    private static long notIdempotent(ImpactReport r) {
        return r.mutating().stream().filter(b -> b.notIdempotent() > 0).count();
    }
}
