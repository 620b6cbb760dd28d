package dev.policyset.aps.cli.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.policyset.aps.cli.ExitCodes;
import dev.policyset.aps.core.impact.ImpactReport;
import dev.policyset.aps.core.impact.ImpactScan;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code aps-bench impact --floor}: what one simple policy costs per (object, binding) pair in the impact scan,
 * against the least any evaluation of it can cost: bare cel-java running the same expression, compiled and planned
 * once, over the same objects, each object converted once to the Java maps cel-java takes (Jackson), as a caller
 * converts an activation once per request. Rounds alternate the two; each round gives one ratio, and the median of
 * the ratios is the figure (a load change on a shared machine hits both halves of a round).
 *
 * <p>The scan's side is everything {@code aps impact} does for the pair: the interception model's match, the
 * dispatcher, the cost-counted evaluation in the Kubernetes environment, the tally. Only Pods and Deployments are
 * used, which the policy matches, so every pair is evaluated on both sides.
 */
final class EvaluationFloor {
    static final String EXPRESSION = "has(object.metadata.labels) && 'team' in object.metadata.labels";

    private final PrintWriter out;
    private final int warmup;
    private final int iterations;

    EvaluationFloor(PrintWriter out, int warmup, int iterations) {
        this.out = out;
        this.warmup = warmup;
        this.iterations = iterations;
    }

    int run(List<ObjectNode> cluster) {
        List<ObjectNode> objects = new ArrayList<>();
        for (ObjectNode o : cluster) {
            String kind = o.path("kind").asText("");
            if (kind.equals("Pod") || kind.equals("Deployment")) {
                objects.add(o);
            }
        }
        List<RenderedObject> configuration = List.of(
                ImpactBench.rendered(dev.policyset.aps.core.model.AdmissionKind.VALIDATING_ADMISSION_POLICY, """
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingAdmissionPolicy
                        metadata: {name: team-label}
                        spec:
                          matchConstraints: {resourceRules: [{apiGroups: ["", apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods, deployments]}]}
                          validations:
                          - expression: "%s"
                            message: team label required
                        """.formatted(EXPRESSION)),
                ImpactBench.rendered(dev.policyset.aps.core.model.AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, """
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingAdmissionPolicyBinding
                        metadata: {name: team-label-binding}
                        spec: {policyName: team-label, validationActions: [Warn, Audit]}
                        """));
        CelRuntime.Program program = bareProgram();
        out.printf("evaluation floor: %d objects (Pods, Deployments), one policy (%s); warm-up %d, timed %d rounds%n",
                objects.size(), EXPRESSION, warmup, iterations);
        out.flush();
        long[] floorFailures = {0};
        Runnable scan = () -> {
            ImpactReport r = ImpactScan.scan(configuration, objects, KubeVersion.NEWEST, ImpactScan.Options.defaults());
            if (r.bindings().get(0).matched() != objects.size()) {
                throw new IllegalStateException("the scan evaluated " + r.bindings().get(0).matched() + " of " + objects.size());
            }
        };
        Runnable bare = () -> {
            long failing = 0;
            for (ObjectNode o : objects) {
                Map<String, Object> activation = Map.of("object", Yaml.mapper().convertValue(o, Map.class));
                try {
                    if (!Boolean.TRUE.equals(program.eval(activation))) {
                        failing++;
                    }
                } catch (CelEvaluationException e) {
                    throw new IllegalStateException(e);
                }
            }
            floorFailures[0] = failing;
        };
        // The strictest floor: evaluation alone, the objects converted beforehand (outside the timing).
        List<Map<String, Object>> converted = new ArrayList<>();
        objects.forEach(o -> converted.add(Map.of("object", Yaml.mapper().convertValue(o, Map.class))));
        Runnable evalOnly = () -> {
            for (Map<String, Object> activation : converted) {
                try {
                    program.eval(activation);
                } catch (CelEvaluationException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        for (int i = 0; i < warmup; i++) {
            scan.run();
            bare.run();
            evalOnly.run();
        }
        double[] evals = new double[iterations];
        double[] evalRatios = new double[iterations];
        double[] scans = new double[iterations];
        double[] floors = new double[iterations];
        double[] ratios = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            long t0 = System.nanoTime();
            scan.run();
            long t1 = System.nanoTime();
            bare.run();
            long t2 = System.nanoTime();
            scans[i] = (t1 - t0) / 1e3 / objects.size();
            floors[i] = (t2 - t1) / 1e3 / objects.size();
            ratios[i] = scans[i] / floors[i];
            evalOnly.run();
            evals[i] = (System.nanoTime() - t2) / 1e3 / objects.size();
            evalRatios[i] = scans[i] / evals[i];
            out.printf("  round %d: scan %.2f µs per pair, bare cel-java %.2f µs per object (%.2f evaluating alone), "
                    + "ratios %.2f (%.2f)%n", i + 1, scans[i], floors[i], evals[i], ratios[i], evalRatios[i]);
            out.flush();
        }
        out.printf("median: scan %.2f µs per pair, bare cel-java %.2f µs per object (%d failing); median ratio %.2f "
                        + "(min %.2f, max %.2f; target: at most 3)%n", median(scans), median(floors), floorFailures[0],
                median(ratios), Arrays.stream(ratios).min().orElse(Double.NaN), Arrays.stream(ratios).max().orElse(Double.NaN));
        out.printf("against evaluation alone (objects converted beforehand): bare cel-java %.2f µs per object, median "
                + "ratio %.2f%n", median(evals), median(evalRatios));
        return ExitCodes.OK;
    }

    /** The expression compiled and planned once by stock cel-java, {@code object} declared dyn. */
    private static CelRuntime.Program bareProgram() {
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setStandardMacros(dev.cel.parser.CelStandardMacro.STANDARD_MACROS).addVar("object", SimpleType.DYN).build();
        CelRuntime runtime = CelRuntimeFactory.plannerRuntimeBuilder().build();
        try {
            CelAbstractSyntaxTree ast = compiler.compile(EXPRESSION).getAst();
            return runtime.createProgram(ast);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
