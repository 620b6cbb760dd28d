package dev.policyset.aps.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The unknown-field check on sets against real objects: the shipped samples have no unknown field, and each of
 * the corpus's 348 published objects, put into a set as a member, has exactly the unknown fields that the same
 * object gets when validated bare (the API-server decoding rules, Kubernetes 1.36's types). So the set's schema
 * (the fabric8 model classes the CRD is generated from) neither invents unknown fields in real policies nor
 * misses the ones the corpus has.
 */
class UnknownFieldsCorpusTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Decoding needs no CEL; every expression compiles. */
    private static final CelChecker NO_CEL = (type, hasParams, version) -> new CelChecker.Scope() {
        @Override
        public Optional<String> declareVariable(String name, String expression) {
            return Optional.empty();
        }

        @Override
        public Optional<String> check(ExpressionKind kind, String expression) {
            return Optional.empty();
        }
    };

    @Test
    void theSamplesHaveNoUnknownField() throws Exception {
        int sets = 0;
        for (Path file : yamlFiles(Path.of("config/samples"))) {
            for (Document d : Yaml.parse(file.toString(), Files.readString(file))) {
                if (PolicySetReader.KIND.equals(d.kind())) {
                    sets++;
                    assertEquals(List.of(), unknownFields(PolicySetReader.read(d.content()).findings()), file.toString());
                }
            }
        }
        assertTrue(sets >= 3, "found only " + sets + " sets in config/samples");
    }

    @Test
    void eachCorpusObjectAsASetMemberHasTheUnknownFieldsItHasBare() throws Exception {
        Path corpus = SharedData.require("corpus");
        int objects = 0;
        int unknown = 0;
        List<String> disagreements = new ArrayList<>();
        for (Path file : yamlFiles(corpus)) {
            for (Document d : Yaml.parse(file.toString(), Files.readString(file))) {
                Optional<AdmissionKind> kind = AdmissionKind.fromKind(d.kind());
                if (kind.isEmpty() || !d.content().isObject()) {
                    continue;
                }
                objects++;
                ObjectNode object = (ObjectNode) d.content();
                List<String> bare = unknownFields(ApiServerRules.check(
                        new RenderedObject(kind.get(), d.apiVersion(), d.name(), object, ""), KubeVersion.NEWEST, NO_CEL))
                        .stream().filter(path -> !path.startsWith("metadata.")).toList();
                Member member = member(kind.get(), object);
                List<String> inSet = unknownFields(PolicySetReader.read(member.set()).findings()).stream()
                        .map(member::barePath).toList();
                unknown += bare.size();
                if (!bare.equals(inSet)) {
                    disagreements.add(corpus.relativize(file) + ": bare " + bare + ", in a set " + inSet);
                }
            }
        }
        System.out.println("unknown fields: " + objects + " corpus objects, " + unknown + " unknown field(s) bare, "
                + disagreements.size() + " disagreement(s)");
        assertEquals(List.of(), disagreements);
        assertTrue(objects >= 300, "read only " + objects + " corpus objects");
    }

    /** A set holding {@code object} as its only member; {@code prefix} in a set path is {@code barePrefix} in the object's. */
    record Member(ObjectNode set, String prefix, String barePrefix) {
        String barePath(String setPath) {
            return setPath.startsWith(prefix) ? barePrefix + setPath.substring(prefix.length()) : setPath;
        }
    }

    private static Member member(AdmissionKind kind, ObjectNode object) {
        ObjectNode set = NODES.objectNode().put("apiVersion", "admission.policyset.dev/v1alpha1")
                .put("kind", PolicySetReader.KIND);
        set.putObject("metadata").put("name", "corpus");
        ObjectNode spec = set.putObject("spec");
        JsonNode content = object.path("spec");
        return switch (kind) {
            case VALIDATING_ADMISSION_POLICY, MUTATING_ADMISSION_POLICY -> {
                String list = kind == AdmissionKind.VALIDATING_ADMISSION_POLICY ? "validatingPolicies" : "mutatingPolicies";
                spec.putArray(list).addObject().put("name", "m").set("policy", content);
                yield new Member(set, "spec." + list + "[0].policy.", "spec.");
            }
            case VALIDATING_ADMISSION_POLICY_BINDING, MUTATING_ADMISSION_POLICY_BINDING -> {
                String list = kind == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING ? "validatingPolicies" : "mutatingPolicies";
                ObjectNode m = spec.putArray(list).addObject().put("name", "m");
                m.putObject("policy");
                m.putArray("bindings").addObject().put("name", "b").set("spec", content);
                yield new Member(set, "spec." + list + "[0].bindings[0].spec.", "spec.");
            }
            case VALIDATING_WEBHOOK_CONFIGURATION, MUTATING_WEBHOOK_CONFIGURATION -> {
                String list = kind == AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION ? "validatingWebhooks" : "mutatingWebhooks";
                JsonNode webhooks = object.path("webhooks");
                spec.putArray(list).addObject().put("name", "m")
                        .set("webhooks", webhooks.isArray() ? webhooks : NODES.arrayNode());
                yield new Member(set, "spec." + list + "[0].", "");
            }
        };
    }

    /** Paths of the unknown-field findings, in order; bare paths start at the object ({@code spec.…}, {@code webhooks[0].…}). */
    private static List<String> unknownFields(List<Finding> findings) {
        return findings.stream().filter(f -> f.message().contains("unknown field \"")).map(Finding::field).toList();
    }

    private static List<Path> yamlFiles(Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
    }
}
