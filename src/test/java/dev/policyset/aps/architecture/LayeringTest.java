package dev.policyset.aps.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the layers honest (STYLE.md): {@code core} is pure, {@code cli} does not need Quarkus or the
 * operator, and every room stands only on the floors below it. It reads the compiled classes' constant pools,
 * which name every class and method they use.
 */
class LayeringTest {
    private static final Path CLASSES = Path.of("target/classes/dev/policyset/aps");

    /**
     * The floor plan, lowest floor first: a room may use rooms on lower floors only, never one on its own floor
     * or above, so no import climbs back up and no two rooms can form a cycle. A room is a package under
     * {@code dev/policyset/aps} with its subpackages ({@code core/cel} holds {@code core/cel/lib} and
     * {@code core/cel/cost}); each package-info says what its room owns and must not import.
     */
    static final List<List<String>> FLOORS = List.of(
            // foundations: the CRD types, findings, shared helpers, YAML, the interception model
            List.of("api", "core/finding", "core/util", "core/yaml", "core/intercept"),
            // the schemas of the kinds, then the policy set as the core reads it (its cluster view holds schemas)
            List.of("core/schema"),
            List.of("core/model"),
            // the Kubernetes CEL environment (compile, check, plan, run, cost) and rendering
            List.of("core/cel", "core/render"),
            // running requests through policies, the admission chain, status
            List.of("core/evaluate", "core/chain", "core/status"),
            // judging: validation, impact of existing objects, webhook answers
            List.of("core/validate", "core/impact", "core/review"),
            List.of("core/plan", "core/importer"),
            // the two shells, and the build's own generators
            List.of("cli", "operator", "build"),
            List.of("cli/bench"));

    private static final Pattern ROOM_REFERENCE = Pattern.compile("dev/policyset/aps/([a-z0-9]+)(?:/([a-z0-9]+))?");

    /** {@code core/cel/lib/X} is in room {@code core/cel}; {@code cli/bench/X} in {@code cli/bench}; {@code operator/webhook/X} in {@code operator}. */
    static String roomOf(String first, String second) {
        if (first.equals("core") && second != null) {
            return "core/" + second;
        }
        if (first.equals("cli") && "bench".equals(second)) {
            return "cli/bench";
        }
        return first;
    }

    @Test
    void everyRoomUsesOnlyTheFloorsBelowIt() throws IOException {
        Map<String, Integer> floorOf = new LinkedHashMap<>();
        for (int i = 0; i < FLOORS.size(); i++) {
            for (String room : FLOORS.get(i)) {
                floorOf.put(room, i);
            }
        }
        List<String> violations = new ArrayList<>();
        TreeSet<String> unplaced = new TreeSet<>();
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(CLASSES)) {
            classes = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertFalse(classes.isEmpty(), "no classes under " + CLASSES);
        for (Path c : classes) {
            Path rel = CLASSES.relativize(c);
            if (rel.getNameCount() < 2 || rel.getFileName().toString().equals("package-info.class")) {
                continue;
            }
            String room = roomOf(rel.getName(0).toString(), rel.getNameCount() > 2 ? rel.getName(1).toString() : null);
            Integer floor = floorOf.get(room);
            if (floor == null) {
                unplaced.add(room);
                continue;
            }
            climbs(room, Files.readAllBytes(c), floorOf).forEach(used -> violations.add(rel + " (" + room + ", floor " + floorOf.get(room) + ") uses " + used
                    + " (floor " + floorOf.get(used) + ")"));
        }
        assertTrue(unplaced.isEmpty(), "rooms on no floor (add them to FLOORS): " + unplaced);
        assertTrue(violations.isEmpty(), "imports that climb up or sideways:\n" + String.join("\n", violations));
    }

    /** The rooms a class of {@code room} uses on its own floor or above. */
    static TreeSet<String> climbs(String room, byte[] classFile, Map<String, Integer> floorOf) {
        Matcher m = ROOM_REFERENCE.matcher(new String(classFile, StandardCharsets.ISO_8859_1));
        TreeSet<String> climbs = new TreeSet<>();
        while (m.find()) {
            String used = roomOf(m.group(1), m.group(2));
            Integer usedFloor = floorOf.get(used);
            if (usedFloor != null && !used.equals(room) && usedFloor >= floorOf.get(room)) {
                climbs.add(used);
            }
        }
        return climbs;
    }

