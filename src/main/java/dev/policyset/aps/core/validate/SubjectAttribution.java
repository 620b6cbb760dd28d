package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which subject each safety finding is about. A rule names its object by {@code Kind/name} only; when that id is
 * unique in the input, it says which subject. When several subjects share it (the same object in two
 * environments, or copies), the rule is run again on <em>layers</em> of the input in which every id is unique:
 * layer j holds the j-th definition of each repeated id (the last one where it has fewer) and every other subject,
 * so rules that pair objects still see their partners. A finding of the whole input is given to the definition
 * whose layer produced the same finding. One no layer produces — a finding that exists only because of the
 * repetition, such as APS404 — stays with the first definition.
 *
 * <p>Rules are treated as black boxes: nothing here depends on what a rule checks. Layers run only for the rules
 * that reported on a repeated id, and stop once each of those findings has found its definition.
 */
final class SubjectAttribution {
    private final List<ValidationSubject> subjects;
    private final Map<String, List<Integer>> definitions = new LinkedHashMap<>();
    private final int layers;

    SubjectAttribution(List<ValidationSubject> subjects) {
        this.subjects = subjects;
        for (int i = 0; i < subjects.size(); i++) {
            definitions.computeIfAbsent(subjects.get(i).object().id(), k -> new ArrayList<>()).add(i);
        }
        this.layers = definitions.values().stream().mapToInt(List::size).max().orElse(0);
    }

    /** The rule's findings over the whole input, each with its subject. */
    List<AttributedFinding> attribute(SafetyRule rule, SafetyContext whole, List<Finding> found) {
        List<AttributedFinding> out = new ArrayList<>(found.size());
        List<Integer> pending = new ArrayList<>(); // positions in out still waiting for a layer
        for (Finding f : found) {
            List<Integer> defs = definitions.get(f.object());
            if (defs == null) {
                out.add(new AttributedFinding(f, -1));
            } else {
                out.add(new AttributedFinding(f, defs.get(0)));
                if (defs.size() > 1) {
                    pending.add(out.size() - 1);
                }
            }
        }
        for (int layer = 0; layer < layers && !pending.isEmpty(); layer++) {
            List<ValidationSubject> members = new ArrayList<>();
            Map<String, Integer> definitionInLayer = new HashMap<>();
            for (Map.Entry<String, List<Integer>> e : definitions.entrySet()) {
                List<Integer> defs = e.getValue();
                int index = defs.get(Math.min(layer, defs.size() - 1));
                members.add(subjects.get(index));
                if (layer < defs.size()) {
                    definitionInLayer.put(e.getKey(), index); // only new definitions: each is matched once
                }
            }
            List<Finding> layerFindings;
            try {
                layerFindings = rule.check(new SafetyContext(members, whole.options()));
            } catch (RuntimeException e) {
                continue; // already reported for the whole input; the findings keep their first definition
            }
            List<Finding> unmatched = new ArrayList<>(layerFindings);
            for (var it = pending.iterator(); it.hasNext(); ) {
                int position = it.next();
                Finding f = out.get(position).finding();
                Integer index = definitionInLayer.get(f.object());
                if (index != null && unmatched.remove(f)) {
                    out.set(position, new AttributedFinding(f, index));
                    it.remove();
                }
            }
        }
        return out;
    }

    boolean hasRepeatedIds() {
        return layers > 1;
    }
}
