package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.policyset.aps.core.intercept.KubeResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Quantity;

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
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The built-in kinds' model as the fabric8 model classes declare it ({@code kubernetes-model-*}), read by reflection:
 * the only place that loads those classes. The build writes its result into a resource
 * ({@code GenerateBuiltinSchemas}, {@value BuiltinSchemas#SCHEMAS_RESOURCE}), so that neither the CLI nor the operator
 * loads the 900-odd model classes to type-check a policy; {@code BuiltinSchemasResourceTest} checks that the
 * resource gives the same schemas as reflection, kind by kind. Reflection itself stays the answer when the resource
 * is absent (classes compiled without the build's {@code process-classes} step, as an IDE may).
 *
 * <p>What the model gives and what it does not: field names and types ({@code String} → string, {@code Integer}/
 * {@code Long} → integer, {@code Boolean} → boolean, {@code Double} → number, {@code List} → array, {@code Map}
 * → object with additionalProperties, {@code IntOrString} → int-or-string, {@code Quantity} → string as it is
 * serialized; {@code Object}, {@code JsonNode}, raw extensions → any). It carries no {@code required} lists, no
 * formats and no defaults. So {@code required} here lists what an object <em>always has when it is admitted</em>:
 * {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec} and {@code status} (Go value types, always
 * serialized), and the fields of {@link #ALWAYS_PRESENT} (upstream's required fields and the API server's defaults
 * for the kinds policies check most); every other field is optional.
 */
public final class ModelReflection implements ModelDefinitions {
    private static final ModelReflection INSTANCE = new ModelReflection();

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

    private final Map<String, Optional<ModelDefinition>> byClass = new ConcurrentHashMap<>();

    private ModelReflection() {
    }

    public static ModelReflection instance() {
        return INSTANCE;
    }

    @Override
    public Optional<ModelDefinition> definition(String className) {
        return byClass.computeIfAbsent(className, name -> {
            try {
                return Optional.of(definition(Class.forName(name, false, ModelReflection.class.getClassLoader())));
            } catch (ClassNotFoundException | LinkageError e) {
                return Optional.empty(); // a model jar left out of this classpath: the kind is checked as dyn
            }
        });
    }

    /**
     * The definitions of the given classes and of every model class their properties reach, by full class name,
     * sorted: what the build writes into the resource.
     */
    public Map<String, ModelDefinition> reachable(Collection<String> roots) {
        Map<String, ModelDefinition> out = new TreeMap<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (out.containsKey(name)) {
                continue;
            }
            Optional<ModelDefinition> d = definition(name);
            if (d.isEmpty()) {
                continue;
            }
            out.put(name, d.get());
            for (String descriptor : d.get().properties().values()) {
                String element = descriptor;
                while (element.startsWith(ModelDefinition.LIST) || element.startsWith(ModelDefinition.MAP)) {
                    element = element.substring(element.startsWith(ModelDefinition.LIST)
                            ? ModelDefinition.LIST.length() : ModelDefinition.MAP.length());
                }
                if (element.startsWith(ModelDefinition.CLASS)) {
                    todo.push(ModelDefinition.className(element));
                }
            }
        }
        return out;
    }

    /**
     * One class: its JSON properties (fields with {@code @JsonProperty}, the class's own before its superclasses'),
     * and what is always present. A property declared twice (a subclass hiding a superclass field) would make the
     * order in which the old walk met them matter; fabric8 declares none, and this refuses one rather than guess.
     */
    static ModelDefinition definition(Class<?> type) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                JsonProperty property = f.getAnnotation(JsonProperty.class);
                if (property == null || f.isAnnotationPresent(JsonIgnore.class) || Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                String name = property.value().isEmpty() ? f.getName() : property.value();
                if (properties.put(name, descriptor(f.getGenericType())) != null) {
                    throw new IllegalStateException(type.getName() + " declares the JSON property " + name + " twice");
                }
            }
        }
        List<String> required = new ArrayList<>();
        if (HasMetadata.class.isAssignableFrom(type)) {
            required.addAll(List.of("apiVersion", "kind", "metadata"));
            for (String f : List.of("spec", "status")) {
                if (properties.containsKey(f)) {
                    required.add(f);
                }
            }
        }
        for (String f : ALWAYS_PRESENT.getOrDefault(type.getSimpleName(), List.of())) {
            if (!required.contains(f)) {
                required.add(f);
            }
        }
        return new ModelDefinition(properties, required);
    }

    private static String descriptor(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            Type[] args = p.getActualTypeArguments();
            if (List.class.isAssignableFrom(raw)) {
                return ModelDefinition.LIST + descriptor(args[0]);
            }
            if (Map.class.isAssignableFrom(raw)) {
                return ModelDefinition.MAP + descriptor(args[1]);
            }
            return ModelDefinition.ANY;
        }
        if (!(type instanceof Class<?> c)) {
            return ModelDefinition.ANY;
        }
        if (c == String.class) {
            return ModelDefinition.STRING;
        }
        if (c == Integer.class || c == Long.class || c == int.class || c == long.class) {
            return ModelDefinition.INTEGER;
        }
        if (c == Boolean.class || c == boolean.class) {
            return ModelDefinition.BOOLEAN;
        }
        if (c == Double.class || c == Float.class || c == double.class || c == float.class) {
            return ModelDefinition.NUMBER;
        }
        if (c == IntOrString.class) {
            return ModelDefinition.INT_OR_STRING;
        }
        if (c == Quantity.class) {
            return ModelDefinition.STRING; // serialized as a string ("100m"); upstream's OpenAPI: string or number
        }
        if (c == Object.class || JsonNode.class.isAssignableFrom(c) || c.isInterface() || c.isEnum()
                || custom(c) || c.getName().startsWith("java.") || !c.getName().startsWith(ModelDefinition.MODEL_PACKAGE)) {
            return ModelDefinition.ANY;
        }
        return ModelDefinition.classRef(c.getName());
    }

    /** A class with its own (de)serializer is not its fields (JSONSchemaPropsOrBool, RawExtension, ...). */
    private static boolean custom(Class<?> c) {
        JsonDeserialize d = c.getAnnotation(JsonDeserialize.class);
        JsonSerialize s = c.getAnnotation(JsonSerialize.class);
        return (d != null && d.using() != com.fasterxml.jackson.databind.JsonDeserializer.None.class)
                || (s != null && s.using() != com.fasterxml.jackson.databind.JsonSerializer.None.class);
    }

    /**
     * Every top-level kind the model jars register ({@code META-INF/services/...KubernetesResource}) in a group the
     * API server serves itself, one line each: group, version, kind, plural, namespaced, class (tab-separated,
     * sorted). Lists and the kinds of other projects (OpenShift, Gateway API, metrics) are left out.
     */
    public static List<String> scanIndex() {
        List<String> lines = new ArrayList<>();
        Set<GroupVersionKind> seen = new HashSet<>();
        ClassLoader loader = ModelReflection.class.getClassLoader();
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
}
