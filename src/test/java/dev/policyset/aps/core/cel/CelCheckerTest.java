package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link KubernetesCelChecker}: declarations per expression kind, result types, variables, versions. */
class CelCheckerTest {
    private static final KubeVersion V136 = new KubeVersion(1, 36);
    private final KubernetesCelChecker checker = new KubernetesCelChecker();

    private CelChecker.Scope vap(boolean params) {
        return checker.newScope(CelChecker.PolicyType.VALIDATING, params, V136);
    }

    private static void ok(Optional<String> result) {
        assertEquals(Optional.empty(), result);
    }

    private static void exactly(Optional<String> result, String message) {
        assertEquals(Optional.of(message), result);
    }

    private static void error(Optional<String> result, String part) {
        assertTrue(result.isPresent() && result.get().contains(part),
                "expected an error containing [" + part + "] but got " + result);
    }

    private static void startsWith(Optional<String> result, String prefix) {
        assertTrue(result.isPresent() && result.get().startsWith(prefix),
                "expected an error starting with [" + prefix + "] but got " + result);
    }

    @Test
    void validationMustBeExactlyBool() {
        ok(vap(false).check(ExpressionKind.VALIDATION, "object.spec.replicas < 5"));
        exactly(vap(false).check(ExpressionKind.VALIDATION, "object.spec.paused"), "must evaluate to bool but got dyn");
        exactly(vap(false).check(ExpressionKind.VALIDATION, "'x'"), "must evaluate to bool but got string");
        ok(vap(false).check(ExpressionKind.VALIDATION, "object.spec.paused == true"));
    }

    @Test
    void messageExpressionIsStringWithoutAuthorizer() {
        ok(vap(false).check(ExpressionKind.MESSAGE_EXPRESSION, "'too many: ' + string(object.spec.replicas)"));
        exactly(vap(false).check(ExpressionKind.MESSAGE_EXPRESSION, "1"), "must evaluate to string but got int");
        error(vap(false).check(ExpressionKind.MESSAGE_EXPRESSION, "authorizer.path('/x').check('get').reason()"),
                "undeclared reference to 'authorizer'");
    }

    @Test
    void auditAnnotationIsStringOrNull() {
        ok(vap(false).check(ExpressionKind.AUDIT_ANNOTATION_VALUE, "null"));
        ok(vap(false).check(ExpressionKind.AUDIT_ANNOTATION_VALUE, "'v'"));
        exactly(vap(false).check(ExpressionKind.AUDIT_ANNOTATION_VALUE, "1"),
                "must evaluate to one of [string null_type] but got int");
    }

    @Test
    void compileErrorsUseTheApiServerWording() {
        startsWith(vap(false).check(ExpressionKind.VALIDATION, "foo == 1"),
                "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo'");
        startsWith(vap(false).check(ExpressionKind.VALIDATION, "int('abc') == 1"), "program instantiation failed: ");
        error(vap(false).check(ExpressionKind.VALIDATION, "[1, 'a'].size() > 0"), "expected type 'int' but found 'string'");
        error(vap(false).check(ExpressionKind.VALIDATION, "cel.bind(x, 1, x > 0)"), "undeclared reference");
        error(vap(false).check(ExpressionKind.VALIDATION, "math.abs(-1) == 1"), "undeclared reference");
    }

    @Test
    void paramsOnlyWithParamKindAndNeverForWebhooks() {
        ok(vap(true).check(ExpressionKind.VALIDATION, "params.max > 1"));
        error(vap(false).check(ExpressionKind.VALIDATION, "params.max > 1"), "undeclared reference to 'params'");
        CelChecker.Scope webhook = checker.newScope(CelChecker.PolicyType.WEBHOOK, true, V136);
        error(webhook.check(ExpressionKind.WEBHOOK_MATCH_CONDITION, "params.x == 1"), "undeclared reference to 'params'");
        ok(webhook.check(ExpressionKind.WEBHOOK_MATCH_CONDITION,
                "request.userInfo.username != '' && namespaceObject.metadata.name != ''"));
    }

