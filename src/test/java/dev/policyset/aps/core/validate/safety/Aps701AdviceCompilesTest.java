package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.policyset.aps.testing.FieldPaths.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * APS701's advice for each kind of expression, pasted: the bounded form it prints, with the expression in place of
 * {@code ...}, must compile where the expression is (no {@code api/*} finding: the API server's create-time check,
 * result type included) and no longer be over the per-expression limit. A {@code size(x) <= 100 && ...} is a bool, so
 * it only fits validations and matchConditions; elsewhere the advice is a conditional.
 */
class Aps701AdviceCompilesTest {
    private static final Validator VALIDATOR = new Validator(new ValidationOptions(KubeVersion.NEWEST, Set.of()),
            new KubernetesCelChecker(), List.of(new Aps701CelCost()));
    private static final Pattern ADVICE = Pattern.compile("before the work: `([^`]+)` with the current expression for `...`");

    /** Linear in the containers and cheap per item: the list's length is what a bound fixes (a regex per item of
     *  unbounded length would also need less work per item, which the advice says separately). */
    private static final String LOOP = "object.spec.containers.all(c, c.name.startsWith('app-'))";
    private static final String NAMES = "object.spec.containers.filter(c, c.name.startsWith('app-')).map(c, c.name)";

    private static final String COUNT = "string(size(object.spec.containers.filter(c, c.name.startsWith('app-'))))";
    /** config/samples/mutating-defaults.yaml's default-image-pull-policy, which got this advice. */
    private static final String PATCH = "object.spec.containers.filter(c, !has(c.imagePullPolicy)).map(c, JSONPatch{"
            + "op: 'add', path: '/spec/containers/' + string(object.spec.containers.indexOf(c)) + '/imagePullPolicy', "
            + "value: 'IfNotPresent'})";

    private static final String VAP = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: p}
            spec:
              failurePolicy: Ignore
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
            """;
    private static final String MAP = """
            apiVersion: admissionregistration.k8s.io/v1beta1
            kind: MutatingAdmissionPolicy
            metadata: {name: m}
            spec:
              failurePolicy: Ignore
              reinvocationPolicy: Never
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
            """;
    private static final String VWC = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata: {name: w}
            webhooks:
            - name: w.example.com
              failurePolicy: Ignore
              sideEffects: None
              admissionReviewVersions: [v1]
              clientConfig: {url: "https://w.example.com/validate"}
              rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods], scope: "*"}]
            """;

    /** {@code <kind> | <field> | <document body after the kind's header>}; EXPR stands for the expensive expression. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            validation         | spec.validations[0].expression                  | VAP | validations: [{expression: "LOOP"}]
            matchCondition     | spec.matchConditions[0].expression              | VAP | matchConditions: [{name: c, expression: "LOOP"}]\\nvalidations: [{expression: 'true'}]
            messageExpression  | spec.validations[0].messageExpression           | VAP | validations: [{expression: 'false', messageExpression: "'app containers: ' + COUNT"}]
            auditAnnotation    | spec.auditAnnotations[0].valueExpression        | VAP | auditAnnotations: [{key: k, valueExpression: "COUNT"}]\\nvalidations: [{expression: 'true'}]
            variable (list)    | spec.variables[0].expression                    | VAP | variables: [{name: v, expression: "NAMES"}]\\nvalidations: [{expression: 'size(variables.v) == 0'}]
            variable (bool)    | spec.variables[0].expression                    | VAP | variables: [{name: v, expression: "LOOP"}]\\nvalidations: [{expression: 'variables.v'}]
            applyConfiguration | spec.mutations[0].applyConfiguration.expression | MAP | mutations: [{patchType: ApplyConfiguration, applyConfiguration: {expression: "Object{metadata: Object.metadata{labels: {'signed': string(LOOP)}}}"}}]
            jsonPatch          | spec.mutations[0].jsonPatch.expression          | MAP | mutations: [{patchType: JSONPatch, jsonPatch: {expression: "PATCH"}}]
            webhook match      | webhooks[0].matchConditions[0].expression       | VWC | matchConditions: [{name: c, expression: "LOOP"}]
            """)
    void pastedAdviceCompilesAndIsBounded(String name, String field, String header, String body) {
        String yaml = switch (header) {
            case "VAP" -> VAP;
            case "MAP" -> MAP;
            default -> VWC;
        } + ("  " + body.replace("\\n", "\n  ")).replace("LOOP", LOOP).replace("NAMES", NAMES)
                .replace("COUNT", COUNT).replace("PATCH", PATCH);
        ValidationSubject subject = SafetyFixtures.subjects(yaml).get(0);
        List<Finding> before = VALIDATOR.validate(List.of(subject)).findings();
        assertEquals(List.of(), before.stream().filter(f -> f.rule().startsWith("api/")).toList(), yaml);
        Finding finding = before.stream().filter(f -> f.rule().equals("APS701") && f.field().equals(field)).findFirst()
                .orElseThrow(() -> new AssertionError("no APS701 on " + field + ": " + before));
        Matcher advice = ADVICE.matcher(finding.message());
        assertTrue(advice.find(), finding.message());
        String expression = at(subject.object().manifest(), field).asText();
        String pasted = advice.group(1).replace("...", expression);

        ObjectNode manifest = subject.object().manifest().deepCopy();
        int dot = field.lastIndexOf('.');
        ((ObjectNode) at(manifest, field.substring(0, dot))).set(field.substring(dot + 1), TextNode.valueOf(pasted));
        RenderedObject o = subject.object();
        List<Finding> after = VALIDATOR.validate(List.of(ValidationSubject.bare(
                new RenderedObject(o.kind(), o.apiVersion(), o.name(), manifest, o.source())))).findings();
        assertEquals(List.of(), after.stream().filter(f -> f.field().equals(field)).toList(),
                "pasted advice for a " + name + ": " + pasted);
    }

}
