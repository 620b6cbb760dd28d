package dev.policyset.aps.core.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;

import java.util.Optional;
import java.util.Set;

/**
 * What only MutatingAdmissionPolicy mutations have ({@code compile.go: hasPatchTypes}): the schemaless
 * {@code Object}, {@code Object.spec}, ... types ({@code mutation.DynamicTypeResolver}: any field name,
 * every field {@code dyn}), {@code JSONPatch{op, path, from: string; value: dyn}} and
 * {@code jsonpatch.escapeKey(string)} ({@code library/jsonpatch.go}).
 *
 * <p>At run time a constructed value is a plain map of the fields that were set, so it compares as the
 * map of its fields and {@code has()} is false for unset fields. Unlike cel-go, selecting an unset
 * field of a {@code JSONPatch} is a "no such key" error instead of the zero value.
 */
final class MutationLibrary implements CelCompilerLibrary, CelRuntimeLibrary {
    static final String OBJECT = "Object";
    static final StructType JSON_PATCH = KubeCelTypes.struct("JSONPatch",
            "op", SimpleType.STRING, "path", SimpleType.STRING, "from", SimpleType.STRING, "value", SimpleType.DYN);

    static final MutationLibrary INSTANCE = new MutationLibrary();

    private MutationLibrary() {
    }

    /**
     * {@code Object} or {@code Object.a.b}: a struct whose every field is {@code dyn}. cel-java's struct
     * types have a fixed field set, so the environment passes the field names the expression uses
     * (upstream accepts any name).
     */
    static StructType objectType(String name, Set<String> fields) {
        return StructType.create(name, ImmutableSet.copyOf(fields), field -> Optional.of(SimpleType.DYN));
    }

    /** Resolves the mutation types, then falls back to {@code next}. */
    static CelTypeProvider typeProvider(CelTypeProvider next, Set<String> objectFields) {
        return new CelTypeProvider() {
            @Override
            public ImmutableCollection<CelType> types() {
                return ImmutableList.<CelType>builder().add(JSON_PATCH, objectType(OBJECT, objectFields)).addAll(next.types()).build();
            }

            @Override
            public Optional<CelType> findType(String name) {
                if (name.equals(JSON_PATCH.name())) {
                    return Optional.of(JSON_PATCH);
                }
                if (name.equals(OBJECT) || name.startsWith(OBJECT + ".")) {
                    return Optional.of(objectType(name, objectFields));
                }
                return next.findType(name);
            }
        };
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checker) {
        checker.addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration("jsonpatch.escapeKey",
                CelOverloadDecl.newGlobalOverload("string_jsonpatch_escapeKey_string", SimpleType.STRING, SimpleType.STRING)));
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtime) {
        runtime.addFunctionBindings(CelFunctionBinding.from("string_jsonpatch_escapeKey_string", String.class,
                MutationLibrary::escapeKey));
    }

    /** RFC 6901: {@code ~} becomes {@code ~0}, then {@code /} becomes {@code ~1}. */
    static String escapeKey(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
