package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the real kube-apiserver showed (CelDifferentialRealServerTest, 1.37.2): a messageExpression or an audit
 * annotation that reads a variable calling {@code authorizer} fails, because upstream's validator evaluates them with
 * no Authorizer bound (validator.go: {@code expressionOptionalVars}); the validation then gets the static message or
 * {@code failed expression: ...}, and the annotation is not published.
 */
class ValidatingPolicyEvaluatorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CelAuthorizer ALLOW = attributes -> new CelAuthorizer.Decision(CelAuthorizer.Decision.Kind.ALLOW, "", null);

    private static ValidatingPolicyEvaluator.Result validate(String spec) throws Exception {
        JsonNode s = JSON.readTree(spec);
        Map<String, String> variables = new LinkedHashMap<>();
        s.path("variables").forEach(v -> variables.put(v.path("name").asText(), v.path("expression").asText()));
        PolicyExpressions p = new PolicyExpressions(CelChecker.PolicyType.VALIDATING, false, new KubeVersion(1, 37), variables);
        PolicyExpressions.Context context = p.context(new CelEvaluator.Activation(Map.of("metadata", Map.of("name", "web")),
                null, null, Map.of("operation", "CREATE", "userInfo", Map.of("username", "alice")), null, ALLOW, null));
        return ValidatingPolicyEvaluator.validate(s, context);
    }

    @Test
    void aMessageExpressionCannotUseTheAuthorizerThroughAVariable() throws Exception {
        ValidatingPolicyEvaluator.Result r = validate("""
                {"variables": [{"name": "allowed", "expression": "authorizer.path('/healthz').check('get').allowed()"}],
                 "validations": [{"expression": "!variables.allowed",
                                  "messageExpression": "variables.allowed ? 'allowed' : 'not allowed'"}]}""");
        PolicyDecision d = r.decisions().get(0);
        assertTrue(d.deny() && !d.error(), "the validation itself sees the authorizer (it allows): " + d);
        assertEquals("failed expression: !variables.allowed", d.message());
        assertTrue(r.errors().stream().anyMatch(e -> e.startsWith("messageExpression: ") && e.contains("allowed")), r.errors().toString());
    }

    @Test
    void anAuditAnnotationCannotUseTheAuthorizerThroughAVariable() throws Exception {
        ValidatingPolicyEvaluator.Result r = validate("""
                {"failurePolicy": "Ignore",
                 "variables": [{"name": "allowed", "expression": "authorizer.path('/healthz').check('get').allowed()"}],
                 "validations": [{"expression": "variables.allowed"}],
                 "auditAnnotations": [{"key": "allowed", "valueExpression": "variables.allowed ? 'yes' : 'no'"}]}""");
        assertEquals(List.of(new PolicyDecision(false, false, "", "", 0)), r.decisions());
        assertEquals(List.of(), r.auditAnnotations(), "under Ignore a failing annotation is left out");
        assertTrue(r.errors().stream().anyMatch(e -> e.contains("composited variable \"allowed\" fails to evaluate")), r.errors().toString());
    }
}
