package dev.policyset.aps.core.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.BindingMember;
import dev.policyset.aps.core.model.Member;
import dev.policyset.aps.core.model.PolicyMember;
import dev.policyset.aps.core.model.PodControllers;
import dev.policyset.aps.core.model.PolicySet;
import dev.policyset.aps.core.model.SetDefaults;
import dev.policyset.aps.core.model.WebhookMember;

import java.util.ArrayList;
import java.util.List;

/**
 * Set → native objects. Pure and deterministic: the same set and options give the same objects in the
 * same order (members in spec order, each policy followed by its bindings; validating policies, mutating
 * policies, validating webhooks, mutating webhooks), which is also a safe apply order.
 *
 * <p>Defaults fill only what a member leaves out; a member that sets a value keeps it. Nothing here
 * judges the result: an invalid name or field is rendered as written and reported by the validator.
 */
public final class Renderer {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final PolicySet set;
    private final RenderOptions options;
    private final SetDefaults defaults;

    private Renderer(PolicySet set, RenderOptions options) {
        this.set = set;
        this.options = options;
        this.defaults = set.defaults();
    }

    public static List<RenderedObject> render(PolicySet set, RenderOptions options) {
        return new Renderer(set, options).renderAll();
    }

    private List<RenderedObject> renderAll() {
        List<RenderedObject> out = new ArrayList<>();
        for (PolicyMember p : set.validatingPolicies()) {
            out.add(toValidatingAdmissionPolicy(p));
            bindingsOf(p).forEach(b -> out.add(toValidatingBinding(p, b)));
            out.addAll(toPodControllerPolicies(p));
        }
        for (PolicyMember p : set.mutatingPolicies()) {
            out.add(toMutatingAdmissionPolicy(p));
            bindingsOf(p).forEach(b -> out.add(toMutatingBinding(p, b)));
        }
        set.validatingWebhooks().forEach(w -> out.add(toWebhookConfiguration(w, AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION)));
        set.mutatingWebhooks().forEach(w -> out.add(toWebhookConfiguration(w, AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION)));
        return out;
    }

    /** The member's bindings, or the one default binding when the set leaves the list out. */
    private static List<BindingMember> bindingsOf(PolicyMember policy) {
        return policy.bindings().orElseGet(() -> List.of(new BindingMember(
                Names.defaultBindingName(policy.name()), policy.path(), java.util.Map.of(), java.util.Map.of(), null)));
    }

