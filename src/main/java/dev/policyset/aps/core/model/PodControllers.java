package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pod controllers autogen knows ({@code kyverno/kyverno: pkg/cel/autogen/data.go: ConfigsMap}) and which
 * policies it applies to ({@code support.go: CanAutoGen}): those whose matchConstraints match v1 pods alone,
 * without objectSelector, excludeResourceRules or resourceNames. The rewriting itself is
 * {@code core.render.PodControllerAutogen}.
 */
public final class PodControllers {
    /** A controller: its resource (as the set names it), group, version and kind. */
    public record Controller(String resource, String group, String version, String kind, Shape shape) {}

    /** Where a controller keeps its pod template. */
    public enum Shape {
        TEMPLATE("spec.template", ""), CRONJOBS("spec.jobTemplate.spec.template", "-cronjobs");

        private final String templatePath;
        private final String suffix;

        Shape(String templatePath, String suffix) {
            this.templatePath = templatePath;
            this.suffix = suffix;
        }

        public String templatePath() { return templatePath; }

        /** Appended to {@code -autogen} in the generated names. */
        public String suffix() { return suffix; }
    }

    public static final List<Controller> CONTROLLERS = List.of(
            new Controller("daemonsets", "apps", "v1", "DaemonSet", Shape.TEMPLATE),
            new Controller("deployments", "apps", "v1", "Deployment", Shape.TEMPLATE),
            new Controller("replicasets", "apps", "v1", "ReplicaSet", Shape.TEMPLATE),
            new Controller("statefulsets", "apps", "v1", "StatefulSet", Shape.TEMPLATE),
            new Controller("jobs", "batch", "v1", "Job", Shape.TEMPLATE),
            new Controller("cronjobs", "batch", "v1", "CronJob", Shape.CRONJOBS));

    private PodControllers() {}

    /** Why a policy spec cannot be autogen'd, or empty when it can. */
    public static Optional<String> ineligibility(JsonNode spec) {
        JsonNode match = spec.path("matchConstraints");
        if (!match.isObject()) {
            return Optional.of("it has no matchConstraints");
        }
        JsonNode selector = match.path("objectSelector");
        if (selector.path("matchLabels").size() > 0 || selector.path("matchExpressions").size() > 0) {
            return Optional.of("its matchConstraints have an objectSelector (the controller's labels are not the pod's)");
        }
        if (match.path("excludeResourceRules").size() > 0) {
            return Optional.of("its matchConstraints have excludeResourceRules");
        }
        JsonNode rules = match.path("resourceRules");
        if (rules.size() != 1) {
            return Optional.of("its matchConstraints have " + rules.size() + " resourceRules, not one for pods");
        }
        JsonNode rule = rules.get(0);
        if (rule.path("resourceNames").size() > 0) {
            return Optional.of("its resourceRule names resources (resourceNames)");
        }
        if (!isOnly(rule.path("apiGroups"), "") || !isOnly(rule.path("apiVersions"), "v1") || !isOnly(rule.path("resources"), "pods")) {
            return Optional.of("its resourceRule does not match exactly apiGroups [\"\"], apiVersions [v1], resources [pods]");
        }
        return Optional.empty();
    }

    private static boolean isOnly(JsonNode list, String value) {
        return list.size() == 1 && list.get(0).asText("\u0000").equals(value);
    }

    /** The controllers of {@code names} grouped by shape, in {@link Shape} order. */
    public static Map<Shape, List<Controller>> byShape(List<String> names) {
        Map<Shape, List<Controller>> shapes = new LinkedHashMap<>();
        for (Shape shape : Shape.values()) {
            List<Controller> of = CONTROLLERS.stream().filter(c -> c.shape() == shape && names.contains(c.resource())).toList();
            if (!of.isEmpty()) {
                shapes.put(shape, of);
            }
        }
        return shapes;
    }

}