    @Test
    void typedRequestAndNamespace() {
        error(vap(false).check(ExpressionKind.VALIDATION, "request.uid == ''"), "undefined field 'uid'");
        ok(vap(false).check(ExpressionKind.VALIDATION, "namespaceObject.metadata.UID != ''"));
        error(vap(false).check(ExpressionKind.VALIDATION, "namespaceObject.metadata.uid != ''"), "undefined field 'uid'");
        ok(vap(false).check(ExpressionKind.VALIDATION, "'system:masters' in request.userInfo.groups"));
        ok(vap(false).check(ExpressionKind.VALIDATION, "request.dryRun || request.operation == 'CREATE'"));
    }

    @Test
    void variablesAreTypedInOrder() {
        CelChecker.Scope scope = vap(false);
        ok(scope.declareVariable("replicas", "object.spec.replicas"));
        ok(scope.declareVariable("isBig", "variables.replicas > 3"));
        error(scope.declareVariable("early", "variables.later"), "undefined field 'later'");
        // a bool variable can be the whole validation; a dyn one cannot
        ok(scope.check(ExpressionKind.VALIDATION, "variables.isBig"));
        exactly(scope.check(ExpressionKind.VALIDATION, "variables.replicas"), "must evaluate to bool but got dyn");
        // matchConditions never see variables
        error(scope.check(ExpressionKind.MATCH_CONDITION, "variables.isBig"), "undeclared reference to 'variables'");
    }

    @Test
    void variablesUndeclaredInAPolicyWithoutVariables() {
        error(vap(false).check(ExpressionKind.VALIDATION, "variables.x == 1"), "undeclared reference to 'variables'");
    }

    @Test
    void failingVariableIsDyn() {
        CelChecker.Scope scope = vap(false);
        assertTrue(scope.declareVariable("bad", "1 + 'a'").isPresent());
        ok(scope.check(ExpressionKind.VALIDATION, "variables.bad == 1"));
    }

    @Test
    void mutations() {
        CelChecker.Scope map = checker.newScope(CelChecker.PolicyType.MUTATING, false, V136);
        ok(map.check(ExpressionKind.MUTATION_APPLY_CONFIGURATION, "Object{spec: Object.spec{replicas: 3}}"));
        exactly(map.check(ExpressionKind.MUTATION_APPLY_CONFIGURATION, "Object.spec{replicas: 3}"),
                "must evaluate to Object but got Object.spec");
        exactly(map.check(ExpressionKind.MUTATION_APPLY_CONFIGURATION, "object"), "must evaluate to Object but got dyn");
        ok(map.check(ExpressionKind.MUTATION_JSON_PATCH,
                "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a/b'), value: 'x'}]"));
        startsWith(map.check(ExpressionKind.MUTATION_JSON_PATCH, "[]"), "must evaluate to list(JSONPatch) but got list(");
        // variables are always declared in mutations (an unknown one is an undefined field)
        error(map.check(ExpressionKind.MUTATION_JSON_PATCH, "[JSONPatch{op: 'remove', path: variables.p}]"),
                "undefined field 'p'");
        // the patch types exist only in mutations
        error(map.declareVariable("o", "Object{}"), "undeclared reference");
        error(map.check(ExpressionKind.MATCH_CONDITION, "jsonpatch.escapeKey('a') == 'a'"), "undeclared reference");
    }

    @Test
    void compilesAtTheCompatibilityVersion() {
        // two-variable comprehensions (compatibility 1.32) need a 1.33 server
        CelChecker.Scope v133 = checker.newScope(CelChecker.PolicyType.VALIDATING, false, new KubeVersion(1, 33));
        ok(v133.check(ExpressionKind.VALIDATION, "[1].all(i, v, v > i)"));
        CelChecker.Scope v132 = checker.newScope(CelChecker.PolicyType.VALIDATING, false, new KubeVersion(1, 32));
        assertTrue(v132.check(ExpressionKind.VALIDATION, "[1].all(i, v, v > i)").isPresent());
    }
}
