package dev.policyset.aps.core.cel.lib;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes CEL libraries available at a CEL compatibility version, as kube-apiserver's base
 * environment adds them ({@code k8s.io/apiserver/pkg/cel/environment/base.go}, {@code IntroducedVersion}).
 *
 * <p>Not listed here, because the environment ({@code core.cel}) owns them: the cel-go
 * extensions (strings incl. {@code format}, sets, lists ext, optional, two-variable comprehensions), the
 * variables and their types, and the mutation-only {@code jsonpatch.escapeKey} with the {@code Object} and
 * {@code JSONPatch} types. The authz library declares its functions on
 * {@link CelAuthorizer#AUTHORIZER_TYPE} and {@link CelAuthorizer#RESOURCE_CHECK_TYPE}.
 */
public final class KubernetesLibraries {
    private static final ListsLibrary LISTS_V0 = new ListsLibrary(0);
    private static final ListsLibrary LISTS_V1 = new ListsLibrary(1);
    private static final RegexLibrary REGEX = new RegexLibrary();
    private static final UrlLibrary URL = new UrlLibrary();
    private static final AuthzLibrary AUTHZ = new AuthzLibrary(false);
    private static final AuthzLibrary AUTHZ_WITH_SELECTORS = new AuthzLibrary(true);
    private static final QuantityLibrary QUANTITY = new QuantityLibrary();
    private static final IpLibrary IP = new IpLibrary();
    private static final FormatLibrary FORMAT = new FormatLibrary();
    private static final SemverLibrary SEMVER = new SemverLibrary();
    private static final CidrLibrary CIDR = new CidrLibrary();

    private KubernetesLibraries() {
    }

    /** The libraries an expression compiled at {@code celCompatibilityVersion} can use. */
    public static List<KubeCelLibrary> forVersion(KubeVersion celCompatibilityVersion) {
        KubeVersion v = celCompatibilityVersion;
        List<KubeCelLibrary> libs = new ArrayList<>();
        libs.add(v.atLeast(1, 37) ? LISTS_V1 : LISTS_V0);
        libs.add(REGEX);
        libs.add(URL);
        if (v.atLeast(1, 27)) {
            libs.add(v.atLeast(1, 31) ? AUTHZ_WITH_SELECTORS : AUTHZ);
        }
        if (v.atLeast(1, 28)) {
            libs.add(QUANTITY);
        }
        if (v.atLeast(1, 30)) {
            libs.add(IP);
            libs.add(CIDR);
        }
        if (v.atLeast(1, 31)) {
            libs.add(FORMAT);
        }
        if (v.atLeast(1, 33)) {
            libs.add(SEMVER);
        }
        return List.copyOf(libs);
    }

    /**
     * Applies each library's program-creation step ({@link KubeCelLibrary#prepareProgram}) to a checked
     * expression; call it between type-checking and {@code createProgram}, with the same libraries.
     *
     * @throws ProgramInstantiationException as cel-go's {@code env.Program} would fail
     */
    public static CelAbstractSyntaxTree prepareProgram(List<KubeCelLibrary> libraries, CelAbstractSyntaxTree checked)
            throws ProgramInstantiationException {
        CelAbstractSyntaxTree ast = checked;
        for (KubeCelLibrary library : libraries) {
            ast = library.prepareProgram(ast);
        }
        return ast;
    }

    /**
     * A type provider that resolves the libraries' type names ({@code net.IP}, {@code net.CIDR}, ...) so
     * that {@code type(x) == net.IP} type-checks, and otherwise asks {@code fallback} (may be null).
     */
    public static CelTypeProvider typeProvider(List<KubeCelLibrary> libraries, CelTypeProvider fallback) {
        Map<String, CelType> byName = new LinkedHashMap<>();
        libraries.forEach(lib -> lib.types().forEach(t -> byName.put(t.name(), t)));
        return new CelTypeProvider() {
            @Override
            public ImmutableCollection<CelType> types() {
                ImmutableList.Builder<CelType> all = ImmutableList.<CelType>builder().addAll(byName.values());
                if (fallback != null) {
                    all.addAll(fallback.types());
                }
                return all.build();
            }

            @Override
            public Optional<CelType> findType(String typeName) {
                CelType t = byName.get(typeName);
                if (t != null) {
                    return Optional.of(t);
                }
                return fallback == null ? Optional.empty() : fallback.findType(typeName);
            }
        };
    }

    /** How to build the {@code authorizer} runtime values (the authz library's value classes). */
    public static Optional<AuthorizerValues> authorizerValues() {
        return Optional.of(AuthzLibrary.VALUES);
    }
}
