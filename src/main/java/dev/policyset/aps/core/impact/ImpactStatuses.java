package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.BindingImpactStatus;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.api.v1alpha1.MutatingBindingImpactStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An impact scan as the set's {@code status.impact}, and the fingerprint that ties a row to what was scanned. */
public final class ImpactStatuses {
    private ImpactStatuses() {}

    /**
     * @param scannedAt  RFC 3339 time, passed in (core has no clock)
     * @param generation the set's generation whose policies were scanned
     */
    public static ImpactStatus of(ImpactScan.SourceScan scan, List<RenderedObject> configuration, long generation,
                                  String scannedAt) {
        ImpactStatus status = new ImpactStatus();
        status.setScannedAt(scannedAt);
        status.setGeneration(generation);
        ImpactReport report = scan.report();
        status.setObjects(report.objects());
        status.setOmitted(report.omitted() == 0 ? null : report.omitted());
        for (BindingImpact b : report.bindings()) {
            BindingImpactStatus row = new BindingImpactStatus();
            row.setPolicy(b.policy());
            row.setBinding(b.binding());
            row.setMatched(b.matched());
            row.setViolations(b.deniedUnderDeny());
            row.setErrors(b.errors());
            String why = scan.incomplete().get(b.binding());
            row.setComplete(why == null);
            row.setIncomplete(why);
            fingerprint(configuration, b.binding()).ifPresent(row::setFingerprint);
            row.setSamples(b.samples().stream().map(s -> s.object() + ": " + s.message()).toList());
            status.getBindings().add(row);
        }
        for (MutatingBindingImpact b : report.mutating()) {
            MutatingBindingImpactStatus row = new MutatingBindingImpactStatus();
            row.setPolicy(b.policy());
            row.setBinding(b.binding());
            row.setMatched(b.matched());
            row.setChanged(b.changed());
            row.setNoop(b.noop());
            row.setRefused(b.refused());
            row.setErrors(b.errors());
            row.setNotIdempotent(b.notIdempotent());
            String why = scan.incomplete().get(b.binding());
            row.setComplete(why == null);
            row.setIncomplete(why);
            row.setSamples(b.samples().stream().map(ImpactStatuses::line).toList());
            status.getMutatingBindings().add(row);
        }
        return status;
    }

    /** The latest scan's states in {@code status.impact.state}. */
    public static final String RUNNING = "Running";
    public static final String FINISHED = "Finished";
    public static final String FAILED = "Failed";

    /**
     * How far the latest scan has come: times passed in, counts from the source that read the objects.
     *
     * @param inconsistent how a list became inconsistent (an expired continue token), or null
     */
    public record Progress(String startedAt, int scanned, int pages, String inconsistent) {}

    /** The last finished scan's results with a running scan's progress (the Deny gate keeps reading the results). */
    public static ImpactStatus running(ImpactStatus last, Progress progress) {
        ImpactStatus status = results(last);
        status.setState(RUNNING);
        progress(status, progress);
        return status;
    }

    /** A finished scan: its results ({@link #of}) and how it went. */
    public static ImpactStatus finished(ImpactStatus result, Progress progress, String finishedAt) {
        ImpactStatus status = results(result);
        status.setState(FINISHED);
        progress(status, progress);
        status.setFinishedAt(finishedAt);
        return status;
    }

    /** A scan that failed: the last finished scan's results stay, with why this one did not finish. */
    public static ImpactStatus failed(ImpactStatus last, Progress progress, String finishedAt, String why) {
        ImpactStatus status = results(last);
        status.setState(FAILED);
        progress(status, progress);
        status.setFinishedAt(finishedAt);
        status.setMessage(progress.inconsistent() == null ? why : why + "; " + progress.inconsistent());
        return status;
    }

    /** The result fields of a status (none of its progress), or an empty status when there is none. */
    private static ImpactStatus results(ImpactStatus from) {
        ImpactStatus status = new ImpactStatus();
        if (from != null) {
            status.setScannedAt(from.getScannedAt());
            status.setGeneration(from.getGeneration());
            status.setObjects(from.getObjects());
            status.setOmitted(from.getOmitted());
            status.setBindings(from.getBindings() == null ? new java.util.ArrayList<>() : new java.util.ArrayList<>(from.getBindings()));
            status.setMutatingBindings(from.getMutatingBindings() == null ? new java.util.ArrayList<>()
                    : new java.util.ArrayList<>(from.getMutatingBindings()));
        }
        return status;
    }

    private static void progress(ImpactStatus status, Progress progress) {
        status.setStartedAt(progress.startedAt());
        status.setScanned(progress.scanned());
        status.setPages(progress.pages());
        status.setInconsistent(progress.inconsistent() == null ? null : true);
        status.setMessage(progress.inconsistent());
    }

    /** One bounded line per sample: the refusal or error, or the first change (a status is no place for a full diff). */
    private static String line(MutatingBindingImpact.Sample s) {
        String what = !s.message().isEmpty() ? s.message()
                : s.changes().isEmpty() ? "" : s.changes().get(0).describe()
                + (s.changes().size() + s.omittedChanges() > 1 ? " (+" + (s.changes().size() + s.omittedChanges() - 1) + " more)" : "");
        String out = s.object() + " (" + s.outcome() + (s.reason().isEmpty() ? "" : ": " + s.reason()) + "): " + what;
        return out.length() > MAX_SAMPLE_LENGTH ? out.substring(0, MAX_SAMPLE_LENGTH - 3) + "..." : out;
    }

    /** A sample line's length at most: keeps status.impact bounded whatever the messages (a Pod refusal is long). */
    static final int MAX_SAMPLE_LENGTH = 300;

    /**
     * What a scan of a binding depends on: the policy's spec and the binding's spec without its validationActions
     * (the counts are what Deny would do, whatever the actions). A changed match, expression or param invalidates a
     * row; a change of actions alone does not.
     */
    public static Optional<String> fingerprint(List<RenderedObject> configuration, String bindingName) {
        Map<String, RenderedObject> bindings = new java.util.HashMap<>();
        configuration.stream().filter(o -> o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING)
                .forEach(o -> bindings.putIfAbsent(o.name(), o));
        RenderedObject binding = bindings.get(bindingName);
        if (binding == null) {
            return Optional.empty();
        }
        String policyName = binding.manifest().path("spec").path("policyName").asText("");
        Optional<RenderedObject> policy = configuration.stream()
                .filter(o -> o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY && o.name().equals(policyName)).findFirst();
        if (policy.isEmpty()) {
            return Optional.empty();
        }
        com.fasterxml.jackson.databind.JsonNode bindingSpec = binding.manifest().path("spec").deepCopy();
        if (bindingSpec instanceof ObjectNode o) {
            o.remove("validationActions");
        }
        String text = policy.get().manifest().path("spec").toString() + "\n" + bindingSpec;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Optional.of(HexFormat.of().formatHex(digest, 0, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
