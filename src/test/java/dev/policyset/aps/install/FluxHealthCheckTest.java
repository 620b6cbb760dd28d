package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.common.CelOptions;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.core.status.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * config/flux/health-check-exprs.yaml evaluated with cel-java, as Flux's kustomize-controller evaluates
 * {@code spec.healthCheckExprs} (the object's top-level fields as variables; inProgress, then failed, then
 * current; none matching means keep waiting), on the statuses the status calculator writes.
 */
class FluxHealthCheckTest {
    private static final CelOptions OPTIONS = CelOptions.current().enableOptionalSyntax(true).build();
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(CelExtensions.optional())
            .addVar("apiVersion", SimpleType.DYN).addVar("kind", SimpleType.DYN).addVar("metadata", SimpleType.DYN)
            .addVar("spec", SimpleType.DYN).addVar("status", SimpleType.DYN)
            .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(OPTIONS).addLibraries(CelExtensions.optional()).build();

    static String health(JsonNode set) throws Exception {
        JsonNode check = ProjectFiles.readAll(ProjectFiles.root().resolve("config/flux/health-check-exprs.yaml")).get(0)
                .path("healthCheckExprs").get(0);
        assertEquals("admission.policyset.dev/v1alpha1", check.path("apiVersion").asText());
        assertEquals("AdmissionPolicySet", check.path("kind").asText());
        Map<String, Object> vars = new LinkedHashMap<>();
        for (String field : List.of("apiVersion", "kind", "metadata", "spec", "status")) {
            if (set.has(field)) {
                vars.put(field, java(set.get(field)));
            }
        }
        for (String state : List.of("inProgress", "failed", "current")) {
            var ast = COMPILER.compile(check.path(state).asText()).getAst();
            if (Boolean.TRUE.equals(RUNTIME.createProgram(ast).eval(vars))) {
                return state;
            }
        }
        return "waiting";
    }

    /** JSON as CEL values: objects as maps, integers as Long (cel-java has no int32). */
    static Object java(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties().forEach(e -> map.put(e.getKey(), java(e.getValue())));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(n -> list.add(java(n)));
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.asText();
    }

    @Test
    void everyOutcomeMapsToAFluxHealth() throws Exception {
        Map<Outcome, String> expected = new EnumMap<>(Outcome.class);
        expected.put(Outcome.APPLIED, "current");
        expected.put(Outcome.VALIDATION_FAILED, "failed");
        expected.put(Outcome.OWNERSHIP_CONFLICT, "failed");
        expected.put(Outcome.DRY_RUN_REJECTED, "failed");
        expected.put(Outcome.MUTATING_POLICY_NOT_SERVED, "failed");
        expected.put(Outcome.API_ERROR, "inProgress");
        expected.put(Outcome.PAUSED, "current");
        AdmissionPolicySetStatus good = ArgoHealthCheckTest.status(1, Outcome.APPLIED, null);
        for (Outcome outcome : Outcome.values()) {
            AdmissionPolicySetStatus s = ArgoHealthCheckTest.status(2, outcome, good);
            assertEquals(expected.get(outcome), health(ArgoHealthCheckTest.set(2, s, outcome == Outcome.PAUSED)), outcome.name());
        }
    }

    @Test
    void aStatusOfAnOlderGenerationIsInProgress() throws Exception {
        ObjectNode lagging = ArgoHealthCheckTest.set(5, ArgoHealthCheckTest.status(4, Outcome.APPLIED, null), false);
        assertEquals("inProgress", health(lagging));
        ObjectNode failedBefore = ArgoHealthCheckTest.set(5, ArgoHealthCheckTest.status(4, Outcome.VALIDATION_FAILED, null), false);
        assertEquals("inProgress", health(failedBefore), "a failure of the previous generation says nothing of this one");
        ObjectNode empty = ArgoHealthCheckTest.set(1, new AdmissionPolicySetStatus(), false);
        assertEquals("inProgress", health(empty), "no observedGeneration yet");
    }
}
