package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Aps701CelCostTest {
    private static String vap(String failurePolicy, String expression) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata:
                  name: p
                spec:
                  failurePolicy: %s
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: ["v1"]
                      operations: ["CREATE"]
                      resources: ["pods"]
                  validations:
                  - expression: %s
                """.formatted(failurePolicy, "'" + expression.replace("'", "''") + "'");
    }

    private static List<Finding> run(String yaml) {
        return SafetyFixtures.run(new Aps701CelCost(), yaml);
    }

    @Test
    void loopOverAnUnboundedListWithRegexFailsOpenUnderIgnore() {
        List<Finding> f = run(vap("Ignore", "object.spec.containers.all(c, c.image.matches('^registry[.]example[.]com/.+$'))"));
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.WARNING, f.get(0).severity());
        assertEquals("spec.validations[0].expression", f.get(0).field());
        String m = f.get(0).message();
        assertTrue(m.contains("per-expression limit of 1,000,000"), m);
        assertTrue(m.contains("`object.spec.containers` is a value of unknown type") || m.contains("`object.spec.containers[*].image`"), m);
        assertTrue(m.contains("gets around it"), m);
    }

    @Test
    void failClosedLoopThatGrowsFasterThanItsInputGetsANote() {
        List<Finding> f = run(vap("Fail", "object.spec.containers.all(c, object.spec.containers.exists(d, d.name == c.name))"));
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.INFO, f.get(0).severity());
        assertTrue(f.get(0).message().contains("such a request is denied"), f.get(0).message());
        assertTrue(f.get(0).message().contains("grows faster than the input"), f.get(0).message());
    }

    @Test
    void failClosedLinearLoopIsSilent() {
        // only a request built to be near 3 MiB reaches the limit, and it is denied: no risk to name
        assertEquals(List.of(), run(vap("Fail", "object.spec.containers.all(c, c.image.matches('^registry[.]example[.]com/.+$'))")));
        assertEquals(List.of(), run(vap("Fail", "object.spec.containers.all(c, c.env.all(e, e.name != 'DEBUG'))")));
    }

    @Test
    void labelLookupsAreMapLookupsNotScans() {
        // metadata.labels is a map in every object: `in` and indexing are lookups, whatever the checker's dyn
        assertEquals(List.of(), run(vap("Ignore", "!has(object.metadata.labels) || !('owner' in object.metadata.labels)")));
        assertEquals(List.of(), run(vap("Ignore", "object.metadata.labels['team'] == 'a'")));
        assertEquals(List.of(), run(vap("Ignore", "'team' in object.spec.template.metadata.labels")));
        // a dyn list that is not metadata is still priced as the scan it can be
        assertEquals(1, run(vap("Ignore", "'x' in object.spec.tags")).size());
    }

    @Test
    void sizeGuardBoundsTheLoop() {
        assertEquals(List.of(), run(vap("Ignore",
                "size(object.spec.containers) <= 20 && object.spec.containers.all(c, c.name.startsWith('app-'))")));
        // without the guard the loop is request-bounded
        assertEquals(1, run(vap("Ignore", "object.spec.containers.all(c, c.name.startsWith('app-'))")).size());
    }

    @Test
    void sizeGuardBoundsOnlyWhatRunsAfterIt() {
        String loop = "object.spec.containers.all(c, c.name.startsWith('app-'))";
        // the conditional form (the only one that type-checks in a mutation or a non-bool variable)
        assertEquals(List.of(), run(vap("Ignore", "size(object.spec.containers) <= 20 ? " + loop + " : false")));
        assertEquals(List.of(), run(vap("Ignore", "size(object.spec.containers) > 20 ? false : " + loop)));
        assertEquals(List.of(), run(vap("Ignore", "size(object.spec.containers) > 20 || " + loop)));
        // the branch the guard does not protect, or a guard evaluated after the work, bounds nothing
        assertEquals(1, run(vap("Ignore", "size(object.spec.containers) <= 20 ? true : " + loop)).size());
        assertEquals(1, run(vap("Ignore", loop + " && size(object.spec.containers) <= 20")).size());
    }

    @Test
    void printedNumbersAreShort() {
        // '/spec/containers/' + string(i): cel-go leaves the size of string(int) unknown, which made the path unbounded
        assertEquals(List.of(), run(vap("Ignore", "size(object.spec.containers) <= 20 && object.spec.containers"
                + ".map(c, '/spec/containers/' + string(object.spec.containers.indexOf(c))).all(p, p != '')")));
    }

    @Test
    void cheapExpressionsAreNotFlagged() {
        assertEquals(List.of(), run(vap("Ignore", "object.metadata.name.startsWith('team-') && request.operation == 'CREATE'")));
        assertEquals(List.of(), run(vap("Ignore", "object.metadata.name.matches('^[a-z0-9-]+$')")));
    }

    @Test
    void threeAuthorizerChecksAlwaysExceedTheLimit() {
        String three = "[authorizer.path('/a').check('get').allowed(), authorizer.path('/b').check('get').allowed(), "
                + "authorizer.path('/c').check('get').allowed()].exists(x, x)";
        List<Finding> f = run(vap("Fail", three));
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("Every evaluation fails"), f.get(0).message());
    }

    @Test
    void policyBudgetSumsTheExpressions() {
        StringBuilder validations = new StringBuilder();
        for (int i = 0; i < 15; i++) {
            validations.append("  - expression: \"[authorizer.path('/a").append(i)
                    .append("').check('get').allowed(), authorizer.path('/b').check('get').allowed()].exists(x, x)\"\n");
        }
        String yaml = vap("Ignore", "true").replace("  - expression: 'true'\n", validations.toString());
        List<Finding> f = run(yaml);
        assertEquals(1, f.size(), f.toString());
        assertEquals("spec", f.get(0).field());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("celconfig.RuntimeCELCostBudget"), f.get(0).message());
    }
}
