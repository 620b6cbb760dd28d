package dev.policyset.aps.cli.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.cli.ExitCodes;
import dev.policyset.aps.core.impact.ImpactReport;
import dev.policyset.aps.core.impact.ImpactScan;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code aps-bench impact}: time and memory of the impact scan on a generated cluster, by default 10,000
 * existing objects (Deployments and Pods over 50 namespaces, about one in ten violating) and 100 validating
 * policies of five shapes (label check, variables with optional fields, params, a matchCondition, a
 * namespaceSelector binding), each with one {@code [Warn, Audit]} binding.
 *
 * <p>Rounds alternate a scan of all objects with a scan of the first half, after warm-up; it prints the medians,
 * the median of the pairwise ratios (full / half: 2.0 is linear), the time per (object, binding) pair, the bytes
 * the scan allocates, and the heap the objects and the report retain.
 */
@Command(name = "impact", mixinStandardHelpOptions = true,
        description = "Time and memory of the impact scan on a generated cluster (default 10,000 objects, 100 policies).")
final class ImpactBench implements Callable<Integer> {
    @Option(names = "--objects", defaultValue = "10000", description = "Existing objects (default: ${DEFAULT-VALUE}).")
    int objects;

    @Option(names = "--policies", defaultValue = "100", description = "Validating policies (default: ${DEFAULT-VALUE}).")
    int policies;

    @Option(names = "--iterations", defaultValue = "5", description = "Timed pairs (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--warmup", defaultValue = "1", description = "Untimed full scans first (default: ${DEFAULT-VALUE}).")
    int warmup;

    enum ClusterShape { synthetic, realistic }

    @Option(names = "--cluster", defaultValue = "synthetic", description = "synthetic: small Deployments and Pods, held in "
            + "memory; realistic: API-server-sized Pods, ReplicaSets, Deployments, Services, ConfigMaps, made as they are "
            + "read (${COMPLETION-CANDIDATES}; default: ${DEFAULT-VALUE}).")
    ClusterShape shape;

    @Option(names = "--ladder", description = "Time a quarter, a half and all of the objects in each round (linearity: the "
            + "time per pair should be flat) instead of half and all.")
    boolean ladder;

