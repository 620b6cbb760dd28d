package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes semver library ({@code semverlib.go}, version 1 as base.go adds it at compatibility 1.33):
 * {@code semver(s[, normalize])}, {@code isSemver(s[, normalize])}, {@code isGreaterThan},
 * {@code isLessThan}, {@code compareTo}, {@code major}, {@code minor}, {@code patch}.
 */
public final class SemverLibrary extends AbstractKubeLibrary {
    public static final OpaqueType SEMVER_TYPE = OpaqueType.create("kubernetes.Semver");

    public SemverLibrary() {
        super("semver");
        OpaqueType t = SEMVER_TYPE;
        add("semver", newGlobalOverload("string_to_semver", t, SimpleType.STRING),
                CelFunctionBinding.from("string_to_semver", String.class, s -> toSemver(s, false)));
        add("semver", newGlobalOverload("string_bool_to_semver", t, SimpleType.STRING, SimpleType.BOOL),
                CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, SemverLibrary::toSemver));
        add("isSemver", newGlobalOverload("is_semver_string", SimpleType.BOOL, SimpleType.STRING),
                CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)));
        add("isSemver", newGlobalOverload("is_semver_string_bool", SimpleType.BOOL, SimpleType.STRING, SimpleType.BOOL),
                CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, SemverLibrary::isSemver));
        add("isGreaterThan", newMemberOverload("semver_is_greater_than", SimpleType.BOOL, t, t),
                CelFunctionBinding.from("semver_is_greater_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) == 1));
        add("isLessThan", newMemberOverload("semver_is_less_than", SimpleType.BOOL, t, t),
                CelFunctionBinding.from("semver_is_less_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) == -1));
        add("compareTo", newMemberOverload("semver_compare_to", SimpleType.INT, t, t),
                CelFunctionBinding.from("semver_compare_to", Semver.class, Semver.class, (a, b) -> (long) a.compareTo(b)));
        add("major", newMemberOverload("semver_major", SimpleType.INT, t),
                CelFunctionBinding.from("semver_major", Semver.class, Semver::major));
        add("minor", newMemberOverload("semver_minor", SimpleType.INT, t),
                CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor));
        add("patch", newMemberOverload("semver_patch", SimpleType.INT, t),
                CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch));
    }

    @Override
    public List<CelType> types() {
        return List.of(SEMVER_TYPE);
    }

    private static Object toSemver(String s, Boolean normalize) throws CelEvaluationException {
        try {
            return normalize ? Semver.normalizeAndParse(s) : Semver.parse(s);
        } catch (Semver.ParseException e) {
            throw error(e.getMessage());
        }
    }

    private static Object isSemver(String s, Boolean normalize) {
        try {
            toSemver(s, normalize);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
