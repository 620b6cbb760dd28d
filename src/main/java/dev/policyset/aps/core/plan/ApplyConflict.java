package dev.policyset.aps.core.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's 409 Conflict to an apply without force ({@link Write.Action#CONTESTED_REPAIR}), as the operator
 * received it: its message ({@code Apply failed with 1 conflict: conflict with "argocd-controller" using
 * admissionregistration.k8s.io/v1: .webhooks[name="x"].failurePolicy}) and its causes (one per field, reason
 * {@code FieldManagerConflict}). The server's word is the source of truth for who holds which field.
 */
public record ApplyConflict(String objectId, String message, List<DryRunRejection.Cause> causes) {
    private static final Pattern MANAGER = Pattern.compile("conflict with \"([^\"]*)\"");
    private static final Pattern FIELD = Pattern.compile("conflict with \"[^\"]*\"(?: using [^:]+)?: ?(\\S.*?)(?:$|\\n|,\\s*conflict with)");

    public ApplyConflict {
        message = message == null ? "" : message;
        causes = causes == null ? List.of() : List.copyOf(causes);
    }

    /** The conflicting field managers, from the causes (else the message), in the server's order. */
    public List<String> managers() {
        Set<String> out = new LinkedHashSet<>();
        for (DryRunRejection.Cause c : causes) {
            find(MANAGER, c.message()).ifPresent(out::add);
        }
        if (out.isEmpty()) {
            Matcher m = MANAGER.matcher(message);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return List.copyOf(out);
    }

    /** The conflicting fields ({@code .webhooks[name="x"].failurePolicy}), from the causes (else the message). */
    public List<String> fields() {
        Set<String> out = new LinkedHashSet<>();
        for (DryRunRejection.Cause c : causes) {
            if (c.field() != null && !c.field().isEmpty()) {
                out.add(c.field());
            }
        }
        if (out.isEmpty()) {
            Matcher m = FIELD.matcher(message);
            while (m.find()) {
                out.add(m.group(1).trim());
            }
        }
        return new ArrayList<>(out);
    }

    private static java.util.Optional<String> find(Pattern p, String text) {
        Matcher m = p.matcher(text == null ? "" : text);
        return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
    }
}
