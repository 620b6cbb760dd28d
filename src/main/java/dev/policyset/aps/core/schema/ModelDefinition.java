package dev.policyset.aps.core.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One fabric8 model class as JSON sees it: its properties in declaration order, each with a type descriptor, and the
 * properties an admitted object always has. What {@link BuiltinSchemas} builds a schema from, whether the definitions
 * come from the generated resource or from reflection ({@link ModelReflection}).
 *
 * <p>A descriptor is {@value #STRING}, {@value #INTEGER}, {@value #BOOLEAN}, {@value #NUMBER},
 * {@value #INT_OR_STRING} or {@value #ANY}; {@code []D} a list of D; {@code map[string]D} a map of D; or
 * {@code #Name}, another model class, named relative to {@value #MODEL_PACKAGE} ({@code #apps.DeploymentSpec}).
 * Other classes (JDK types, classes with their own serializer, interfaces, enums) are {@value #ANY}.
 *
 * @param properties JSON property name → descriptor, in the order the schema lists them
 * @param required   the properties always present, in order
 */
public record ModelDefinition(Map<String, String> properties, List<String> required) {
    public static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model.";
    public static final String STRING = "string";
    public static final String INTEGER = "integer";
    public static final String BOOLEAN = "boolean";
    public static final String NUMBER = "number";
    public static final String INT_OR_STRING = "int-or-string";
    public static final String ANY = "any";
    public static final String LIST = "[]";
    public static final String MAP = "map[string]";
    public static final String CLASS = "#";

    public ModelDefinition {
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        required = List.copyOf(required);
    }

    /** The descriptor of a model class, by its full name. */
    public static String classRef(String className) {
        return CLASS + className.substring(MODEL_PACKAGE.length());
    }

    /** The full class name a {@code #Name} descriptor names. */
    public static String className(String descriptor) {
        return MODEL_PACKAGE + descriptor.substring(CLASS.length());
    }
}
