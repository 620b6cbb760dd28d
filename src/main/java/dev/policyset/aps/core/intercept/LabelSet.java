package dev.policyset.aps.core.intercept;

import java.util.Map;

/**
 * The labels of a namespace or an object as a request describes them.
 *
 * <ul>
 *   <li>{@link #exactly}: these labels and no others (a concrete request; or "kube-system as created": only
 *       {@code kubernetes.io/metadata.name}).</li>
 *   <li>{@link #atLeast}: these labels, and maybe others that are not known (the webhook's own namespace, which
 *       its chart may have labelled). A selector requirement on an unknown label is judged so: an <em>opt-in</em>
 *       ({@code In}, {@code Exists}, {@code matchLabels}) is assumed absent, since ordinary objects do not carry a
 *       label that a webhook asks them to opt in with; an <em>opt-out</em> ({@code NotIn}, {@code DoesNotExist})
 *       is undecided, since excluding itself by such a label is exactly what a deployment may do.</li>
 * </ul>
 */
public record LabelSet(Map<String, String> labels, boolean open) {
    public static final LabelSet NONE = exactly(Map.of());

    public LabelSet {
        labels = Map.copyOf(labels);
    }

    public static LabelSet exactly(Map<String, String> labels) {
        return new LabelSet(labels, false);
    }

    public static LabelSet atLeast(Map<String, String> labels) {
        return new LabelSet(labels, true);
    }
}
