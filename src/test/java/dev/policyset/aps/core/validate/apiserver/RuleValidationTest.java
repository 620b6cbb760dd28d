package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RuleValidationTest {
    private static List<String> resources(String... resources) {
        Errors errors = new Errors("t");
        RuleValidation.validateResources(List.of(resources), FieldPath.root("r"), errors);
        return errors.findings().stream().map(f -> f.field() + " " + f.rule()).toList();
    }

    private static List<String> rule(String json) {
        try {
            ObjectNode rule = (ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
            Errors errors = new Errors("t");
            RuleValidation.validateNamedRuleWithOperations(rule, FieldPath.root("x"), errors);
            return errors.findings().stream().map(f -> f.field() + " " + f.rule()).sorted().toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void starWithPlainResourceIsOrderDependentAsUpstream() {
        assertEquals(List.of(), resources("pods", "*"));
        assertEquals(List.of("r api/Invalid"), resources("*", "pods"));
        assertEquals(List.of(), resources("*", "pods/exec", "*/status"));
    }

    @Test
    void redundantSubresourcesAreFlaggedOnlyAfterTheirWildcard() {
        assertEquals(List.of(), resources("pods/log", "pods/*"));
        assertEquals(List.of("r[1] api/Invalid"), resources("pods/*", "pods/log"));
        assertEquals(List.of("r[1] api/Invalid"), resources("*/scale", "deployments/scale"));
    }

    @Test
    void doubleWildcardMustBeAloneAndEmptyEntriesAreRequired() {
        assertEquals(List.of("r api/Invalid"), resources("*/*", "pods"));
        assertEquals(List.of("r[1] api/Required"), resources("pods", ""));
        assertEquals(List.of("r api/Required"), resources());
    }

    @Test
    void operationsGroupsVersionsScope() {
        assertEquals(List.of(), rule("{\"operations\":[\"*\"],\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],\"resources\":[\"pods\"]}"));
        assertEquals(List.of("x.apiGroups api/Required", "x.apiVersions api/Required", "x.operations api/Required",
                "x.resources api/Required"), rule("{}"));
        assertEquals(List.of("x.operations api/Invalid", "x.operations[1] api/NotSupported"),
                rule("{\"operations\":[\"*\",\"PATCH\"],\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],\"resources\":[\"*\"]}"));
        assertEquals(List.of("x.apiGroups api/Invalid", "x.apiVersions api/Invalid", "x.apiVersions[1] api/Required",
                        "x.scope api/NotSupported"),
                rule("{\"operations\":[\"CREATE\"],\"apiGroups\":[\"*\",\"apps\"],\"apiVersions\":[\"*\",\"\"],"
                        + "\"resources\":[\"pods\"],\"scope\":\"cluster\"}"));
    }

    @Test
    void resourceNamesArePathSegmentsAndUnique() {
        assertEquals(List.of("x.resourceNames[0] api/Invalid", "x.resourceNames[1] api/Invalid",
                        "x.resourceNames[1] api/Invalid", "x.resourceNames[3] api/Duplicate"),
                rule("{\"operations\":[\"CREATE\"],\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],\"resources\":[\"pods\"],"
                        + "\"resourceNames\":[\"..\",\"a/%\",\"Upper_ok\",\"Upper_ok\"]}"));
        assertEquals(0, JsonNodeFactory.instance.objectNode().size());
    }
}
