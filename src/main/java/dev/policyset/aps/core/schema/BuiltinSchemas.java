package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import dev.policyset.aps.core.intercept.KubeResources;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The schemas of the built-in kinds, derived at run time from the fabric8 model classes (the
 * {@code kubernetes-model-*} jars the CLI and the operator already carry) and cached per class.
 *
 * <p>Why the schemas are derived at run time and not generated at build time: the model classes are on every
 * classpath that runs the checker, so there is no generated schema to keep in sync and no build step on a fresh CI
 * machine, and a fabric8 upgrade brings its new fields with it; reading one kind's class graph costs milliseconds,
 * once per process. Only the list of kinds ({@value #INDEX_RESOURCE}: kind, plural, scope, class) is checked in,
 * because finding them means loading every registered model class (seconds), and an in-sync test regenerates it.
 *
 * <p>fabric8 7.5 generates its model from Kubernetes <b>1.34</b> (its {@code PodSpec} has 1.34's
 * {@code hostnameOverride} but not 1.35's {@code workloadRef}); the same schemas serve every supported version
 * (1.30 to 1.37), so a field added after 1.34 reads as unknown and one removed before it as known.
 *
 * <p>What the model gives and what it does not: field names and types ({@code String} → string, {@code Integer}/
 * {@code Long} → integer, {@code Boolean} → boolean, {@code Double} → number, {@code List} → array, {@code Map}
 * → object with additionalProperties, {@code IntOrString} → int-or-string, {@code Quantity} → string as it is
 * serialized; {@code Object}, {@code JsonNode}, raw extensions → any). It carries no {@code required} lists, no
 * formats and no defaults. So {@code required} here lists what an object <em>always has when it is admitted</em>:
 * {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec} and {@code status} (Go value types, always
 * serialized), and the fields of {@link #ALWAYS_PRESENT} (upstream's required fields and the API server's defaults
 * for the kinds policies check most); every other field is optional. Times ({@code metadata.creationTimestamp}) are strings, as they are at admission time (the API server's
 * OpenAPI says {@code date-time}; the admission plugin evaluates unstructured JSON, where they are strings).
 */
public final class BuiltinSchemas implements SchemaSource {
    public static final String KUBERNETES_MODEL_VERSION = "1.34";

    private static final BuiltinSchemas INSTANCE = new BuiltinSchemas();

    /**
     * Fields an admitted object always has, by model class: required in upstream's OpenAPI ({@code k8s.io/api}
     * types without {@code omitempty}/{@code +optional}), Go value types (always serialized), and fields the API
     * server's defaulting sets before admission ({@code pkg/apis/{core,apps,batch}/v1/defaults.go}). Kept to the kinds
     * policies check most; a field missing here is treated as possibly absent (APS603 reports unguarded uses).
     * {@code Container.image} is required by Pod validation, which rejects an image-less pod whatever a policy does.
     */
    static final Map<String, List<String>> ALWAYS_PRESENT = Map.ofEntries(
            // namespace: set from the request for namespaced kinds; APS603 still flags it when a cluster-scoped kind matches
            Map.entry("ObjectMeta", List.of("name")),
            Map.entry("PodTemplateSpec", List.of("metadata", "spec")),
            Map.entry("JobTemplateSpec", List.of("metadata", "spec")),
            Map.entry("PodSpec", List.of("containers", "restartPolicy", "terminationGracePeriodSeconds", "dnsPolicy",
                    "securityContext", "schedulerName", "enableServiceLinks")),
            Map.entry("Container", List.of("name", "image", "resources", "terminationMessagePath",
                    "terminationMessagePolicy", "imagePullPolicy")),
            Map.entry("EphemeralContainer", List.of("name", "image", "resources", "terminationMessagePath",
                    "terminationMessagePolicy", "imagePullPolicy")),
            Map.entry("ContainerPort", List.of("containerPort", "protocol")),
            Map.entry("EnvVar", List.of("name")),
            Map.entry("Volume", List.of("name")),
            Map.entry("VolumeMount", List.of("name", "mountPath")),
            Map.entry("DeploymentSpec", List.of("selector", "template", "replicas", "strategy", "revisionHistoryLimit",
                    "progressDeadlineSeconds")),
            Map.entry("StatefulSetSpec", List.of("selector", "template", "replicas", "podManagementPolicy",
                    "updateStrategy", "revisionHistoryLimit")),
            Map.entry("DaemonSetSpec", List.of("selector", "template", "updateStrategy", "revisionHistoryLimit")),
            Map.entry("ReplicaSetSpec", List.of("selector", "template", "replicas")),
            Map.entry("JobSpec", List.of("template", "parallelism", "backoffLimit", "completionMode", "suspend")),
            Map.entry("CronJobSpec", List.of("schedule", "jobTemplate", "concurrencyPolicy", "suspend",
                    "successfulJobsHistoryLimit", "failedJobsHistoryLimit")),
            Map.entry("ServiceSpec", List.of("type", "sessionAffinity")),
            Map.entry("ServicePort", List.of("port", "protocol", "targetPort")),
            Map.entry("RoleRef", List.of("apiGroup", "kind", "name")),
            Map.entry("Subject", List.of("kind", "name")),
            Map.entry("PolicyRule", List.of("verbs")),
            Map.entry("OwnerReference", List.of("apiVersion", "kind", "name", "uid")),
            Map.entry("LabelSelectorRequirement", List.of("key", "operator")),
            Map.entry("NodeSelectorRequirement", List.of("key", "operator")),
            Map.entry("TopologySpreadConstraint", List.of("maxSkew", "topologyKey", "whenUnsatisfiable")),
            Map.entry("HostPathVolumeSource", List.of("path")),
            Map.entry("CustomResourceDefinitionSpec", List.of("group", "names", "scope", "versions")),
            Map.entry("CertificateSigningRequestSpec", List.of("request", "signerName")),
            Map.entry("HTTPIngressPath", List.of("pathType", "backend")),
            Map.entry("IngressRule", List.of()),
            Map.entry("Secret", List.of("type")));

    private final Map<Class<?>, Schema> byClass = new ConcurrentHashMap<>();
    private volatile Index index;

    /** The built-in kinds: the model class of each (by name, loaded on first use) and the resources. */
    private record Index(Map<GroupVersionKind, String> classes, List<ResourceType> resources) {
    }

    /**
     * The index of the built-in kinds, generated from the model jars by {@link #scanIndex()} and kept in sync by
     * {@code BuiltinKindsIndexTest} (a fabric8 upgrade that adds kinds fails it until the file is regenerated).
     * Reading it costs nothing; scanning loads every registered model class (seconds on a busy machine), which the
     * CLI must not pay at start-up.
     */
    static final String INDEX_RESOURCE = "builtin-kinds.tsv";

    private BuiltinSchemas() {
    }

    public static BuiltinSchemas instance() {
        return INSTANCE;
    }

    @Override
    public Optional<Schema> schema(GroupVersionKind gvk) {
        String name = index().classes().get(gvk);
        if (name == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(schemaOf(Class.forName(name, false, BuiltinSchemas.class.getClassLoader())));
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty(); // a model jar left out of this classpath: the kind is checked as dyn
        }
    }

    @Override
    public List<ResourceType> resources() {
        return index().resources();
    }

    /** The schema of {@code metadata} (ObjectMeta), which CRDs share with the built-in kinds. */
    public Schema objectMeta() {
        return schemaOf(ObjectMeta.class);
    }

    /** The schema of one model class: a resource, or a type inside one. */
    public Schema schemaOf(Class<?> type) {
        Schema known = byClass.get(type);
        if (known != null) {
            return known;
        }
        Schema schema = new Reader().object(type);
        byClass.putIfAbsent(type, schema);
        return schema;
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
            lines = scanIndex();
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
     * Every top-level kind the model jars register ({@code META-INF/services/...KubernetesResource}) in a group the
     * API server serves itself, one line each: group, version, kind, plural, namespaced, class (tab-separated,
     * sorted). Lists and the kinds of other projects (OpenShift, Gateway API, metrics) are left out.
     */
    public static List<String> scanIndex() {
        List<String> lines = new ArrayList<>();
        java.util.Set<GroupVersionKind> seen = new java.util.HashSet<>();
        ClassLoader loader = BuiltinSchemas.class.getClassLoader();
        for (String name : registeredClasses(loader)) {
            if (name.endsWith("List")) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (!HasMetadata.class.isAssignableFrom(type) || Modifier.isAbstract(type.getModifiers())) {
                continue;
            }
            @SuppressWarnings("unchecked") Class<? extends HasMetadata> resource = (Class<? extends HasMetadata>) type;
            String group;
            String version;
            try {
                group = HasMetadata.getGroup(resource);
                version = HasMetadata.getVersion(resource);
            } catch (RuntimeException e) {
                continue;
            }
            group = group == null ? "" : group;
            if (version == null || !KubeResources.isBuiltinGroup(group)) {
                continue;
            }
            GroupVersionKind gvk = new GroupVersionKind(group, version, HasMetadata.getKind(resource));
            if (seen.add(gvk)) {
                lines.add(String.join("\t", group, version, gvk.kind(), HasMetadata.getPlural(resource),
                        Boolean.toString(Namespaced.class.isAssignableFrom(type)), name));
            }
        }
        Collections.sort(lines);
        return lines;
    }

    private static List<String> registeredClasses(ClassLoader loader) {
        List<String> names = new ArrayList<>();
        try {
            Enumeration<URL> files = loader.getResources("META-INF/services/" + KubernetesResource.class.getName());
            while (files.hasMoreElements()) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(files.nextElement().openStream(),
                        StandardCharsets.UTF_8))) {
                    r.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(names::add);
                }
            }
        } catch (IOException e) {
            return names; // what was read so far; a kind missing here is checked as dyn
        }
        return names;
    }

    /** One walk over a class graph; a class met again inside itself reads as any (recursive types). */
    private final class Reader {
        private final Deque<Class<?>> path = new ArrayDeque<>();
        private final Map<Class<?>, Schema> local = new HashMap<>();

        Schema object(Class<?> type) {
            Schema known = byClass.get(type);
            if (known == null) {
                known = local.get(type);
            }
            if (known != null) {
                return known;
            }
            if (path.contains(type)) {
                return Schema.ANY;
            }
            path.push(type);
            try {
                Schema.Builder b = Schema.builder().type("object");
                for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        JsonProperty property = f.getAnnotation(JsonProperty.class);
                        if (property == null || f.isAnnotationPresent(JsonIgnore.class)
                                || Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        String name = property.value().isEmpty() ? f.getName() : property.value();
                        b.property(name, of(f.getGenericType()));
                    }
                }
                if (HasMetadata.class.isAssignableFrom(type)) {
                    b.require("apiVersion").require("kind").require("metadata");
                    Schema.Builder top = b;
                    List.of("spec", "status").forEach(f -> {
                        if (top.build().property(f) != null) {
                            top.require(f);
                        }
                    });
                }
                ALWAYS_PRESENT.getOrDefault(type.getSimpleName(), List.of()).forEach(b::require);
                Schema schema = b.build();
                local.put(type, schema);
                return schema;
            } finally {
                path.pop();
            }
        }

        Schema of(Type type) {
            if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
                Type[] args = p.getActualTypeArguments();
                if (List.class.isAssignableFrom(raw)) {
                    return Schema.builder().type("array").items(of(args[0])).build();
                }
                if (Map.class.isAssignableFrom(raw)) {
                    return Schema.builder().type("object").additionalProperties(of(args[1])).build();
                }
                return Schema.ANY;
            }
            if (!(type instanceof Class<?> c)) {
                return Schema.ANY;
            }
            if (c == String.class) {
                return Schema.string();
            }
            if (c == Integer.class || c == Long.class || c == int.class || c == long.class) {
                return Schema.builder().type("integer").build();
            }
            if (c == Boolean.class || c == boolean.class) {
                return Schema.builder().type("boolean").build();
            }
            if (c == Double.class || c == Float.class || c == double.class || c == float.class) {
                return Schema.builder().type("number").build();
            }
            if (c == IntOrString.class) {
                return Schema.builder().intOrString(true).build();
            }
            if (c == Quantity.class) {
                return Schema.string(); // serialized as a string ("100m"); upstream's OpenAPI: string or number
            }
            if (c == Object.class || JsonNode.class.isAssignableFrom(c) || c.isInterface() || c.isEnum()
                    || custom(c) || c.getName().startsWith("java.")) {
                return Schema.ANY;
            }
            if (!c.getName().startsWith("io.fabric8.kubernetes.api.model")) {
                return Schema.ANY;
            }
            return object(c);
        }

        /** A class with its own (de)serializer is not its fields (JSONSchemaPropsOrBool, RawExtension, ...). */
        private boolean custom(Class<?> c) {
            JsonDeserialize d = c.getAnnotation(JsonDeserialize.class);
            JsonSerialize s = c.getAnnotation(JsonSerialize.class);
            return (d != null && d.using() != com.fasterxml.jackson.databind.JsonDeserializer.None.class)
                    || (s != null && s.using() != com.fasterxml.jackson.databind.JsonSerializer.None.class);
        }
    }
}
