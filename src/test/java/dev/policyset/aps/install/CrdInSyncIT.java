package dev.policyset.aps.install;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * crds/ holds exactly the CRD the build generates from the Java API types (printer columns in declared order). QOSDK writes it during
 * {@code quarkus:build} (package), so this runs in failsafe's integration-test phase (*InSyncIT).
 */
class CrdInSyncIT {
    @Test
    void crdsFolderEqualsTheGeneratedCrd() throws Exception {
        Path root = ProjectFiles.root();
        Path generated = root.resolve("target/kubernetes/" + BundleGenerator.CRD_FILE_NAME);
        assertTrue(Files.isRegularFile(generated), generated + " is missing: the build did not generate the CRD");
        assertEquals(CrdPrinterColumns.ordered(Files.readString(generated)), Files.readString(root.resolve("crds/" + BundleGenerator.CRD_FILE_NAME)),
                "crds/" + BundleGenerator.CRD_FILE_NAME + " is stale: the API types changed. Run `make manifests` "
                        + "and commit crds/ (and `make bundle` for bundle/)");
    }
}
