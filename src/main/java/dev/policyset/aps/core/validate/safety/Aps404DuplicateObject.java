package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * APS404: two objects of the same kind and name in one input. All six kinds are cluster-scoped, so only one
 * of them can exist; whichever is applied last silently wins.
 */
public final class Aps404DuplicateObject implements SafetyRule {
    @Override
    public String id() {
        return "APS404";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        Map<String, List<ValidationSubject>> byId = new LinkedHashMap<>();
        for (ValidationSubject s : context.subjects()) {
            byId.computeIfAbsent(s.object().id(), k -> new ArrayList<>()).add(s);
        }
        List<Finding> out = new ArrayList<>();
        byId.forEach((objectId, list) -> {
            if (list.size() > 1) {
                List<String> origins = list.stream().map(Subjects::describeOrigin).toList();
                out.add(Finding.error(id(), objectId, "metadata.name",
                        objectId + " is defined " + list.size() + " times (" + String.join("; ", origins) + "): these "
                                + "objects are cluster-scoped, so only one can exist and the last one applied wins. "
                                + "Rename one of them or remove the duplicate"));
            }
        });
        return out;
    }
}
