package dev.policyset.aps.install;

import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * bundle/ is exactly what {@code make bundle} writes from this build: QOSDK's bundle (written at package)
 * completed by {@link BundleGenerator} with config/ as it is now.
 */
class BundleInSyncIT {
    @Test
    void checkedInBundleIsWhatMakeBundleWrites() throws Exception {
        Path root = ProjectFiles.root();
        Path qosdk = root.resolve("target/bundle/" + BundleGenerator.PACKAGE);
        if (!Files.isDirectory(qosdk)) {
            assertTrue(!hasReconciler(root), qosdk + " is missing although the build has a Reconciler: "
                    + "is quarkus.operator-sdk.bundle.enabled false?");
            assumeTrue(false, "QOSDK wrote no bundle: the build has no Reconciler yet");
        }
        Map<String, String> expected = BundleGenerator.generate(root, qosdk, ProjectFiles.defaultImage(root));
        Path bundle = root.resolve("bundle");
        TreeSet<String> actualFiles = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(bundle)) {
            walk.filter(Files::isRegularFile).forEach(p -> actualFiles.add(bundle.relativize(p).toString().replace('\\', '/')));
        }
        String hint = "bundle/ is stale: run `make bundle` and commit bundle/";
        assertEquals(new TreeSet<>(expected.keySet()), actualFiles, hint);
        for (Map.Entry<String, String> file : expected.entrySet()) {
            assertEquals(file.getValue(), Files.readString(bundle.resolve(file.getKey())), hint + " (" + file.getKey() + ")");
        }
    }

    /** Whether target/classes holds a JOSDK Reconciler (QOSDK writes a bundle only then). */
    static boolean hasReconciler(Path root) throws Exception {
        Path classes = root.resolve("target/classes");
        try (Stream<Path> walk = Files.walk(classes)) {
            for (Path p : walk.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(p).toString().replace('/', '.').replace('\\', '.');
                name = name.substring(0, name.length() - ".class".length());
                try {
                    if (Reconciler.class.isAssignableFrom(Class.forName(name, false, BundleInSyncIT.class.getClassLoader()))) {
                        return true;
                    }
                } catch (Throwable ignored) {
                    // a class that does not load here is not the reconciler QOSDK saw either
                }
            }
        }
        return false;
    }
}
