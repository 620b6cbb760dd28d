package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * APS403: the set would generate an object that already exists and is not the set's (another set's, or made by
 * hand): DESIGN §3, a set never takes over an object it does not own. Ownership is the set label; the cluster
 * view answers (nothing offline). Not waivable: an exemption or {@code enforcement: Warn} would mean a forced
 * apply over someone else's object.
 */
public final class Aps403ForeignObject implements SafetyRule {
    @Override
    public String id() {
        return "APS403";
    }

    @Override
    public boolean waivable() {
        return false;
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject s : context.subjects()) {
            if (s.setName() == null) {
                continue;
            }
            Optional<LiveObject> live = context.options().cluster().find(s.object().kind(), s.object().name());
            if (live.isEmpty() || live.get().isLabelledFor(s.setName())) {
                continue;
            }
            String id = s.object().id();
            out.add(Finding.error(id(), id, "metadata.name", id + " already exists and "
                    + live.get().setLabel().map(owner -> "belongs to AdmissionPolicySet " + owner)
                    .orElse("was not created by an AdmissionPolicySet")
                    + "; the set never takes over an object it does not own: rename the member, or delete or release "
                    + "the existing object"));
        }
        return out;
    }
}
