package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.PolicySet;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.core.yaml.Document;

import java.util.List;

/** Documents to admission objects: sets rendered as the operator would, bare objects as they are. */
final class Configurations {
    private Configurations() {}

    /**
     * Adds the admission objects of {@code documents} to {@code into}; other kinds are ignored (a policy file
     * may hold anything). A set that cannot be read is a problem reported against its own file and line.
     */
    static void collect(List<Document> documents, KubeVersion version, List<RenderedObject> into, List<Problem> problems) {
        RenderOptions options = RenderOptions.forKubeVersion(version);
        for (Document d : documents) {
            JsonNode content = d.content();
            if (!content.isObject()) {
                continue;
            }
            if (PolicySetReader.KIND.equals(d.kind()) && d.apiVersion().startsWith("admission.policyset.dev/")) {
                PolicySetReader.Result result = PolicySetReader.read(content);
                if (result.set().isEmpty()) {
                    String why = result.findings().stream().filter(f -> f.severity() == Severity.ERROR)
                            .map(Finding::message).findFirst().orElse("it is not a valid AdmissionPolicySet");
                    problems.add(new Problem(d.source(), d.line(), "AdmissionPolicySet/" + d.name()
                            + " cannot be read: " + why + " (aps validate shows every finding)"));
                    continue;
                }
                PolicySet set = result.set().get();
                into.addAll(Renderer.render(set, options));
                continue;
            }
            var kind = AdmissionKind.fromKind(d.kind());
            if (kind.isPresent() && d.apiVersion().startsWith(AdmissionKind.GROUP + "/")) {
                into.add(new RenderedObject(kind.get(), d.apiVersion(), d.name(), (ObjectNode) content, ""));
            }
        }
    }
}
