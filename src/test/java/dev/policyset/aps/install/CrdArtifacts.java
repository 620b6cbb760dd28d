package dev.policyset.aps.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code make manifests}: writes crds/ from the CRD the build generated (printer columns in declared order,
 * {@link CrdPrinterColumns}) and the editors' JSON Schema derived from it ({@link EditorSchema}). The drift
 * checks ({@code CrdInSyncIT}, {@code EditorSchemaTest}) compare the committed files with the same functions.
 */
public final class CrdArtifacts {
    private CrdArtifacts() {}

    public static void main(String[] args) throws IOException {
        Path root = ProjectFiles.root();
        Path generated = root.resolve("target/kubernetes/" + BundleGenerator.CRD_FILE_NAME);
        if (!Files.isRegularFile(generated)) {
            throw new IllegalStateException(generated + " is missing: run `mvn package` first");
        }
        String crd = CrdPrinterColumns.ordered(Files.readString(generated));
        Files.writeString(root.resolve("crds/" + BundleGenerator.CRD_FILE_NAME), crd);
        Path schema = root.resolve(EditorSchema.FILE);
        Files.createDirectories(schema.getParent());
        Files.writeString(schema, EditorSchema.fromCrd(ProjectFiles.readAllYaml(crd).get(0)));
        System.out.println("wrote crds/" + BundleGenerator.CRD_FILE_NAME + " and " + EditorSchema.FILE);
    }
}
