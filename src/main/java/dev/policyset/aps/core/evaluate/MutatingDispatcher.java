package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.List;

/** The MutatingAdmissionPolicy plugin (placeholder until mutation lands: no policy mutates). */
final class MutatingDispatcher {
    record Result(ObjectNode object, String rejection, String rejectionReason, List<String> errors, List<String> trace) {}

    private MutatingDispatcher() {}

    static Result dispatch(PolicyConfiguration config, AdmissionRequest r, Fixtures fixtures, KubeVersion version) {
        return new Result(r.object(), null, null, List.of(), List.of());
    }
}
