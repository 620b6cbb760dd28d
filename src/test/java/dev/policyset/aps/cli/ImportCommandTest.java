package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps import gatekeeper} on the hand-made fixture {@code src/test/resources/import/gatekeeper}: a CEL
 * template with a dryrun constraint and a gator suite, and a Rego-only template that is refused.
 */
class ImportCommandTest {
    static final String GATEKEEPER = "src/test/resources/import/gatekeeper";

    @Test
    void aRefusalWritesNothingWithoutPartial(@TempDir Path dir) {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "gatekeeper", "-o", out.toString(), GATEKEEPER);
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("rego-only.yaml:1: error import/Rego ConstraintTemplate/k8sregoonly spec.targets[0].code: "
                + "the template has no K8sNativeValidation code source"), r.out());
        assertTrue(r.out().contains("nothing written"), r.out());
        assertFalse(Files.exists(out));
    }

    @Test
    void partialWritesSetsAndTestsThatPassAsGatorSays(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "gatekeeper", "--partial", "-o", out.toString(), GATEKEEPER);
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*policies imported +1\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*  import/Rego +1\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*test cases converted +3\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*test cases passing +3 of 3\n.*"), r.out());
        assertTrue(r.out().contains("warning import/Test Suite/disallowedtags tests[1]: test 'rego': its template was not "
                + "imported (import/Rego): its 1 case(s) are not converted"), r.out());

        String set = Files.readString(out.resolve("template.yaml"));
        assertTrue(set.contains("name: gatekeeper-k8sdisallowedtags-no-latest"), set);
        assertTrue(set.contains("kind: K8sDisallowedTags"), set);
        assertTrue(set.contains("validationActions:\n              - Audit"), set); // enforcementAction dryrun
        assertTrue(set.contains("name: gatekeeper_internal_match_namespaces"), set);
        // the written set is valid as it is (APS204: Gatekeeper's default matchConstraints match everything)
        RenderCommandTest.Run validate = run("validate", out.resolve("template.yaml").toString());
        assertEquals(ExitCodes.OK, validate.exit(), validate.out());

        // the converted cases assert the policy's decision although the binding only audits
        RenderCommandTest.Run test = run("test", out.toString());
        assertEquals(ExitCodes.OK, test.exit(), test.out());
        assertTrue(test.out().contains("PASS  latest-and-untagged"), test.out());
        String converted = Files.readString(out.resolve("disallowedtags-no-latest.test.yaml"));
        assertTrue(converted.contains("count: 1\n          messageMatches: ^container image has no tag$\n"), converted);
    }

    @Test
    void setsGoToStandardOutputWithoutADirectory() {
        RenderCommandTest.Run r = run("import", "gatekeeper", "--partial", GATEKEEPER + "/template.yaml", GATEKEEPER + "/samples");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().startsWith("---\napiVersion: admission.policyset.dev/v1alpha1\nkind: AdmissionPolicySet\n"), r.out());
        assertTrue(r.err().contains("policies imported"), r.err());
    }

    static final String KYVERNO = "src/test/resources/import/kyverno";

    @Test
    void kyvernoRulesAndValidatingPoliciesWithAutogenAndTheirKyvernoTest(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", out.toString(), KYVERNO);
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("policies.yaml:24: error import/NotCel ClusterPolicy/disallow-host-network rule "
                + "labels-by-pattern spec.rules[1].validate: the rule is written with pattern"), r.out());
        assertTrue(r.out().contains("error import/UnsupportedLibrary ValidatingPolicy/check-replicas-against-cluster spec: "
                + "an expression calls Kyverno's resource library"), r.out());
        assertTrue(r.out().matches("(?s).*policies imported +2\n.*test cases converted +5\n.*test cases passing +5 of 5\n.*"), r.out());
        String set = Files.readString(out.resolve("policies.yaml"));
        // Audit is [Audit, Warn] as Kyverno's generator has it; autogen for the Pod rule, none where the policy says so
        assertTrue(set.contains("validationActions:\n              - Audit\n              - Warn"), set);
        assertTrue(set.contains("- name: disallow-host-network-host-network\n      autogen:"), set);
        assertFalse(set.contains("- name: require-team-label\n      autogen:"), set);
        String test = Files.readString(out.resolve(".kyverno-test/kyverno-test.aps-test.yaml"));
        assertTrue(test.contains("policy: disallow-host-network-host-network-autogen\n          violated: true"), test);
    }

    @Test
    void withoutAutogenTheControllerCaseFails(@TempDir Path dir) {
        RenderCommandTest.Run r = run("import", "kyverno", "--autogen", "false", "--partial", "-o", dir.toString(), KYVERNO);
        assertTrue(r.out().matches("(?s).*test cases passing +4 of 5\n.*"), r.out());
    }

    static final String EXCEPTIONS = "src/test/resources/import/kyverno-exceptions";

    @Test
    void policyExceptionsBecomeNegatedMatchConditionsAndExemptWhatKyvernoExempts(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "kyverno", "-o", out.toString(), EXCEPTIONS + "/policies.yaml",
                EXCEPTIONS + "/exceptions.yaml", EXCEPTIONS + "/resources.yaml", EXCEPTIONS + "/kyverno-test.yaml");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        // the output says what each exception became
        assertTrue(r.out().contains("exceptions.yaml:9: info import/ExceptionApplied PolicyException/infra-host-network "
                + "spec.exceptions[0]: the exception became matchCondition(s) kyverno-exception-kyverno-infra-host-network "
                + "(negated) on policy disallow-host-network"), r.out());
        assertTrue(r.out().contains("info import/ExceptionApplied PolicyException/legacy-namespace spec.policyRefs[0]: the "
                + "exception became matchCondition(s) legacy-namespace (negated) on policy check-deployment-labels"), r.out());
        // exempted by namespace, by name wildcard, by label selector (skip) and not exempted (fail): all as Kyverno says
        assertTrue(r.out().matches("(?s).*test cases converted +9\n.*test cases passing +9 of 9\n.*"), r.out());
        String set = Files.readString(out.resolve("policies.yaml"));
        assertTrue(set.contains("expression: '!(object.metadata.namespace == ''legacy'')'"), set);
        assertTrue(set.contains(".matches('^debug-.*$')"), set);
        // the written set is valid, and its conditions guard what the request leaves out
        RenderCommandTest.Run validate = run("validate", out.resolve("policies.yaml").toString());
        assertEquals(ExitCodes.OK, validate.exit(), validate.out());
        assertTrue(validate.out().contains("0 error(s), 0 warning(s)"), validate.out());
    }

    @Test
    void withoutTheExceptionsTheExemptedCasesFail(@TempDir Path dir) {
        RenderCommandTest.Run r = run("import", "kyverno", "-o", dir.resolve("out").toString(), EXCEPTIONS + "/policies.yaml",
                EXCEPTIONS + "/resources.yaml", EXCEPTIONS + "/kyverno-test.yaml");
        // infra-host-pod, debug-1, labelled, legacy-unlabelled are violations without their exceptions
        assertTrue(r.out().matches("(?s).*test cases passing +5 of 9\n.*"), r.out());
    }

    @Test
    void anExceptionWithJmespathConditionsIsRefusedAndOneForAnotherPolicyExemptsNothing(@TempDir Path dir) {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "kyverno", "-o", out.toString(), EXCEPTIONS + "/policies.yaml",
                EXCEPTIONS + "/unsupported/exceptions.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("exceptions.yaml:13: error import/Exception PolicyException/jmespath-conditions "
                + "spec.conditions: conditions are JMESPath, which only Kyverno evaluates: rewrite the exception as a "
                + "policies.kyverno.io PolicyException with CEL matchConditions, then import"), r.out());
        assertTrue(r.out().contains("warning import/ExceptionTarget PolicyException/other-policy spec.exceptions[0]: policy "
                + "not-imported rules some-rule: no such policy or rule was imported"), r.out());
        assertTrue(r.out().contains("nothing written"), r.out());
        assertFalse(Files.exists(out));
    }

    static final String MUTATING = "src/test/resources/import/kyverno-mutating";

    @Test
    void mutatingPoliciesAndTheirPatchedResources(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", out.toString(), MUTATING);
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        // refused: mutating existing resources, and a Pod policy Kyverno also applies to pod controllers
        assertTrue(r.out().contains("policies.yaml:78: error import/UnsupportedRule MutatingPolicy/label-existing-secrets "
                + "spec.evaluation.mutateExisting.enabled: mutateExisting changes existing resources from Kyverno's background "
                + "controller; a MutatingAdmissionPolicy only mutates the object of the request it admits: keep the policy "
                + "in Kyverno"), r.out());
        assertTrue(r.out().contains("error import/Autogen MutatingPolicy/add-safe-to-evict spec.autogen.podControllers: "
                + "Kyverno also mutates the pod templates of Deployments"), r.out());
        assertTrue(r.out().contains("warning import/Test Test/mutating results[4]: 1 case(s) of policy add-safe-to-evict not "
                + "converted: the policy was refused (import/Autogen)"), r.out());
        assertTrue(r.out().contains("warning import/Test Test/mutating results[5]: 1 case(s) of MutatingPolicy add-team-label "
                + "expecting 'pass' without patchedResources not converted"), r.out());
        assertTrue(r.out().matches("(?s).*policies imported +2\n  of which mutating +2\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*  import/Autogen +1\n  import/UnsupportedRule +1\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*test cases converted +4\n.*test cases passing +4 of 4\n.*"), r.out());
        String set = Files.readString(out.resolve("policies.yaml"));
        assertTrue(set.contains("mutatingPolicies:\n    - name: add-team-label\n"), set);
        // Kyverno's default reinvocationPolicy is written out (a set requires it); a given one is kept
        assertTrue(set.contains("reinvocationPolicy: Never"), set);
        assertTrue(set.contains("reinvocationPolicy: IfNeeded"), set);
        assertTrue(set.contains("patchType: JSONPatch"), set);
        assertFalse(set.contains("label-existing-secrets"), set);
        RenderCommandTest.Run validate = run("validate", out.resolve("policies.yaml").toString());
        assertEquals(ExitCodes.OK, validate.exit(), validate.out());
        // the converted test expects the mutated object of patchedResources, and the object left alone for skip
        String test = Files.readString(out.resolve(".kyverno-test/kyverno-test.aps-test.yaml"));
        assertTrue(test.contains("name: add-team-label pass Deployment/checkout"), test);
        assertTrue(test.contains("team: payments"), test);
        RenderCommandTest.Run aps = run("test", out.toString());
        assertEquals(ExitCodes.OK, aps.exit(), aps.out());
        assertTrue(aps.out().contains("PASS  mark-checked pass Pod/plain"), aps.out());
    }

    @Test
    void aMutatingPolicyRefusedForAutogenIsImportedWithoutIt(@TempDir Path dir) {
        RenderCommandTest.Run r = run("import", "kyverno", "--autogen", "false", "--partial", "-o", dir.toString(), MUTATING);
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains("import/Autogen"), r.out());
        assertTrue(r.out().matches("(?s).*policies imported +3\n  of which mutating +3\n.*"), r.out());
        // the Pod of add-safe-to-evict gets its annotation as patchedResources says
        assertTrue(r.out().matches("(?s).*test cases converted +5\n.*test cases passing +5 of 5\n.*"), r.out());
    }

    @Test
    void aWrongPatchedResourceFailsTheConvertedCase(@TempDir Path dir) throws IOException {
        // the expectation is the patched object: a patched resource the mutation does not produce is a failing case
        Path in = dir.resolve("in");
        Files.createDirectories(in.resolve(".kyverno-test"));
        for (String f : new String[] {"policies.yaml", "resources.yaml", ".kyverno-test/kyverno-test.yaml"}) {
            Files.copy(Path.of(MUTATING, f), in.resolve(f));
        }
        Files.writeString(in.resolve(".kyverno-test/patched.yaml"), Files.readString(Path.of(MUTATING, ".kyverno-test/patched.yaml"))
                .replace("labels: {team: payments}", "labels: {team: platform}"));
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", dir.resolve("out").toString(), in.toString());
        assertTrue(r.out().matches("(?s).*test cases passing +3 of 4\n.*"), r.out());
    }

    @Test
    void withoutPartialARefusedMutatingPolicyWritesNothing(@TempDir Path dir) {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "kyverno", "-o", out.toString(), MUTATING + "/policies.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("nothing written"), r.out());
        assertFalse(Files.exists(out));
    }

    static final String VALUES = "src/test/resources/import/kyverno-values";

    @Test
    void aTestsValuesGiveNamespaceLabelsTheOperationAndSubresources(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", out.toString(), VALUES);
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        // a value only a ClusterPolicy rule's JMESPath context holds refuses the case it is given for, and only that one
        assertTrue(r.out().contains("kyverno-test.yaml:29: warning import/Test Test/values results[4]: resource Pod/dev/host "
                + "not converted: the test's values give "
                + "policies[disallow-host-network].resources[host].values.request.object.spec.hostNetwork, variables "
                + "Kyverno puts in the JMESPath context of disallow-host-network's rules, which a PolicyTest has no place "
                + "for"), r.out());
        assertTrue(r.out().matches("(?s).*test cases converted +5\n.*test cases passing +5 of 5\n.*"), r.out());
        String test = Files.readString(out.resolve(".kyverno-test/kyverno-test.aps-test.yaml"));
        assertTrue(test.contains("namespaces:\n    - name: shop\n      labels:\n        env: production\n"), test);
        assertTrue(test.contains("name: freeze-updates fail Pod/shop/frozen\n    operation: UPDATE\n"), test);
        assertTrue(test.contains("name: zone-on-binding pass Binding/default/web\n    resource: v1/pods\n    subResource: binding\n"), test);
        assertTrue(test.contains("name: disallow-host-network/host-network pass Pod/dev/no-host"), test);
    }

    @Test
    void withoutItsValuesTheSameTestFailsWhereTheyMatter(@TempDir Path dir) throws IOException {
        Path in = copyOfValues(dir);
        Path kt = in.resolve(".kyverno-test/kyverno-test.yaml");
        Files.writeString(kt, Files.readString(kt).replace("variables: values.yaml\n", ""));
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", dir.resolve("out").toString(), in.toString());
        assertFalse(r.out().contains("not converted"), r.out());
        // the namespace-label, UPDATE-only and subresource cases fail; the other three pass as before
        assertTrue(r.out().matches("(?s).*test cases converted +6\n.*test cases passing +3 of 6\n.*"), r.out());
    }

    @Test
    void inlineValuesWinOverTheVariablesFile(@TempDir Path dir) throws IOException {
        // Kyverno reads the variables file only when the test has no inline values: these give no labels and no operation
        Path in = copyOfValues(dir);
        Path kt = in.resolve(".kyverno-test/kyverno-test.yaml");
        Files.writeString(kt, Files.readString(kt).replace("variables: values.yaml\n", "variables: values.yaml\nvalues: {}\n"));
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", dir.resolve("out").toString(), in.toString());
        assertTrue(r.out().matches("(?s).*test cases converted +6\n.*test cases passing +3 of 6\n.*"), r.out());
    }

    @Test
    void anUnreadableValuesFileOrAnOperationNoRequestHasIsAFinding(@TempDir Path dir) throws IOException {
        Path in = copyOfValues(dir);
        Path kt = in.resolve(".kyverno-test/kyverno-test.yaml");
        Files.writeString(kt, Files.readString(kt).replace("variables: values.yaml", "variables: missing.yaml"));
        RenderCommandTest.Run r = run("import", "kyverno", "--partial", "-o", dir.resolve("out").toString(), in.toString());
        assertTrue(r.out().contains("warning import/Test Test/values variables: values file 'missing.yaml': "), r.out());
        assertTrue(r.out().contains("the test's cases are not converted, as Kyverno does not run them without it"), r.out());
        assertFalse(Files.exists(dir.resolve("out/.kyverno-test/kyverno-test.aps-test.yaml")));

        Path values = in.resolve(".kyverno-test/values.yaml");
        Files.writeString(kt, Files.readString(kt).replace("variables: missing.yaml", "variables: values.yaml"));
        Files.writeString(values, Files.readString(values).replace("request.operation: UPDATE", "request.operation: CONNECT"));
        r = run("import", "kyverno", "--partial", "-o", dir.resolve("out2").toString(), in.toString());
        assertTrue(r.out().contains("warning import/Test Test/values results[0]: resource Pod/shop/unlabelled with operation "
                + "'CONNECT' not converted: Kyverno's CLI simulates CREATE, UPDATE and DELETE requests"), r.out());
    }

    private static Path copyOfValues(Path dir) throws IOException {
        Path in = dir.resolve("in");
        Files.createDirectories(in.resolve(".kyverno-test"));
        for (String f : new String[] {"policies.yaml", "resources.yaml", ".kyverno-test/kyverno-test.yaml",
                ".kyverno-test/values.yaml", ".kyverno-test/patched.yaml"}) {
            Files.copy(Path.of(VALUES, f), in.resolve(f));
        }
        return in;
    }
}
