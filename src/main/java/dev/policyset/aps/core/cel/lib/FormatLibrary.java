package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;
import java.util.Optional;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes format library ({@code format.go}, compatibility 1.31): {@code format.<name>()} constants,
 * {@code format.named(name)} (optional), and {@code <format>.validate(s)} returning
 * {@code optional.none()} when valid, else {@code optional.of(messages)}.
 */
public final class FormatLibrary extends AbstractKubeLibrary {
    public static final OpaqueType FORMAT_TYPE = OpaqueType.create("kubernetes.NamedFormat");

    public FormatLibrary() {
        super("format");
        add("validate", newMemberOverload("format-validate", OptionalType.create(ListType.create(SimpleType.STRING)),
                        FORMAT_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("format-validate", NamedFormat.class, String.class, (f, s) -> {
                    List<String> errs = f.validate(s);
                    return errs.isEmpty() ? Optional.empty() : Optional.of(errs);
                }));
        add("format.named", newGlobalOverload("format-named", OptionalType.create(FORMAT_TYPE), SimpleType.STRING),
                CelFunctionBinding.from("format-named", String.class,
                        name -> Optional.ofNullable(NamedFormat.CONSTANTS.get(name))));
        NamedFormat.CONSTANTS.forEach((key, format) -> {
            String fn = "format." + key;
            add(fn, newGlobalOverload(fn, FORMAT_TYPE, List.of()),
                    CelFunctionBinding.from(fn, List.of(), args -> format));
        });
    }

    @Override
    public List<CelType> types() {
        return List.of(FORMAT_TYPE);
    }
}
