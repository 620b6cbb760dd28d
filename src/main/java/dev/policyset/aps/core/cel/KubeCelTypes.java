package dev.policyset.aps.core.cel;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.common.types.TypeType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The object types the admission environment declares ({@code compile.go: BuildRequestType,
 * BuildNamespaceType}), and the type names as cel-go prints them in {@code must evaluate to X but got Y}.
 */
public final class KubeCelTypes {
    private KubeCelTypes() {
    }

    private static final CelType STRING_LIST = ListType.create(SimpleType.STRING);

    static final StructType GROUP_VERSION_KIND = struct("kubernetes.GroupVersionKind",
            "group", SimpleType.STRING, "version", SimpleType.STRING, "kind", SimpleType.STRING);
    static final StructType GROUP_VERSION_RESOURCE = struct("kubernetes.GroupVersionResource",
            "group", SimpleType.STRING, "version", SimpleType.STRING, "resource", SimpleType.STRING);
    static final StructType USER_INFO = struct("kubernetes.UserInfo",
            "username", SimpleType.STRING, "uid", SimpleType.STRING, "groups", STRING_LIST,
            "extra", MapType.create(SimpleType.STRING, STRING_LIST));
    /** {@code request}: no {@code uid}, {@code object} or {@code oldObject} (those are root variables). */
    public static final StructType ADMISSION_REQUEST = struct("kubernetes.AdmissionRequest",
            "kind", GROUP_VERSION_KIND, "resource", GROUP_VERSION_RESOURCE, "subResource", SimpleType.STRING,
            "requestKind", GROUP_VERSION_KIND, "requestResource", GROUP_VERSION_RESOURCE,
            "requestSubResource", SimpleType.STRING, "name", SimpleType.STRING, "namespace", SimpleType.STRING,
            "operation", SimpleType.STRING, "userInfo", USER_INFO, "dryRun", SimpleType.BOOL,
            "options", SimpleType.DYN);

    static final StructType NAMESPACE_SPEC = struct("kubernetes.NamespaceSpec", "finalizers", STRING_LIST);
    static final StructType NAMESPACE_CONDITION = struct("kubernetes.NamespaceCondition",
            "status", SimpleType.STRING, "type", SimpleType.STRING, "lastTransitionTime", SimpleType.TIMESTAMP,
            "message", SimpleType.STRING, "reason", SimpleType.STRING);
    static final StructType NAMESPACE_STATUS = struct("kubernetes.NamespaceStatus",
            "conditions", ListType.create(NAMESPACE_CONDITION), "phase", SimpleType.STRING);
    /** Note {@code UID} in upper case, as upstream declares it. */
    static final StructType NAMESPACE_METADATA = struct("kubernetes.NamespaceMetadata",
            "name", SimpleType.STRING, "generateName", SimpleType.STRING, "namespace", SimpleType.STRING,
            "labels", MapType.create(SimpleType.STRING, SimpleType.STRING),
            "annotations", MapType.create(SimpleType.STRING, SimpleType.STRING), "UID", SimpleType.STRING,
            "creationTimestamp", SimpleType.TIMESTAMP, "deletionGracePeriodSeconds", SimpleType.INT,
            "deletionTimestamp", SimpleType.TIMESTAMP, "generation", SimpleType.INT,
            "resourceVersion", SimpleType.STRING, "finalizers", STRING_LIST);
    public static final StructType NAMESPACE = struct("kubernetes.Namespace",
            "metadata", NAMESPACE_METADATA, "spec", NAMESPACE_SPEC, "status", NAMESPACE_STATUS);

    /** Every named struct type of the admission variables, for the type provider. */
    static final List<StructType> ADMISSION_TYPES = List.of(GROUP_VERSION_KIND, GROUP_VERSION_RESOURCE, USER_INFO,
            ADMISSION_REQUEST, NAMESPACE_SPEC, NAMESPACE_CONDITION, NAMESPACE_STATUS, NAMESPACE_METADATA, NAMESPACE);

    /** The name of the {@code variables} object type. */
    static final String VARIABLES_TYPE_NAME = "kubernetes.variables";

    /** A struct type with the given fields ({@code name, type, name, type, ...}). */
    static StructType struct(String name, Object... nameTypePairs) {
        Map<String, CelType> fields = new LinkedHashMap<>();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            fields.put((String) nameTypePairs[i], (CelType) nameTypePairs[i + 1]);
        }
        return struct(name, fields);
    }

    static StructType struct(String name, Map<String, CelType> fields) {
        Map<String, CelType> copy = Map.copyOf(fields);
        return StructType.create(name, ImmutableSet.copyOf(fields.keySet()), f -> Optional.ofNullable(copy.get(f)));
    }

    /**
     * The type as cel-go's {@code Type.String()} prints it: {@code bool}, {@code list(string)},
     * {@code map(string, int)}, {@code optional_type(int)}, {@code kubernetes.Namespace}.
     */
    public static String format(CelType type) {
        if (type.kind() == CelKind.LIST) {
            return "list(" + format(((ListType) type).elemType()) + ")";
        }
        if (type.kind() == CelKind.MAP) {
            MapType map = (MapType) type;
            return "map(" + format(map.keyType()) + ", " + format(map.valueType()) + ")";
        }
        if (type instanceof TypeType tt) {
            return tt.parameters().isEmpty() ? "type" : "type(" + format(tt.parameters().get(0)) + ")";
        }
        if (type.kind() == CelKind.TYPE_PARAM) {
            return type.name();
        }
        ImmutableList<CelType> params = type.parameters();
        if (params.isEmpty()) {
            return type.name();
        }
        return type.name() + "(" + params.stream().map(KubeCelTypes::format).collect(Collectors.joining(", ")) + ")";
    }

    /**
     * The type a {@code variables.<name>} field gets from its expression's type: primitives, lists and maps
     * keep theirs; object-like types (structs, opaque library types, optionals, type params) become dyn,
     * as with upstream's {@code DeclType} conversion of the output type.
     */
    static CelType variableFieldType(CelType type) {
        switch (type.kind()) {
            case BOOL, INT, UINT, DOUBLE, STRING, BYTES, NULL_TYPE, DURATION, TIMESTAMP, DYN, ANY:
                return type;
            case LIST:
                return ListType.create(variableFieldType(((ListType) type).elemType()));
            case MAP: {
                MapType map = (MapType) type;
                return MapType.create(variableFieldType(map.keyType()), variableFieldType(map.valueType()));
            }
            default:
                return SimpleType.DYN;
        }
    }
}
