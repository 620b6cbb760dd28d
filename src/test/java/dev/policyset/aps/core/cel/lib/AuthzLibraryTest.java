package dev.policyset.aps.core.cel.lib;

import dev.cel.common.CelVarDecl;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AuthzLibraryTest {
    private static final List<CelVarDecl> VARS = List.of(
            CelVarDecl.newVarDeclaration("authorizer", AuthzLibrary.AUTHORIZER_TYPE),
            CelVarDecl.newVarDeclaration("authorizer.requestResource", AuthzLibrary.RESOURCE_CHECK_TYPE));
    private final CelLibTesting cel = new CelLibTesting(VARS, new AuthzLibrary(true));
    private final CelLibTesting noSelectors = new CelLibTesting(VARS, new AuthzLibrary(false));
    private final List<CelAuthorizer.Attributes> seen = new ArrayList<>();

    private Map<String, Object> vars(CelAuthorizer.Decision decision) {
        CelAuthorizer authz = attributes -> {
            seen.add(attributes);
            return decision;
        };
        return Map.of("authorizer", AuthzLibrary.VALUES.authorizer(authz, "alice"),
                "authorizer.requestResource", AuthzLibrary.VALUES.requestResource(authz, "alice", "apps", "deployments",
                        "scale", "default", "web"));
    }

    private static CelAuthorizer.Decision allow(String reason) {
        return new CelAuthorizer.Decision(CelAuthorizer.Decision.Kind.ALLOW, reason, null);
    }

    @Test
    void pathCheck() throws Exception {
        assertEquals(true, cel.eval("authorizer.path('/healthz').check('get').allowed()", vars(allow("ok"))));
        assertEquals(new CelAuthorizer.Attributes("alice", "get", "/healthz", "", "", "", "", "", "", ""), seen.get(0));
        assertEquals("ok", cel.eval("authorizer.path('/healthz').check('get').reason()", vars(allow("ok"))));
    }

    @Test
    void resourceCheckPassesEveryAttribute() throws Exception {
        assertEquals(true, cel.eval("authorizer.group('apps').resource('deployments').subresource('status')"
                + ".namespace('test').name('backend').fieldSelector('a=b').labelSelector('x=y').check('update').allowed()",
                vars(allow(""))));
        assertEquals(new CelAuthorizer.Attributes("alice", "update", "", "apps", "deployments", "status", "test", "backend",
                "a=b", "x=y"), seen.get(0));
    }

    @Test
    void requestResource() throws Exception {
        cel.eval("authorizer.requestResource.check('patch').allowed()", vars(allow("")));
        assertEquals(new CelAuthorizer.Attributes("alice", "patch", "", "apps", "deployments", "scale", "default", "web",
                "", ""), seen.get(0));
    }

    @Test
    void serviceAccount() throws Exception {
        cel.eval("authorizer.serviceAccount('ns', 'builder').group('').resource('pods').check('list').allowed()",
                vars(allow("")));
        assertEquals("system:serviceaccount:ns:builder", seen.get(0).user());
        Map<String, Object> v = vars(allow(""));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> cel.eval("authorizer.serviceAccount('bad.ns', 'bad_name').group('').resource('pods').check('get').allowed()", v));
        assertEquals(true, e.getMessage().contains("Invalid service account name"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> cel.eval("authorizer.serviceAccount('bad.ns', 'good').group('').resource('pods').check('get').allowed()", v));
        assertEquals(true, e.getMessage().contains("Invalid service account namespace"), e.getMessage());
    }

    @Test
    void decisions() throws Exception {
        CelAuthorizer.Decision errored = new CelAuthorizer.Decision(CelAuthorizer.Decision.Kind.NO_OPINION, "", "timeout");
        assertEquals(false, cel.eval("authorizer.group('').resource('pods').check('get').allowed()", vars(errored)));
        assertEquals(true, cel.eval("authorizer.group('').resource('pods').check('get').errored()", vars(errored)));
        assertEquals("timeout", cel.eval("authorizer.group('').resource('pods').check('get').error()", vars(errored)));
        assertEquals("", cel.eval("authorizer.group('').resource('pods').check('get').error()", vars(allow(""))));
        assertEquals(false, cel.eval("authorizer.group('').resource('pods').check('get').errored()", vars(allow(""))));
    }

    @Test
    void blankPathOrResourceFails() {
        Map<String, Object> v = vars(allow(""));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> cel.eval("authorizer.path('  ').check('get').allowed()", v));
        assertEquals(true, e.getMessage().contains("path must not be empty"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> cel.eval("authorizer.group('apps').resource('').check('get').allowed()", v));
        assertEquals(true, e.getMessage().contains("resource must not be empty"), e.getMessage());
    }

    @Test
    void typeRules() {
        cel.assertCompileError("authorizer.group('apps').check('get')", "found no matching overload for 'check'");
        cel.assertCompileError("authorizer.path('/x').namespace('a')", "found no matching overload for 'namespace'");
        noSelectors.assertCompileError("authorizer.group('').resource('pods').fieldSelector('a=b')", "fieldSelector");
    }
}
