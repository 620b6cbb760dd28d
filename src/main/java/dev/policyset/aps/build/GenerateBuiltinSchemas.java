package dev.policyset.aps.build;

import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.ModelDefinitionsJson;
import dev.policyset.aps.core.schema.ModelReflection;
import dev.policyset.aps.core.schema.ResourceType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the built-in kinds' model definitions ({@code BuiltinSchemas}) for the classes of every indexed kind and
 * what they reach, by reflection over the fabric8 model jars: run by Maven in {@code process-classes}
 * ({@code pom.xml}, execution {@code builtin-schemas}) into {@code target/classes}, so the jars and the operator
 * carry it and never reflect at run time.
 *
 * <pre>java -cp ... dev.policyset.aps.build.GenerateBuiltinSchemas target/classes/dev/policyset/aps/core/schema/builtin-schemas.json</pre>
 */
public final class GenerateBuiltinSchemas {
    private GenerateBuiltinSchemas() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: GenerateBuiltinSchemas OUTPUT_FILE");
        }
        Path out = Path.of(args[0]);
        // the kinds of the checked-in index (BuiltinKindsIndexTest keeps it in sync with the jars; scanning them
        // again here would load every registered model class)
        List<String> roots = new ArrayList<>();
        for (ResourceType r : BuiltinSchemas.instance().resources()) {
            roots.add(BuiltinSchemas.instance().modelClass(r.gvk()).orElseThrow());
        }
        String json = ModelDefinitionsJson.write(ModelReflection.instance().reachable(roots));
        Files.createDirectories(out.toAbsolutePath().getParent());
        if (!Files.exists(out) || !Files.readString(out, StandardCharsets.UTF_8).equals(json)) {
            Files.writeString(out, json, StandardCharsets.UTF_8);
        }
    }
}
