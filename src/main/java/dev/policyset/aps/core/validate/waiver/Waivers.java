package dev.policyset.aps.core.validate.waiver;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.finding.Waiver;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.validate.AttributedFinding;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The waivers of one validation run and what became of them. Each subject is governed by the waivers written for
 * it: a set's objects by the set's {@code spec.safety.exemptions} (which the operator applies too), a bare object by
 * its own {@value Exemption#ANNOTATION} annotation and the repository's waivers. A set's objects are never waived by
 * an annotation or a repository file: the CLI and the operator must agree on what blocks a set.
 *
 * <p>A waived finding becomes {@code info}, keeps its message behind the reason and records the {@link Waiver}. An
 * expired waiver waives nothing: the finding keeps its severity and says which waiver expired. Afterwards every
 * waiver that matched no finding is reported (APS901), and every expired one (APS902), so that a waiver cannot
 * outlive the finding it was written for unnoticed.
 */
public final class Waivers {
    /** A waiver or exemption that matches no finding. */
    public static final String UNMATCHED = "APS901";
    /** A waiver that cannot waive anything: no reason, a rule that cannot be waived, no pattern, expired. */
    public static final String UNUSABLE = "APS902";

    private final List<ValidationSubject> subjects;
    private final List<List<Exemption>> bySubject = new ArrayList<>();
    /** Every waiver once, in the order written, with the subject whose annotation holds it (-1: none). */
    private final Map<Exemption, Integer> all = new IdentityHashMap<>();
    private final List<Exemption> order = new ArrayList<>();
    private final Set<Exemption> used = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The waivers of a {@code spec.safety} (a set's exemptions), as opposed to an annotation's or a file's. */
    private final Set<Exemption> exemptions = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<AttributedFinding> problems = new ArrayList<>();
    private final LocalDate today;

    /**
     * @param repository the repository's waivers (bare objects only)
     * @param today      the date expiries are judged on; null when there is no clock (nothing expires)
     */
    public Waivers(List<ValidationSubject> subjects, List<Exemption> repository, LocalDate today) {
        this.subjects = subjects;
        this.today = today;
        Map<SafetySettings, List<Exemption>> sets = new IdentityHashMap<>();
        for (int i = 0; i < subjects.size(); i++) {
            ValidationSubject s = subjects.get(i);
            // One list per set (its subjects share one SafetySettings), so a set's exemption is judged once.
            List<Exemption> mine = new ArrayList<>(sets.computeIfAbsent(s.safety(), safety -> placed(s.setName(), safety)));
            if (s.setName() == null) {
                WaiverAnnotation.Read read = WaiverAnnotation.read(s.object().id(), s.object().manifest().path("metadata"));
                int subject = i;
                read.problems().forEach(p -> problems.add(new AttributedFinding(p, subject)));
                read.waivers().forEach(w -> remember(w, subject));
                mine.addAll(read.waivers());
                mine.addAll(repository);
            }
            bySubject.add(mine);
        }
        repository.forEach(w -> remember(w, -1));
    }

    private List<Exemption> placed(String setName, SafetySettings safety) {
        List<Exemption> placed = new ArrayList<>();
        for (int k = 0; k < safety.exemptions().size(); k++) {
            Exemption e = safety.exemptions().get(k);
            String field = "spec.safety.exemptions[" + k + "]";
            Exemption at = e.source() != null ? e : e.at(new Exemption.Source(
                    setName == null ? "" : "AdmissionPolicySet/" + setName, field, field));
            placed.add(at);
            exemptions.add(at);
            remember(at, -1);
        }
        return placed;
    }

    private void remember(Exemption e, int subject) {
        if (!all.containsKey(e)) {
            all.put(e, subject);
            order.add(e);
        }
    }

    /**
     * One safety finding about {@code subject} (-1: none), after its waivers and its set's enforcement. Never called
     * for rules that may not be softened (APS403), and {@code api/*} findings pass unchanged.
     */
    public Finding govern(Finding finding, int subject) {
        if (finding.isApiServerRule() || subject < 0) {
            return finding;
        }
        List<Exemption> candidates = bySubject.get(subject).stream()
                .filter(e -> e.matches(finding.rule(), finding.object())).toList();
        Optional<Exemption> live = candidates.stream().filter(e -> !e.expiredOn(today)).findFirst();
        if (live.isPresent()) {
            Exemption e = live.get();
            used.add(e);
            return finding.waived(new Waiver(finding.severity(), e.reason(), e.source().description()), prefix(e));
        }
        Finding governed = finding;
        if (!candidates.isEmpty()) {
            Exemption expired = candidates.get(0);
            used.add(expired);
            governed = finding.withSeverity(finding.severity(), finding.message() + " (the waiver in "
                    + expired.source().description() + " expired on " + expired.expires() + " and no longer waives it)");
        }
        SafetySettings safety = subjects.get(subject).safety();
        if (safety.enforcement() == SafetySettings.Enforcement.WARN && governed.isError()) {
            return governed.withSeverity(Severity.WARNING, governed.message() + " (reported as a warning: enforcement is Warn)");
        }
        return governed;
    }

    /** A set's exemption reads as it always has; the others name where they were written. */
    private String prefix(Exemption e) {
        return exemptions.contains(e) ? "exempted (" + e.reason() + "): "
                : "waived by " + e.source().description() + " (" + e.reason() + "): ";
    }

    /** What is wrong with the waivers: unusable annotations, expired waivers, and those that matched nothing. */
    public List<AttributedFinding> report() {
        List<AttributedFinding> out = new ArrayList<>(problems);
        for (Exemption e : order) {
            if (e.rule() == null || e.object() == null) {
                continue; // a set's incomplete exemption: the set's reader has reported it
            }
            Exemption.Source at = e.source();
            int subject = all.get(e);
            String what = at.description() + ": the waiver of " + e.rule() + " for " + e.object();
            if (e.expiredOn(today)) {
                out.add(new AttributedFinding(Finding.warning(UNUSABLE, at.object(), at.field(), what + " expired on "
                        + e.expires() + ", so it no longer waives anything" + (used.contains(e)
                        ? " and the findings it waived are reported again" : "")
                        + "; review the risk and move the date, or remove the waiver"), subject));
            } else if (!used.contains(e)) {
                String scope = exemptions.contains(e) ? "" : " (it applies to bare objects "
                        + "only; an AdmissionPolicySet's objects are waived in its spec.safety.exemptions)";
                out.add(new AttributedFinding(Finding.warning(UNMATCHED, at.object(), at.field(), what
                        + " matches no finding" + scope + "; remove it if the finding it was written for is gone, or "
                        + "correct the rule or the object"), subject));
            }
        }
        return out;
    }
}
