package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.ExistingObjectMutation;

import java.util.ArrayList;
import java.util.List;

/**
 * The counts and samples of one MutatingAdmissionPolicy binding while the existing objects go by. Flagged objects
 * (refused, not idempotent, failed) are sampled before plain changes, so a limit filled by changes does not hide them.
 */
final class MutationTally {
    private final ExistingObjectMutation mutation;
    private final int sampleLimit;
    private final List<MutatingBindingImpact.Sample> flagged = new ArrayList<>();
    private final List<MutatingBindingImpact.Sample> plain = new ArrayList<>();
    private int matched;
    private int changed;
    private int noop;
    private int refused;
    private int errors;
    private int errorsAdmitted;
    private int notIdempotent;
    private int notIdempotentOnUpdate;

    MutationTally(ExistingObjectMutation mutation, int sampleLimit) {
        this.mutation = mutation;
        this.sampleLimit = sampleLimit;
    }

    ExistingObjectMutation mutation() {
        return mutation;
    }

    void add(ObjectNode object, ExistingObjectMutation.Mutation m) {
        if (!m.applied()) {
            return;
        }
        matched++;
        if (!m.errors().isEmpty()) {
            errors++;
        }
        String immutable = m.changed() && m.operation().equals("UPDATE") ? ImmutableFields.refusal(m.before(), m.after()) : null;
        if (m.rejection() != null || immutable != null) {
            refused++;
            String reason = immutable != null ? "immutable" : m.internal() || isSchemaError(m.rejection()) ? "schema" : "error";
            keep(flagged, object, m, MutatingBindingImpact.REFUSED, reason, immutable != null ? immutable : m.rejection(),
                    immutable != null);
            return;
        }
        if (!m.errors().isEmpty()) {
            errorsAdmitted++;
        }
        if (!m.changed()) {
            noop++;
            if (!m.errors().isEmpty()) {
                keep(flagged, object, m, MutatingBindingImpact.ERROR, "", m.errors().get(0), false);
            }
            return;
        }
        changed++;
        if (m.notIdempotent()) {
            notIdempotent++;
            if (m.operation().equals("UPDATE")) {
                notIdempotentOnUpdate++;
            }
            String again = m.againError() != null ? "applied again to its own output, the request is refused: " + m.againError()
                    : "applied again to its own output, it changes " + String.join("; ", ObjectChanges.between(m.after(), m.again())
                    .stream().limit(3).map(ObjectChanges.Change::describe).toList());
            keep(flagged, object, m, MutatingBindingImpact.NOT_IDEMPOTENT, "", again, true);
        } else if (!m.errors().isEmpty()) {
            keep(flagged, object, m, MutatingBindingImpact.ERROR, "", m.errors().get(0), true);
        } else {
            keep(plain, object, m, MutatingBindingImpact.CHANGED, "", "", true);
        }
    }

    /**
     * Errors the patched object's decoding raises (what the API server's type machinery refuses), as against errors
     * of the policy's own evaluation: see {@code Mutations.apply} and {@code ApplyConfigurations} for their text.
     */
    static boolean isSchemaError(String message) {
        return message.contains("strict decoding error") || message.contains("field not declared in schema")
                || message.contains("type mismatch:") || message.contains("may not mutate atomic arrays, maps or structs");
    }

    private void keep(List<MutatingBindingImpact.Sample> list, ObjectNode object, ExistingObjectMutation.Mutation m,
                      String outcome, String reason, String message, boolean diff) {
        if (flagged.size() + (list == plain ? plain.size() : 0) >= sampleLimit) {
            return;
        }
        List<ObjectChanges.Change> changes = diff ? ObjectChanges.between(m.before(), m.after()) : List.of();
        int shown = Math.min(changes.size(), ObjectChanges.MAX_PER_SAMPLE);
        list.add(new MutatingBindingImpact.Sample(ImpactScan.describe(object), m.operation(), outcome, reason, message,
                changes.subList(0, shown), changes.size() - shown));
    }

    MutatingBindingImpact impact() {
        List<MutatingBindingImpact.Sample> samples = new ArrayList<>(flagged);
        plain.stream().limit(Math.max(0, sampleLimit - flagged.size())).forEach(samples::add);
        return new MutatingBindingImpact(mutation.policy().name(), mutation.binding().name(), mutation.failClosed(),
                mutation.reinvoked(), matched, changed, noop, refused, errors, errorsAdmitted, notIdempotent, notIdempotentOnUpdate, samples);
    }
}
