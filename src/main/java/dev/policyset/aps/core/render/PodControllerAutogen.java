package dev.policyset.aps.core.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.policyset.aps.core.model.PodControllers;
import dev.policyset.aps.core.model.PodControllers.Controller;
import dev.policyset.aps.core.model.PodControllers.Shape;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pod-controller autogen: a validating policy written for Pods, rewritten for the controllers that create them,
 * as Kyverno's engine does it for its own policies ({@code kyverno/kyverno: pkg/cel/policies/vpol/autogen/autogen.go},
 * {@code pkg/cel/autogen/}). Kyverno rewrites inside its engine; a native policy must be rendered, so the renderer
 * writes one policy per shape of pod template:
 * <ul>
 *   <li>{@code template}: Deployment, StatefulSet, DaemonSet, ReplicaSet, Job ({@code spec.template});</li>
 *   <li>{@code cronjobs}: CronJob ({@code spec.jobTemplate.spec.template}).</li>
 * </ul>
 * Every string of the spec (expressions, messageExpressions, matchConditions, variables, auditAnnotations) has
 * {@code object.spec} and {@code object.metadata} (and the same on {@code oldObject}) rewritten to the template's,
 * except {@code object.metadata.namespace}, which a template does not carry ({@code replacement.go: protectedSuffixes}).
 * Kyverno rewrites the JSON text; here only whole path segments are rewritten ({@code myobject.spec} or
 * {@code object.specs} stay). matchConstraints become the controllers' resources with the Pod rule's operations
 * and namespaceSelector ({@code match.go: CreateMatchConstraints}).
 *
 * <p>Which controllers and which policies: {@link PodControllers}.
 */
public final class PodControllerAutogen {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private PodControllerAutogen() {}

    /** The policy spec rewritten for {@code controllers} (all of one shape). {@code spec} is not changed. */
    public static ObjectNode policySpec(JsonNode spec, Shape shape, List<Controller> controllers) {
        ObjectNode out = (ObjectNode) rewrite(spec.deepCopy(), shape);
        JsonNode match = spec.path("matchConstraints");
        ObjectNode constraints = JSON.objectNode();
        constraints.set("resourceRules", resourceRules(controllers, match.path("resourceRules").path(0).path("operations")));
        for (String keep : List.of("namespaceSelector", "matchPolicy")) {
            if (match.has(keep)) {
                constraints.set(keep, match.get(keep).deepCopy());
            }
        }
        out.set("matchConstraints", constraints);
        return out;
    }

    /**
     * A binding's matchResources for the controllers: its resourceRules (written for pods) become the controllers'
     * with the same operations; selectors stay.
     */
    public static void retargetBinding(ObjectNode bindingSpec, List<Controller> controllers) {
        if (bindingSpec.get("matchResources") instanceof ObjectNode match && match.has("resourceRules")) {
            JsonNode operations = match.path("resourceRules").path(0).path("operations");
            match.set("resourceRules", resourceRules(controllers, operations));
        }
    }

    private static ArrayNode resourceRules(List<Controller> controllers, JsonNode operations) {
        Map<String, List<String>> byGroupVersion = new LinkedHashMap<>();
        controllers.stream().sorted(java.util.Comparator.comparing(Controller::group).thenComparing(Controller::resource))
                .forEach(c -> byGroupVersion.computeIfAbsent(c.group() + "/" + c.version(), k -> new ArrayList<>()).add(c.resource()));
        ArrayNode rules = JSON.arrayNode();
        byGroupVersion.forEach((gv, resources) -> {
            ObjectNode rule = rules.addObject();
            rule.putArray("apiGroups").add(gv.substring(0, gv.indexOf('/')));
            rule.putArray("apiVersions").add(gv.substring(gv.indexOf('/') + 1));
            resources.forEach(rule.putArray("resources")::add);
            rule.set("operations", operations.isArray() ? operations.deepCopy() : JSON.arrayNode().add("*"));
        });
        return rules;
    }

    private static JsonNode rewrite(JsonNode node, Shape shape) {
        if (node.isTextual()) {
            return TextNode.valueOf(rewrite(node.asText(), shape));
        }
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                e.setValue(rewrite(e.getValue(), shape));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, rewrite(array.get(i), shape));
            }
        }
        return node;
    }

    /** {@code object.spec} → {@code object.<template>.spec} and the same for metadata, whole segments only. */
    public static String rewrite(String text, Shape shape) {
        String out = text;
        for (String root : List.of("object", "oldObject")) {
            out = replaceSegment(out, root + ".spec", root + "." + shape.templatePath() + ".spec", false);
            out = replaceSegment(out, root + ".metadata", root + "." + shape.templatePath() + ".metadata", true);
        }
        return out;
    }

    private static String replaceSegment(String text, String from, String to, boolean protectNamespace) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        int idx;
        while ((idx = text.indexOf(from, at)) >= 0) {
            int end = idx + from.length();
            boolean startsSegment = idx == 0 || !(isIdentifier(text.charAt(idx - 1)) || text.charAt(idx - 1) == '.');
            boolean endsSegment = end == text.length() || !isIdentifier(text.charAt(end));
            boolean namespace = protectNamespace && text.startsWith(".namespace", end)
                    && (end + 10 == text.length() || !isIdentifier(text.charAt(end + 10)));
            out.append(text, at, idx).append(startsSegment && endsSegment && !namespace ? to : from);
            at = end;
        }
        return out.append(text.substring(at)).toString();
    }

    private static boolean isIdentifier(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }
}
