package dev.policyset.aps.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the layers honest (STYLE.md): {@code core} is pure, {@code cli} does not need Quarkus or the
 * operator. It reads the compiled classes' constant pools, which name every class and method they use.
 */
class LayeringTest {
    private static final Path CLASSES = Path.of("target/classes/dev/policyset/aps");

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
                    if (ref.startsWith("dev/policyset/aps/core/validate/Finding.") && List.of("<init>", "error", "warning",
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
