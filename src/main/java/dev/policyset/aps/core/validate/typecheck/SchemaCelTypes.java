package dev.policyset.aps.core.validate.typecheck;

import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.policyset.aps.core.schema.Schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CEL types from structural schemas, as the API server declares them for its type checker:
 * {@code apiserver/pkg/cel/common/schemas.go: SchemaDeclType} for the shapes and {@code apiserver/pkg/cel/types.go:
 * DeclType.MaybeAssignTypeName} for the names (an object type is named by its path from the root:
 * {@code Deployment.spec.template}; list elements {@code .@idx}, map values {@code .@elem}). Property names are
 * escaped as {@code apiserver/pkg/cel/escaping.go: Escape} does ({@code x-y} → {@code x__dash__y}).
 *
 * <p>Where upstream would hide a field that exists at run time, this declares it {@code dyn} instead, so that a
 * working expression is never reported (a false warning on a working policy is a defect here):
 * <ul>
 *   <li>a schema without a type (Quantity's string-or-number, a recursive reference): upstream drops the field
 *       ({@code undefined field}); here {@code dyn};</li>
 *   <li>an object with {@code x-kubernetes-preserve-unknown-fields}: upstream exposes only its declared
 *       properties; here the whole object is {@code dyn};</li>
 *   <li>an array without items: upstream drops it; here {@code list(dyn)}.</li>
 * </ul>
 * int-or-string is {@code dyn} as upstream. The root and embedded resources always have {@code apiVersion},
 * {@code kind} and {@code metadata.name}/{@code generateName} ({@code WithTypeAndObjectMeta}).
 */
public final class SchemaCelTypes {
    /** A root type and every named object type under it (the type provider needs them all). */
    /** @param schemas the schema of each named object type, by type name (the runtime-error lint reads them) */
    public record Typed(CelType root, List<CelType> structs, Map<String, Schema> schemas) {
    }

    private static final Map<Schema, Map<String, Typed>> CACHE = Collections.synchronizedMap(new IdentityHashMap<>());

    private final List<CelType> structs = new ArrayList<>();
    /**
     * One type per schema instance: where the model shares a type (containers and initContainers are both
     * Container), so do the CEL types, and {@code containers + initContainers} type-checks as it runs. Upstream names
     * each occurrence by its path, so its checker reports such sums; this is a deliberate deviation.
     */
    private final Map<Schema, CelType> seen = new IdentityHashMap<>();
    private final Map<String, Schema> schemas = new LinkedHashMap<>();

    private SchemaCelTypes() {
    }

    /** The types of a resource's schema, its root named {@code rootName} (cached per schema instance and name). */
    public static Typed of(Schema schema, String rootName) {
        Map<String, Typed> byName = CACHE.computeIfAbsent(schema, s -> Collections.synchronizedMap(new LinkedHashMap<>()));
        Typed known = byName.get(rootName);
        if (known != null) {
            return known;
        }
        SchemaCelTypes builder = new SchemaCelTypes();
        CelType root = builder.convert(schema, rootName, true);
        Typed typed = new Typed(root, List.copyOf(builder.structs), Map.copyOf(builder.schemas));
        byName.putIfAbsent(rootName, typed);
        return typed;
    }

    private CelType convert(Schema s, String name, boolean resourceRoot) {
        if (s.intOrString()) {
            return SimpleType.DYN;
        }
        if (resourceRoot) {
            s = withTypeAndObjectMeta(s);
        }
        switch (s.type()) {
            case "array":
                return ListType.create(s.items() == null ? SimpleType.DYN
                        : convert(s.items(), name + ".@idx", s.items().embeddedResource()));
            case "object":
                if (s.additionalProperties() != null) {
                    return MapType.create(SimpleType.STRING,
                            convert(s.additionalProperties(), name + ".@elem", s.additionalProperties().embeddedResource()));
                }
                if (s.preserveUnknownFields() || (s.properties().isEmpty() && !resourceRoot)) {
                    return SimpleType.DYN;
                }
                CelType known = seen.get(s);
                if (known != null) {
                    return known;
                }
                Map<String, CelType> fields = new LinkedHashMap<>();
                for (Map.Entry<String, Schema> p : s.properties().entrySet()) {
                    Optional<String> escaped = escape(p.getKey());
                    if (escaped.isPresent()) {
                        fields.put(escaped.get(), convert(p.getValue(), name + "." + escaped.get(),
                                p.getValue().embeddedResource()));
                    }
                }
                StructType struct = StructType.create(name, ImmutableSet.copyOf(fields.keySet()),
                        f -> Optional.ofNullable(fields.get(f)));
                structs.add(struct);
                schemas.put(name, s);
                seen.put(s, struct);
                return struct;
            case "string":
                return switch (s.format()) {
                    case "byte" -> SimpleType.BYTES;
                    case "duration" -> SimpleType.DURATION;
                    case "date", "date-time" -> SimpleType.TIMESTAMP;
                    default -> SimpleType.STRING;
                };
            case "boolean":
                return SimpleType.BOOL;
            case "number":
                return SimpleType.DOUBLE;
            case "integer":
                return SimpleType.INT;
            default:
                return SimpleType.DYN;
        }
    }

    /** {@code schemas.go: WithTypeAndObjectMeta}: kind, apiVersion and metadata.name/generateName are always there. */
    private static Schema withTypeAndObjectMeta(Schema s) {
        Schema meta = s.property("metadata");
        if (s.property("kind") != null && s.property("apiVersion") != null && meta != null
                && meta.property("name") != null && meta.property("generateName") != null) {
            return s;
        }
        Schema.Builder b = s.toBuilder().type("object");
        if (s.property("kind") == null) {
            b.property("kind", Schema.string());
        }
        if (s.property("apiVersion") == null) {
            b.property("apiVersion", Schema.string());
        }
        if (meta == null || meta.property("name") == null || meta.property("generateName") == null) {
            Schema.Builder m = (meta == null ? Schema.builder() : meta.toBuilder()).type("object")
                    .preserveUnknownFields(false);
            if (meta == null || meta.property("name") == null) {
                m.property("name", Schema.string());
            }
            if (meta == null || meta.property("generateName") == null) {
                m.property("generateName", Schema.string());
            }
            b.property("metadata", m.build());
        }
        return b.build();
    }

    /**
     * {@code escaping.go: Escape}: {@code __}, {@code .}, {@code -} and {@code /} become {@code __underscores__},
     * {@code __dot__}, {@code __dash__}, {@code __slash__}; anything else that is not an identifier cannot be accessed
     * (empty). Unlike upstream, CEL's reserved words ({@code namespace}, {@code if}, ...) are not escaped to
     * {@code __namespace__}: the parser accepts them after a dot, and at run time (unstructured JSON)
     * {@code object.metadata.namespace} reads the field, so declaring it escaped would report a working expression.
     */
    static Optional<String> escape(String name) {
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
                out.append("__underscores__");
                i++;
            } else if (c == '.') {
                out.append("__dot__");
            } else if (c == '-') {
                out.append("__dash__");
            } else if (c == '/') {
                out.append("__slash__");
            } else if (c == '_' || (c < 128 && Character.isLetterOrDigit(c))) {
                out.append(c);
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(out.toString());
    }
}