    @Option(names = "--floor", description = "Instead of the scan of every policy, compare one simple policy's scan "
            + "with bare cel-java evaluating the same expression over the same objects (interleaved rounds).")
    boolean floor;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        long before = retained();
        List<ObjectNode> cluster;
        int namespaces;
        if (shape == ClusterShape.realistic) {
            RealisticCluster realistic = new RealisticCluster(objects);
            cluster = realistic;
            namespaces = realistic.namespaces();
            long one = realistic.sampleBytes(ImpactBench::retained);
            long t0 = System.nanoTime();
            realistic.forEach(o -> { });
            double making = (System.nanoTime() - t0) / 1e6;
            out.printf("realistic objects, made as the scan reads them: one retains %.1f KiB as a JSON tree (all %d "
                    + "at once would retain %.0f MiB); making them takes %.0f ms per pass, and a scan reads them twice "
                    + "(namespaces and params, then the scan)%n", one / 1024.0, objects, one * (double) objects / 1048576.0,
                    making);
        } else {
            cluster = cluster(objects);
            namespaces = NAMESPACES;
        }
        long objectsHeap = retained() - before;
        if (floor) {
            return new EvaluationFloor(out, warmup, iterations).run(cluster);
        }
        List<RenderedObject> configuration = configuration(policies);
        List<ObjectNode> half = cluster.subList(0, cluster.size() / 2);
        List<ObjectNode> quarter = cluster.subList(0, cluster.size() / 4);
        KubeVersion version = KubeVersion.NEWEST;
        ImpactScan.Options options = ImpactScan.Options.defaults();
        out.printf("impact scan: %d objects (%d namespaces), %d policies with one binding each; warm-up %d, timed %d %s%n",
                cluster.size(), namespaces, policies, warmup, iterations, ladder ? "rounds of 1/4, 1/2, 1" : "pairs");
        out.printf("objects as JSON trees retain %.1f MiB of heap%n", objectsHeap / 1048576.0);
        out.flush();
        HeapPeak peak = new HeapPeak();
        ImpactReport report = null;
        for (int i = 0; i < warmup; i++) {
            report = ImpactScan.scan(configuration, cluster, version, options);
        }
        double[] full = new double[iterations];
        double[] halves = new double[iterations];
        double[] ratios = new double[iterations];
        long[] allocated = new long[iterations];
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        double[] quarters = new double[iterations];
        double[] halfRatios = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            if (ladder) {
                long q0 = System.nanoTime();
                ImpactScan.scan(configuration, quarter, version, options);
                quarters[i] = (System.nanoTime() - q0) / 1e6;
            }
            long a0 = threads.getThreadAllocatedBytes(thread);
            long t0 = System.nanoTime();
            report = ImpactScan.scan(configuration, cluster, version, options);
            long t1 = System.nanoTime();
            allocated[i] = threads.getThreadAllocatedBytes(thread) - a0;
            ImpactScan.scan(configuration, half, version, options);
            long t2 = System.nanoTime();
            full[i] = (t1 - t0) / 1e6;
            halves[i] = (t2 - t1) / 1e6;
            ratios[i] = full[i] / halves[i];
            if (ladder) {
                halfRatios[i] = halves[i] / quarters[i];
                out.printf("  round %d: quarter %.0f ms, half %.0f ms, full %.0f ms%n", i + 1, quarters[i], halves[i], full[i]);
            } else {
                out.printf("  round %d: full %.0f ms, half %.0f ms%n", i + 1, full[i], halves[i]);
            }
            out.flush();
        }
        long pairs = report.bindings().stream().mapToLong(b -> cluster.size()).sum();
        long matched = report.bindings().stream().mapToLong(b -> b.matched()).sum();
        long violations = report.bindings().stream().mapToLong(b -> b.deniedUnderDeny()).sum();
        long beforeReport = retained();
        ImpactReport kept = ImpactScan.scan(configuration, cluster, version, options);
        long reportHeap = retained() - beforeReport;
        out.printf("median full scan %.0f ms, half %.0f ms; median ratio full/half %.2f (2.0 = linear)%n",
                median(full), median(halves), median(ratios));
        if (ladder) {
            long bindings = report.bindings().size();
            out.printf("median quarter scan %.0f ms; median ratio half/quarter %.2f (2.0 = linear); µs per pair: "
                            + "quarter %.2f, half %.2f, full %.2f%n", median(quarters), median(halfRatios),
                    median(quarters) * 1000 / (quarter.size() * bindings), median(halves) * 1000 / (half.size() * bindings),
                    median(full) * 1000 / (cluster.size() * bindings));
        }
        out.printf("%,d (object, binding) pairs, %,d matched and evaluated, %,d would be denied under Deny%n",
                pairs, matched, violations);
        out.printf("%.2f µs per pair, %.1f µs per evaluated pair; %.0f MiB allocated per full scan (median); "
                        + "report retains %.2f MiB; max heap %d MiB%n",
                median(full) * 1000 / pairs, median(full) * 1000 / Math.max(1, matched),
                median(Arrays.stream(allocated).mapToDouble(x -> x).toArray()) / 1048576.0,
                reportHeap / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576);
        out.printf("peak heap used (after any collection, all pools): %.0f MiB%n", peak.mib());
        if (kept.bindings().isEmpty()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        return ExitCodes.OK;
    }

    private static final int NAMESPACES = 50;

    /** Half Deployments, half Pods over 50 namespaces; one object in ten lacks the team label or shares the host network. */
    static List<ObjectNode> cluster(int count) {
        List<ObjectNode> out = new ArrayList<>();
        for (int n = 0; n < NAMESPACES; n++) {
            ObjectNode ns = object("v1", "Namespace", null, "ns-" + n);
            ((ObjectNode) ns.get("metadata")).putObject("labels").put("environment", n % 2 == 0 ? "production" : "dev");
            out.add(ns);
        }
        ObjectNode params = object("v1", "ConfigMap", "config", "limits");
        params.putObject("data").put("maxReplicas", "5");
        out.add(params);
        for (int i = 0; out.size() < count; i++) {
            String ns = "ns-" + (i % NAMESPACES);
            boolean bad = i % 10 == 0;
            ObjectNode o;
            if (i % 2 == 0) {
                o = object("apps/v1", "Deployment", ns, "app-" + i);
                ObjectNode spec = o.putObject("spec");
                spec.put("replicas", bad ? 9 : 2);
                spec.putObject("template").putObject("spec").set("containers", containers(i, bad));
            } else {
                o = object("v1", "Pod", ns, "pod-" + i);
                ObjectNode spec = o.putObject("spec");
                spec.set("containers", containers(i, bad));
                if (bad) {
                    spec.put("hostNetwork", true);
                }
            }
            ObjectNode labels = ((ObjectNode) o.get("metadata")).putObject("labels");
            labels.put("app", "app-" + i);
            if (!bad) {
                labels.put("team", "team-" + (i % 7));
            }
            out.add(o);
        }
        return out;
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode containers(int i, boolean bad) {
        var list = F.arrayNode();
        ObjectNode c = list.addObject().put("name", "main").put("image", (bad ? "docker.io/" : "registry.example.com/") + "app:" + i);
        c.putObject("resources").putObject("limits").put("memory", "256Mi").put("cpu", "500m");
        c.putObject("securityContext").put("allowPrivilegeEscalation", bad);
        list.addObject().put("name", "sidecar").put("image", "registry.example.com/proxy:1");
        return list;
    }

    private static ObjectNode object(String apiVersion, String kind, String namespace, String name) {
        ObjectNode o = F.objectNode().put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        return o;
    }

    /** Five policy shapes in turn, each with one [Warn, Audit] binding. */
    static List<RenderedObject> configuration(int count) {
        List<RenderedObject> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "policy-" + i;
            String binding = switch (i % 5) {
                case 4 -> "  matchResources: {namespaceSelector: {matchLabels: {environment: production}}}\n";
                case 2 -> "  paramRef: {name: limits, namespace: config, parameterNotFoundAction: Deny}\n";
                default -> "";
            };
            String policy = switch (i % 5) {
                case 0 -> """
                        spec:
                          matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}]}
                          validations:
                          - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                            messageExpression: "'missing team label on ' + object.metadata.name"
                        """;
                case 1 -> """
                        spec:
                          matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}]}
                          variables:
                          - name: containers
                            expression: "object.spec.containers + object.spec.?initContainers.orValue([])"
                          validations:
                          - expression: "variables.containers.all(c, !c.?securityContext.?allowPrivilegeEscalation.orValue(false))"
                            message: no privilege escalation
                          - expression: "variables.containers.all(c, c.image.startsWith('registry.example.com/'))"
                            message: images from registry.example.com only
                        """;
                case 2 -> """
                        spec:
                          paramKind: {apiVersion: v1, kind: ConfigMap}
                          matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}]}
                          validations:
                          - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
                            messageExpression: "'replicas above ' + params.data.maxReplicas"
                        """;
                case 3 -> """
                        spec:
                          matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}]}
                          matchConditions:
                          - name: not-system
                            expression: "!request.userInfo.username.startsWith('system:')"
                          validations:
                          - expression: "!object.spec.?hostNetwork.orValue(false)"
                            message: no host network
                        """;
                default -> """
                        spec:
                          matchConstraints: {resourceRules: [{apiGroups: ["", apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods, deployments]}]}
                          validations:
                          - expression: "object.metadata.?labels.?app.hasValue()"
                            message: app label required
                        """;
            };
            out.add(rendered(AdmissionKind.VALIDATING_ADMISSION_POLICY,
                    "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: "
                            + name + "}\n" + policy));
            out.add(rendered(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING,
                    "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: "
                            + name + "-binding}\nspec:\n  policyName: " + name + "\n  validationActions: [Warn, Audit]\n" + binding));
        }
        return out;
    }

    static RenderedObject rendered(AdmissionKind kind, String yaml) {
        try {
            ObjectNode n = (ObjectNode) Yaml.parse("bench", yaml).get(0).content();
            return new RenderedObject(kind, n.path("apiVersion").asText(), n.path("metadata").path("name").asText(), n, "");
        } catch (dev.policyset.aps.core.yaml.DocumentParseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The most heap in use at any time since it was made (the JVM's per-pool peaks, summed). */
    static final class HeapPeak {
        HeapPeak() {
            ManagementFactory.getMemoryPoolMXBeans().forEach(java.lang.management.MemoryPoolMXBean::resetPeakUsage);
        }

        double mib() {
            return ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
                    .mapToLong(p -> p.getPeakUsage().getUsed()).sum() / 1048576.0;
        }
    }

    static long retained() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