    RenderedObject toValidatingAdmissionPolicy(PolicyMember p) {
        ObjectNode spec = p.copyOf(p.policy());
        putIfAbsent(spec, "failurePolicy", defaults.failurePolicy());
        return object(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1", p, spec);
    }

    RenderedObject toValidatingBinding(PolicyMember policy, BindingMember b) {
        ObjectNode spec = bindingSpec(policy, b);
        if (!spec.has("validationActions")) {
            defaults.validationActions().forEach(spec.putArray("validationActions")::add);
        }
        excludeNamespaces(spec);
        return object(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "v1", b, spec);
    }

    /**
     * The member's policy and bindings once more per pod-template shape of its {@code autogen.podControllers}
     * ({@link PodControllerAutogen}); nothing when autogen is off or the policy does not match Pods alone (the
     * validator says so).
     */
    List<RenderedObject> toPodControllerPolicies(PolicyMember p) {
        List<RenderedObject> out = new ArrayList<>();
        if (p.podControllers().isEmpty() || PodControllers.ineligibility(p.policy()).isPresent()) {
            return out;
        }
        PodControllers.byShape(p.podControllers()).forEach((shape, controllers) -> {
            String policyName = Names.autogenName(p.name(), shape);
            PolicyMember policy = new PolicyMember(policyName, p.path() + ".autogen", p.labels(), p.annotations(),
                    PodControllerAutogen.policySpec(p.policy(), shape, controllers), p.bindings(), List.of());
            out.add(toValidatingAdmissionPolicy(policy));
            for (BindingMember b : bindingsOf(p)) {
                ObjectNode spec = JSON.objectNode().put("policyName", policyName);
                if (b.spec() != null) {
                    b.spec().fields().forEachRemaining(f -> spec.putIfAbsent(f.getKey(), f.getValue().deepCopy()));
                }
                PodControllerAutogen.retargetBinding(spec, controllers);
                out.add(toValidatingBinding(policy, new BindingMember(Names.autogenName(b.name(), shape),
                        b.path(), b.labels(), b.annotations(), spec)));
            }
        });
        return out;
    }

    RenderedObject toMutatingAdmissionPolicy(PolicyMember p) {
        ObjectNode spec = p.copyOf(p.policy());
        putIfAbsent(spec, "failurePolicy", defaults.failurePolicy());
        return object(AdmissionKind.MUTATING_ADMISSION_POLICY, options.mutatingPolicyApiVersion(), p, spec);
    }

    RenderedObject toMutatingBinding(PolicyMember policy, BindingMember b) {
        ObjectNode spec = bindingSpec(policy, b);
        excludeNamespaces(spec);
        return object(AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING, options.mutatingPolicyApiVersion(), b, spec);
    }

    RenderedObject toWebhookConfiguration(WebhookMember w, AdmissionKind kind) {
        ObjectNode manifest = header(kind, "v1", w);
        var webhooks = manifest.putArray("webhooks");
        for (JsonNode original : w.webhooks()) {
            JsonNode webhook = original.deepCopy();
            if (webhook instanceof ObjectNode hook) {
                putIfAbsent(hook, "failurePolicy", defaults.failurePolicy());
                if (!hook.has("timeoutSeconds")) {
                    hook.put("timeoutSeconds", defaults.webhookTimeoutSeconds());
                }
                NamespaceExclusion.mergeInto(hook, defaults.excludedNamespaces());
            }
            webhooks.add(webhook);
        }
        return new RenderedObject(kind, AdmissionKind.GROUP + "/v1", w.name(), manifest, w.path());
    }

    /** policyName first (it reads best there), then the member's own fields in their order. */
    private static ObjectNode bindingSpec(PolicyMember policy, BindingMember b) {
        ObjectNode spec = JSON.objectNode();
        ObjectNode own = b.copyOf(b.spec());
        if (own == null || !own.has("policyName")) {
            spec.put("policyName", policy.name());
        }
        if (own != null) {
            spec.setAll(own);
        }
        return spec;
    }

    /** Narrows a binding's matchResources to the non-excluded namespaces; absent matchResources is created. */
    private void excludeNamespaces(ObjectNode bindingSpec) {
        if (defaults.excludedNamespaces().isEmpty()) {
            return;
        }
        JsonNode match = bindingSpec.get("matchResources");
        if (match == null || match.isNull()) {
            NamespaceExclusion.mergeInto(bindingSpec.putObject("matchResources"), defaults.excludedNamespaces());
        } else if (match instanceof ObjectNode matchResources) {
            NamespaceExclusion.mergeInto(matchResources, defaults.excludedNamespaces());
        }
    }

    private RenderedObject object(AdmissionKind kind, String version, Member member, ObjectNode spec) {
        ObjectNode manifest = header(kind, version, member);
        manifest.set("spec", spec);
        return new RenderedObject(kind, AdmissionKind.GROUP + "/" + version, member.name(), manifest, member.path());
    }

    private ObjectNode header(AdmissionKind kind, String version, Member member) {
        ObjectNode manifest = JSON.objectNode();
        manifest.put("apiVersion", AdmissionKind.GROUP + "/" + version);
        manifest.put("kind", kind.kind());
        ObjectNode metadata = manifest.putObject("metadata");
        metadata.put("name", member.name());
        if (!member.annotations().isEmpty()) {
            ObjectNode annotations = metadata.putObject("annotations");
            member.annotations().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                    .forEach(e -> annotations.put(e.getKey(), e.getValue()));
        }
        ObjectNode labels = metadata.putObject("labels");
        member.labels().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .filter(e -> !e.getKey().equals(AdmissionPolicySet.SET_LABEL))
                .forEach(e -> labels.put(e.getKey(), e.getValue()));
        labels.put(AdmissionPolicySet.SET_LABEL, set.name());
        return manifest;
    }

    private static void putIfAbsent(ObjectNode node, String field, String value) {
        if (!node.has(field)) {
            node.put(field, value);
        }
    }
}