    /** The check itself: the same class file is clean where its room stands above what it uses, and caught below. */
    @Test
    void aClimbIsCaught() throws IOException {
        byte[] evaluator = Files.readAllBytes(CLASSES.resolve("core/evaluate/PolicyExpressions.class"));
        assertTrue(climbs("core/evaluate", evaluator, Map.of("core/evaluate", 3, "core/cel", 2, "core/model", 1)).isEmpty());
        assertEquals(List.of("core/cel"), List.copyOf(climbs("core/evaluate", evaluator,
                Map.of("core/evaluate", 2, "core/cel", 2, "core/model", 1))), "a sideways use");
        assertEquals(List.of("core/cel", "core/model"), List.copyOf(climbs("core/evaluate", evaluator,
                Map.of("core/evaluate", 0, "core/cel", 2, "core/model", 1))), "uses from below the floors it needs");
        assertEquals("core/cel", roomOf("core", "cel"));
        assertEquals("operator", roomOf("operator", "webhook"));
        assertEquals("cli/bench", roomOf("cli", "bench"));
    }

    @Test
    void coreUsesNoClusterNoQuarkusNoClockNoEnvironment() throws IOException {
        assertNoReferences("core", List.of("io/quarkus/", "io/javaoperatorsdk/", "io/fabric8/kubernetes/client/KubernetesClient",
                "io/fabric8/kubernetes/client/dsl/", "dev/policyset/aps/operator/", "dev/policyset/aps/cli/",
                "java/time/Clock", "getenv", "currentTimeMillis"));
    }

    @Test
    void cliUsesNoQuarkusAndNoOperator() throws IOException {
        assertNoReferences("cli", List.of("io/quarkus/", "io/javaoperatorsdk/", "dev/policyset/aps/operator/"));
    }

    /**
     * The operator gathers and acts; findings are core's to make (rules, dry-run refusals, status rows), so no
     * operator class may construct one ({@code new Finding}, {@code Finding.error/warning/info}, {@code withSeverity}).
     */
    @Test
    void operatorBuildsNoFindings() throws IOException {
        Path root = CLASSES.resolve("operator");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path c : walk.filter(p -> p.toString().endsWith(".class")).toList()) {
                for (String ref : methodReferences(Files.readAllBytes(c))) {
                    if (ref.startsWith("dev/policyset/aps/core/finding/Finding.") && List.of("<init>", "error", "warning",
                            "info", "withSeverity").contains(ref.substring(ref.indexOf('.') + 1))) {
                        violations.add(root.relativize(c) + " calls " + ref);
                    }
                }
            }
        }
        assertTrue(violations.isEmpty(), "the operator must not build findings: " + violations);
    }

    /** {@code owner.name} of every method the class refers to, from its constant pool (JVMS §4.4). */
    static List<String> methodReferences(byte[] bytes) throws IOException {
        java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes));
        in.readInt();
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNames = new int[count];
        int[][] refs = new int[count][];
        int[] nameAndTypeNames = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNames[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 10, 11 -> refs[i] = new int[]{in.readUnsignedShort(), in.readUnsignedShort()};
                case 9, 18, 17 -> in.readInt();
                case 12 -> {
                    nameAndTypeNames[i] = in.readUnsignedShort();
                    in.readUnsignedShort();
                }
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        List<String> out = new ArrayList<>();
        for (int[] ref : refs) {
            if (ref != null) {
                out.add(utf8[classNames[ref[0]]] + "." + utf8[nameAndTypeNames[ref[1]]]);
            }
        }
        return out;
    }

    private static void assertNoReferences(String layer, List<String> forbidden) throws IOException {
        Path root = CLASSES.resolve(layer);
        assertTrue(Files.isDirectory(root), root + " is not compiled");
        List<String> violations = new ArrayList<>();
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(root)) {
            classes = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertFalse(classes.isEmpty(), "no classes under " + root);
        for (Path c : classes) {
            String pool = new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1);
            for (String f : forbidden) {
                if (pool.contains(f)) {
                    violations.add(root.relativize(c) + " uses " + f);
                }
            }
        }
        assertTrue(violations.isEmpty(), layer + " must stay free of these: " + violations);
    }
}
