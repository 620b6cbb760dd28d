package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes URL library ({@code urls.go}): {@code url(s)}, {@code isURL(s)} and the getters. A string is a
 * URL when Go's {@code url.ParseRequestURI} accepts it (absolute URI or absolute path); the value is then
 * parsed again with {@code url.Parse}, which splits off the fragment.
 */
public final class UrlLibrary extends AbstractKubeLibrary {
    public static final OpaqueType URL_TYPE = OpaqueType.create("kubernetes.URL");

    public UrlLibrary() {
        super("url");
        add("url", newGlobalOverload("string_to_url", URL_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("string_to_url", String.class, UrlLibrary::toUrl));
        add("getScheme", newMemberOverload("url_get_scheme", SimpleType.STRING, URL_TYPE),
                CelFunctionBinding.from("url_get_scheme", GoUrl.class, u -> u.scheme));
        add("getHost", newMemberOverload("url_get_host", SimpleType.STRING, URL_TYPE),
                CelFunctionBinding.from("url_get_host", GoUrl.class, u -> u.host));
        add("getHostname", newMemberOverload("url_get_hostname", SimpleType.STRING, URL_TYPE),
                CelFunctionBinding.from("url_get_hostname", GoUrl.class, GoUrl::hostname));
        add("getPort", newMemberOverload("url_get_port", SimpleType.STRING, URL_TYPE),
                CelFunctionBinding.from("url_get_port", GoUrl.class, GoUrl::port));
        add("getEscapedPath", newMemberOverload("url_get_escaped_path", SimpleType.STRING, URL_TYPE),
                CelFunctionBinding.from("url_get_escaped_path", GoUrl.class, GoUrl::escapedPath));
        add("getQuery", newMemberOverload("url_get_query",
                        MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING)), URL_TYPE),
                CelFunctionBinding.from("url_get_query", GoUrl.class, GoUrl::query));
        add("isURL", newGlobalOverload("is_url_string", SimpleType.BOOL, SimpleType.STRING),
                CelFunctionBinding.from("is_url_string", String.class, UrlLibrary::isUrl));
    }

    @Override
    public List<CelType> types() {
        return List.of(URL_TYPE);
    }

    private static Object toUrl(String s) throws dev.cel.runtime.CelEvaluationException {
        try {
            GoUrl.parseRequestUri(s);
            return GoUrl.parse(s);
        } catch (GoUrl.UrlException e) {
            throw error("URL parse error during conversion from string: %s", e.getMessage());
        }
    }

    private static Object isUrl(String s) {
        try {
            GoUrl.parseRequestUri(s);
            return true;
        } catch (GoUrl.UrlException e) {
            return false;
        }
    }
}
