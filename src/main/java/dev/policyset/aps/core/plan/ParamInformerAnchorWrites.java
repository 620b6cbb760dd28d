package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.render.ParamInformerAnchorObjects;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.GroupVersionKind;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The operator's param-informer anchors a plan needs: one policy and binding per admission plugin and built-in
 * {@code paramKind} that the set's policies use, written before the set's own objects, and never deleted.
 *
 * <p>Why (kubernetes/kubernetes#130887; docs/real-apiserver.md, "The params problem"): kube-apiserver cancels a
 * paramKind's informer as soon as no binding names a policy of that paramKind, and a built-in kind's informer comes
 * from the shared informer factory, which never starts it again in that process. From then on, until the API
 * server restarts, a {@code paramRef.selector} of that kind finds no params, and before 1.37 a {@code paramRef.name}
 * neither. The operator's prune (a policy dropped, a set deleted or renamed) can remove the cluster's last such
 * binding, so the next set with params of that kind would deny every matched request ({@code Deny}) or enforce
 * nothing ({@code Allow}). An anchor is a binding that always names a policy of that paramKind, so the informer is
 * never cancelled. CRD paramKinds get a fresh informer each time and need none.
 *
 * <p>Both plugins: the validating and the mutating plugin share one informer factory, and whichever plugin asks for
 * a kind's informer first starts it under its own context ({@code ensureParamsForPolicyLocked} in k8s.io/apiserver
 * {@code pkg/admission/plugin/policy/generic/policy_source.go}); the other plugin's cancellation does not stop it,
 * the starter's does. So a kind is anchored in every plugin the cluster serves, whichever policy kind of the set uses
 * it.
 *
 * <p>Shape: the policy matches no request (an objectSelector that requires a label to exist and not to exist),
 * fails open, and validates {@code true} (or patches nothing); the binding has no {@code paramRef}, so writing it
 * needs no grant on the params (the server checks a binding's paramRef against its writer), and the policy needs
 * exactly the grant the set's own policy of that paramKind already needs. Not labelled for any set and without owner
 * reference: no set's prune, deletion or garbage collection removes it (deleting it could stop the informer).
 */
public final class ParamInformerAnchorWrites {
    /** The label that marks an anchor as the operator's own (not any set's). */
    public static final String LABEL = "admission.policyset.dev/param-informer-anchor";
    public static final String NAME_PREFIX = "aps-param-informer-";

    private ParamInformerAnchorWrites() {
    }

    /**
     * The anchor writes for {@code rendered} (a set's objects): those absent or different on the cluster, policies
     * before their bindings. An object of an anchor's name that lacks the anchor label is someone else's and is
     * left alone.
     */
    public static List<Write> needed(List<RenderedObject> rendered, ClusterView cluster) {
        List<Write> writes = new ArrayList<>();
        for (GroupVersionKind paramKind : builtInParamKinds(rendered)) {
            for (ObjectNode o : anchor(paramKind, cluster.mutatingPolicyVersion())) {
                AdmissionKind kind = AdmissionKind.fromKind(o.path("kind").asText()).orElseThrow();
                String name = o.path("metadata").path("name").asText();
                Optional<LiveObject> live = cluster.find(kind, name);
                if (live.isPresent() && (!isAnchor(live.get()) || live.get().carries(o))) {
                    continue;
                }
                writes.add(new Write(kind, o.path("apiVersion").asText(), name, o, Write.Action.ANCHOR));
            }
        }
        return writes;
    }

    /** The built-in paramKinds of the rendered policies, in a stable order. */
    static Collection<GroupVersionKind> builtInParamKinds(List<RenderedObject> rendered) {
        TreeSet<GroupVersionKind> kinds = new TreeSet<>(java.util.Comparator.comparing(GroupVersionKind::toString));
        for (RenderedObject o : rendered) {
            if (o.kind() != AdmissionKind.VALIDATING_ADMISSION_POLICY && o.kind() != AdmissionKind.MUTATING_ADMISSION_POLICY) {
                continue;
            }
            String apiVersion = o.manifest().path("spec").path("paramKind").path("apiVersion").asText("");
            String kind = o.manifest().path("spec").path("paramKind").path("kind").asText("");
            if (apiVersion.isEmpty() || kind.isEmpty()) {
                continue;
            }
            GroupVersionKind gvk = GroupVersionKind.of(apiVersion, kind);
            if (BuiltinSchemas.instance().schema(gvk).isPresent()) {
                kinds.add(gvk);
            }
        }
        return kinds;
    }

    /** {@code aps-param-informer-<kind>-<version>[.<group>]}: one per paramKind, the same in both plugins. */
    public static String name(GroupVersionKind paramKind) {
        return NAME_PREFIX + paramKind.kind().toLowerCase(Locale.ROOT) + "-" + paramKind.version()
                + (paramKind.group().isEmpty() ? "" : "." + paramKind.group());
    }

    /** The anchor's objects: validating policy and binding, then mutating ones where the cluster serves them. */
    static List<ObjectNode> anchor(GroupVersionKind paramKind, Optional<String> mutatingVersion) {
        List<ObjectNode> objects = new ArrayList<>(pair(paramKind, AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"));
        mutatingVersion.ifPresent(v -> objects.addAll(pair(paramKind, AdmissionKind.MUTATING_ADMISSION_POLICY, v)));
        return objects;
    }

    private static List<ObjectNode> pair(GroupVersionKind paramKind, AdmissionKind policyKind, String version) {
        String apiVersion = AdmissionKind.GROUP + "/" + version;
        String name = name(paramKind);
        List<ObjectNode> objects = List.of(ParamInformerAnchorObjects.policy(policyKind, apiVersion, name,
                paramKind.apiVersion(), paramKind.kind(), nothing()),
                ParamInformerAnchorObjects.binding(policyKind, apiVersion, name, nothing()));
        objects.forEach(o -> o.with("metadata").putObject("labels").put(LABEL, "true"));
        return objects;
    }

    /** A selector no object can satisfy: the label must exist and must not. */
    private static ObjectNode nothing() {
        ObjectNode selector = JsonNodeFactory.instance.objectNode();
        ArrayNode expressions = selector.putArray("matchExpressions");
        expressions.addObject().put("key", LABEL).put("operator", "Exists");
        expressions.addObject().put("key", LABEL).put("operator", "DoesNotExist");
        return selector;
    }

    private static boolean isAnchor(LiveObject live) {
        return "true".equals(live.object().path("metadata").path("labels").path(LABEL).asText(""));
    }
}
