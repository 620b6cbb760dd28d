package dev.policyset.aps.core.schema;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The schemas of the built-in kinds, from the fabric8 model classes (the {@code kubernetes-model-*} jars the
 * operator carries), built per kind when it is first asked for and cached per class.
 *
 * <p>Where the model comes from: the build reads the model classes by reflection ({@link ModelReflection}) and writes
 * what a schema needs of them, every class's properties and their types, into {@value #SCHEMAS_RESOURCE}
 * ({@code GenerateBuiltinSchemas}, in {@code process-classes}); this reads that resource when the first kind is needed
 * (a few hundred kilobytes of JSON, read once). So type checking a Pod loads no model class: reflecting over the model
 * loaded up to 900 fabric8 classes in a CLI run, seconds of a cold start. Nothing is checked in: a fabric8 upgrade
 * regenerates it, and {@code BuiltinSchemasResourceTest} checks that it gives the same schemas as reflection for every
 * kind. Without the resource (classes compiled outside Maven) reflection answers. Only the list of kinds
 * ({@value #INDEX_RESOURCE}: kind, plural, scope, class) is checked in, because finding them means loading every
 * registered model class (seconds), and an in-sync test regenerates it.
 *
 * <p>fabric8 7.5 generates its model from Kubernetes <b>1.34</b> (its {@code PodSpec} has 1.34's
 * {@code hostnameOverride} but not 1.35's {@code workloadRef}); the same schemas serve every supported version
 * (1.30 to 1.37), so a field added after 1.34 reads as unknown and one removed before it as known.
 *
 * <p>What the model gives: {@link ModelReflection}. Times ({@code metadata.creationTimestamp}) are strings, as they
 * are at admission time (the API server's OpenAPI says {@code date-time}; the admission plugin evaluates unstructured
 * JSON, where they are strings).
 */
public final class BuiltinSchemas implements SchemaSource {
    public static final String KUBERNETES_MODEL_VERSION = "1.34";

    /** The model definitions the build generates; absent from classes compiled outside Maven. */
    public static final String SCHEMAS_RESOURCE = "builtin-schemas.json";

    private static final BuiltinSchemas INSTANCE = new BuiltinSchemas(null);

    /** The model class a schema stands for, by full name; a top-level schema is shared by every later walk. */
    private final Map<String, Schema> byClass = new ConcurrentHashMap<>();
    private volatile ModelDefinitions definitions;
    private volatile Index index;

    /** The built-in kinds: the model class of each (by name) and the resources. */
    private record Index(Map<GroupVersionKind, String> classes, List<ResourceType> resources) {
    }

    /**
     * The index of the built-in kinds, generated from the model jars by {@link ModelReflection#scanIndex()} and kept
     * in sync by {@code BuiltinKindsIndexTest} (a fabric8 upgrade that adds kinds fails it until the file is
     * regenerated). Reading it costs nothing; scanning loads every registered model class (seconds on a busy
     * machine), which the CLI must not pay at start-up.
     */
    static final String INDEX_RESOURCE = "builtin-kinds.tsv";

    /** @param definitions where the model comes from; null: the generated resource, or reflection without it */
    BuiltinSchemas(ModelDefinitions definitions) {
        this.definitions = definitions;
    }

    public static BuiltinSchemas instance() {
        return INSTANCE;
    }

    @Override
    public Optional<Schema> schema(GroupVersionKind gvk) {
        String name = index().classes().get(gvk);
        if (name == null || definitions().definition(name).isEmpty()) {
            return Optional.empty(); // a model jar left out of this classpath: the kind is checked as dyn
        }
        return Optional.of(schemaOf(name));
    }

    @Override
    public List<ResourceType> resources() {
        return index().resources();
    }

    /** The full name of the model class of a built-in kind. */
    public Optional<String> modelClass(GroupVersionKind gvk) {
        return Optional.ofNullable(index().classes().get(gvk));
    }

    /** The schema of {@code metadata} (ObjectMeta), which CRDs share with the built-in kinds. */
    public Schema objectMeta() {
        return schemaOf(ModelDefinition.MODEL_PACKAGE + "ObjectMeta");
    }

    /** The schema of one model class, by full name: a resource, or a type inside one. */
    public Schema schemaOf(String className) {
        Schema known = byClass.get(className);
        if (known != null) {
            return known;
        }
        Schema schema = new Walk().object(className);
        byClass.putIfAbsent(className, schema);
        return schema;
    }

    /** True when the schemas come from the build's resource rather than from reflection over the model classes. */
    public boolean fromResource() {
        return !(definitions() instanceof ModelReflection);
    }

    private ModelDefinitions definitions() {
        ModelDefinitions d = definitions;
        if (d == null) {
            synchronized (this) {
                if (definitions == null) {
                    definitions = generated().orElse(ModelReflection.instance());
                }
                d = definitions;
            }
        }
        return d;
    }

    /** The build's resource, if this classpath has it. */
    static Optional<ModelDefinitions> generated() {
        try (InputStream in = BuiltinSchemas.class.getResourceAsStream(SCHEMAS_RESOURCE)) {
            return in == null ? Optional.empty() : Optional.of(ModelDefinitionsJson.read(in));
        } catch (IOException e) {
            throw new UncheckedIOException("the built-in schemas (" + SCHEMAS_RESOURCE + ") cannot be read; rebuild", e);
        }
    }

    private Index index() {
        Index i = index;
        if (i == null) {
            synchronized (this) {
                if (index == null) {
                    index = buildIndex();
                }
                i = index;
            }
        }
        return i;
    }

    private static Index buildIndex() {
        List<String> lines = new ArrayList<>();
        try (var in = BuiltinSchemas.class.getResourceAsStream(INDEX_RESOURCE)) {
            if (in != null) {
                new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().forEach(lines::add);
            }
        } catch (IOException e) {
            lines.clear();
        }
        if (lines.isEmpty()) {
            lines = ModelReflection.scanIndex();
        }
        Map<GroupVersionKind, String> classes = new LinkedHashMap<>();
        List<ResourceType> resources = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length != 6 || line.startsWith("#")) {
                continue;
            }
            GroupVersionKind gvk = new GroupVersionKind(f[0], f[1], f[2]);
            if (classes.putIfAbsent(gvk, f[5]) == null) {
                resources.add(new ResourceType(gvk, f[3], Boolean.parseBoolean(f[4])));
            }
        }
        return new Index(Collections.unmodifiableMap(classes), List.copyOf(resources));
    }

    /**
     * One walk over a class graph: a class met again inside itself reads as any (recursive types), and a class met
     * twice in one walk is one schema instance (CEL types are per instance: {@code SchemaCelTypes}).
     */
    private final class Walk {
        private final Deque<String> path = new ArrayDeque<>();
        private final Map<String, Schema> local = new HashMap<>();

        Schema object(String className) {
            Schema known = byClass.get(className);
            if (known == null) {
                known = local.get(className);
            }
            if (known != null) {
                return known;
            }
            if (path.contains(className)) {
                return Schema.ANY;
            }
            Optional<ModelDefinition> definition = definitions().definition(className);
            if (definition.isEmpty()) {
                return Schema.ANY;
            }
            path.push(className);
            try {
                Schema.Builder b = Schema.builder().type("object");
                definition.get().properties().forEach((name, descriptor) -> b.property(name, of(descriptor)));
                definition.get().required().forEach(b::require);
                Schema schema = b.build();
                local.put(className, schema);
                return schema;
            } finally {
                path.pop();
            }
        }

        Schema of(String descriptor) {
            if (descriptor.startsWith(ModelDefinition.LIST)) {
                return Schema.builder().type("array").items(of(descriptor.substring(ModelDefinition.LIST.length()))).build();
            }
            if (descriptor.startsWith(ModelDefinition.MAP)) {
                return Schema.builder().type("object")
                        .additionalProperties(of(descriptor.substring(ModelDefinition.MAP.length()))).build();
            }
            if (descriptor.startsWith(ModelDefinition.CLASS)) {
                return object(ModelDefinition.className(descriptor));
            }
            return switch (descriptor) {
                case ModelDefinition.STRING -> Schema.string();
                case ModelDefinition.INTEGER, ModelDefinition.BOOLEAN, ModelDefinition.NUMBER ->
                        Schema.builder().type(descriptor).build();
                case ModelDefinition.INT_OR_STRING -> Schema.builder().intOrString(true).build();
                default -> Schema.ANY;
            };
        }
    }
}
