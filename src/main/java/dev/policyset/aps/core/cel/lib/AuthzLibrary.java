package dev.policyset.aps.core.cel.lib;

import dev.policyset.aps.core.util.NameFormats;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes authz library ({@code authz.go}): {@code authorizer.path(p)} / {@code .group(g).resource(r)}
 * [{@code .subresource(s)}][{@code .namespace(ns)}][{@code .name(n)}] {@code .check(verb)},
 * {@code authorizer.serviceAccount(ns, name)}, and the decision's {@code allowed()}, {@code reason()},
 * {@code errored()}, {@code error()} (compatibility 1.27); with {@code selectors} (AuthzSelectors,
 * compatibility 1.31) also {@code fieldSelector(s)} and {@code labelSelector(s)} on a resource check.
 * Decisions come from a {@link CelAuthorizer}; {@link #VALUES} makes the variables' runtime values.
 */
public final class AuthzLibrary extends AbstractKubeLibrary {
    public static final CelType AUTHORIZER_TYPE = CelAuthorizer.AUTHORIZER_TYPE;
    public static final CelType RESOURCE_CHECK_TYPE = CelAuthorizer.RESOURCE_CHECK_TYPE;
    public static final OpaqueType PATH_CHECK_TYPE = OpaqueType.create("kubernetes.authorization.PathCheck");
    public static final OpaqueType GROUP_CHECK_TYPE = OpaqueType.create("kubernetes.authorization.GroupCheck");
    public static final OpaqueType DECISION_TYPE = OpaqueType.create("kubernetes.authorization.Decision");

    /** Builds {@code authorizer} and {@code authorizer.requestResource} values on a {@link CelAuthorizer}. */
    public static final AuthorizerValues VALUES = new AuthorizerValues() {
        @Override
        public Object authorizer(CelAuthorizer authorizer, String username) {
            return new AuthorizerVal(authorizer, username == null ? "" : username);
        }

        @Override
        public Object requestResource(CelAuthorizer authorizer, String username, String group, String resource,
                                      String subresource, String namespace, String name) {
            AuthorizerVal a = new AuthorizerVal(authorizer, username == null ? "" : username);
            return new ResourceCheckVal(a, nz(group), nz(resource), nz(subresource), nz(namespace), nz(name), "", "");
        }
    };

    record AuthorizerVal(CelAuthorizer authorizer, String user) {
    }

    record PathCheckVal(AuthorizerVal authorizer, String path) {
    }

    record GroupCheckVal(AuthorizerVal authorizer, String group) {
    }

    record ResourceCheckVal(AuthorizerVal authorizer, String group, String resource, String subresource,
                            String namespace, String name, String fieldSelector, String labelSelector) {
    }

    record DecisionVal(CelAuthorizer.Decision decision) {
    }

    public AuthzLibrary(boolean selectors) {
        super("authz");
        add("path", newMemberOverload("authorizer_path", PATH_CHECK_TYPE, AUTHORIZER_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("authorizer_path", AuthorizerVal.class, String.class, (a, p) -> {
                    if (p.trim().isEmpty()) {
                        throw error("path must not be empty");
                    }
                    return new PathCheckVal(a, p);
                }));
        add("group", newMemberOverload("authorizer_group", GROUP_CHECK_TYPE, AUTHORIZER_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("authorizer_group", AuthorizerVal.class, String.class, GroupCheckVal::new));
        add("serviceAccount", newMemberOverload("authorizer_serviceaccount", AUTHORIZER_TYPE, AUTHORIZER_TYPE,
                        SimpleType.STRING, SimpleType.STRING),
                CelFunctionBinding.from("authorizer_serviceaccount",
                        List.of(AuthorizerVal.class, String.class, String.class),
                        args -> serviceAccount((AuthorizerVal) args[0], (String) args[1], (String) args[2])));
        add("resource", newMemberOverload("groupcheck_resource", RESOURCE_CHECK_TYPE, GROUP_CHECK_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("groupcheck_resource", GroupCheckVal.class, String.class, (g, r) -> {
                    if (r.trim().isEmpty()) {
                        throw error("resource must not be empty");
                    }
                    return new ResourceCheckVal(g.authorizer(), g.group(), r, "", "", "", "", "");
                }));
        add("subresource", newMemberOverload("resourcecheck_subresource", RESOURCE_CHECK_TYPE, RESOURCE_CHECK_TYPE,
                        SimpleType.STRING),
                CelFunctionBinding.from("resourcecheck_subresource", ResourceCheckVal.class, String.class,
                        (r, s) -> new ResourceCheckVal(r.authorizer(), r.group(), r.resource(), s, r.namespace(), r.name(),
                                r.fieldSelector(), r.labelSelector())));
        add("namespace", newMemberOverload("resourcecheck_namespace", RESOURCE_CHECK_TYPE, RESOURCE_CHECK_TYPE,
                        SimpleType.STRING),
                CelFunctionBinding.from("resourcecheck_namespace", ResourceCheckVal.class, String.class,
                        (r, s) -> new ResourceCheckVal(r.authorizer(), r.group(), r.resource(), r.subresource(), s, r.name(),
                                r.fieldSelector(), r.labelSelector())));
        add("name", newMemberOverload("resourcecheck_name", RESOURCE_CHECK_TYPE, RESOURCE_CHECK_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("resourcecheck_name", ResourceCheckVal.class, String.class,
                        (r, s) -> new ResourceCheckVal(r.authorizer(), r.group(), r.resource(), r.subresource(),
                                r.namespace(), s, r.fieldSelector(), r.labelSelector())));
        add("check", newMemberOverload("pathcheck_check", DECISION_TYPE, PATH_CHECK_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("pathcheck_check", PathCheckVal.class, String.class, (p, verb) -> decide(
                        p.authorizer(), new CelAuthorizer.Attributes(p.authorizer().user(), verb, p.path(),
                                "", "", "", "", "", "", ""))));
        add("check", newMemberOverload("resourcecheck_check", DECISION_TYPE, RESOURCE_CHECK_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("resourcecheck_check", ResourceCheckVal.class, String.class, (r, verb) -> decide(
                        r.authorizer(), new CelAuthorizer.Attributes(r.authorizer().user(), verb, "", r.group(),
                                r.resource(), r.subresource(), r.namespace(), r.name(), r.fieldSelector(),
                                r.labelSelector()))));
        add("errored", newMemberOverload("decision_errored", SimpleType.BOOL, DECISION_TYPE),
                CelFunctionBinding.from("decision_errored", DecisionVal.class, d -> d.decision().error() != null));
        add("error", newMemberOverload("decision_error", SimpleType.STRING, DECISION_TYPE),
                CelFunctionBinding.from("decision_error", DecisionVal.class,
                        d -> d.decision().error() == null ? "" : d.decision().error()));
        add("allowed", newMemberOverload("decision_allowed", SimpleType.BOOL, DECISION_TYPE),
                CelFunctionBinding.from("decision_allowed", DecisionVal.class,
                        d -> d.decision().kind() == CelAuthorizer.Decision.Kind.ALLOW));
        add("reason", newMemberOverload("decision_reason", SimpleType.STRING, DECISION_TYPE),
                CelFunctionBinding.from("decision_reason", DecisionVal.class,
                        d -> d.decision().reason() == null ? "" : d.decision().reason()));
        if (selectors) {
            add("fieldSelector", newMemberOverload("authorizer_fieldselector", RESOURCE_CHECK_TYPE, RESOURCE_CHECK_TYPE,
                            SimpleType.STRING),
                    CelFunctionBinding.from("authorizer_fieldselector", ResourceCheckVal.class, String.class,
                            (r, s) -> new ResourceCheckVal(r.authorizer(), r.group(), r.resource(), r.subresource(),
                                    r.namespace(), r.name(), s, r.labelSelector())));
            add("labelSelector", newMemberOverload("authorizer_labelselector", RESOURCE_CHECK_TYPE, RESOURCE_CHECK_TYPE,
                            SimpleType.STRING),
                    CelFunctionBinding.from("authorizer_labelselector", ResourceCheckVal.class, String.class,
                            (r, s) -> new ResourceCheckVal(r.authorizer(), r.group(), r.resource(), r.subresource(),
                                    r.namespace(), r.name(), r.fieldSelector(), s)));
        }
    }

    @Override
    public List<CelType> types() {
        return List.of(AUTHORIZER_TYPE, PATH_CHECK_TYPE, GROUP_CHECK_TYPE, RESOURCE_CHECK_TYPE, DECISION_TYPE);
    }

    private static Object serviceAccount(AuthorizerVal a, String namespace, String name) throws CelEvaluationException {
        if (!NameFormats.nameIsDnsSubdomain(name, false).isEmpty()) {
            throw error("Invalid service account name");
        }
        if (!NameFormats.nameIsDnsLabel(namespace, false).isEmpty()) {
            throw error("Invalid service account namespace");
        }
        return new AuthorizerVal(a.authorizer(), "system:serviceaccount:" + namespace + ":" + name);
    }

    private static Object decide(AuthorizerVal a, CelAuthorizer.Attributes attributes) {
        CelAuthorizer.Decision d = a.authorizer().authorize(attributes);
        return new DecisionVal(d == null ? new CelAuthorizer.Decision(CelAuthorizer.Decision.Kind.NO_OPINION, "", null) : d);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
