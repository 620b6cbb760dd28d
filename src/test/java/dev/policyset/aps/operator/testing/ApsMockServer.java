package dev.policyset.aps.operator.testing;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.quarkus.test.kubernetes.client.AbstractKubernetesTestResource;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;

/**
 * Quarkus test resource: the fabric8 CRUD mock server (what {@code @WithKubernetesTestServer(crud = true)}
 * starts) with its dispatcher wrapped in {@link ApplyAwareDispatcher}, and API discovery stubbed with server
 * expectations: admissionregistration.k8s.io v1 (VAP, VAPB, webhook configurations) and MutatingAdmissionPolicy
 * at the version named by the {@code map-version} init arg ({@code v1beta1} by default, {@code none} for a
 * cluster without it). Quarkus' own test resource cannot take a custom dispatcher, hence this one; it reuses
 * that resource's base class, so the same client properties are set.
 */
public class ApsMockServer extends AbstractKubernetesTestResource<KubernetesMockServer, NamespacedKubernetesClient> {
    private static volatile ApsMockServer current;

    private String mapVersion = "v1beta1";
    private ApplyAwareDispatcher dispatcher;

    /** The dispatcher of the server the running Quarkus application talks to. */
    public static ApplyAwareDispatcher dispatcher() {
        return current.dispatcher;
    }

    public static KubernetesMockServer server() {
        return current.server;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        mapVersion = initArgs.getOrDefault("map-version", mapVersion);
    }

    @Override
    protected KubernetesMockServer createServer() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        dispatcher = new ApplyAwareDispatcher(new KubernetesMixedDispatcher(responses));
        current = this;
        KubernetesMockServer server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(), responses, dispatcher, false);
        VersionInfo version = new VersionInfo.Builder().withMajor("1").withMinor("34").withGitVersion("v1.34.0").build();
        server.setVersionInfo(version);
        return server;
    }

    @Override
    protected void initServer() {
        server.init(InetAddress.getLoopbackAddress(), 0);
    }

    @Override
    protected void configureServer() {
        dispatcher.serveMutatingPolicies(mapVersion);
    }

    /** Discovery of admissionregistration.k8s.io: v1 kinds, and MutatingAdmissionPolicy at {@code mapVersion} ("none": absent). */
    public static void stubDiscovery(KubernetesMockServer server, String mapVersion) {
        String group = "admissionregistration.k8s.io";
        for (String v : List.of("v1", "v1beta1", "v1alpha1")) {
            Optional<APIResourceList> list = discovery(v, mapVersion);
            if (list.isEmpty()) {
                server.expect().get().withPath("/apis/" + group + "/" + v).andReturn(404, "").always();
            } else {
                server.expect().get().withPath("/apis/" + group + "/" + v).andReturn(200, list.get()).always();
            }
        }
    }

    /** The resource list of admissionregistration.k8s.io/{@code version}; empty when the version is not served. */
    public static Optional<APIResourceList> discovery(String version, String mapVersion) {
        List<APIResource> resources = new ArrayList<>();
        if (version.equals("v1")) {
            for (String[] k : new String[][]{{"validatingadmissionpolicies", "ValidatingAdmissionPolicy"},
                    {"validatingadmissionpolicybindings", "ValidatingAdmissionPolicyBinding"},
                    {"validatingwebhookconfigurations", "ValidatingWebhookConfiguration"},
                    {"mutatingwebhookconfigurations", "MutatingWebhookConfiguration"}}) {
                resources.add(resource(k[0], k[1]));
            }
        }
        if (version.equals(mapVersion)) {
            resources.add(resource("mutatingadmissionpolicies", "MutatingAdmissionPolicy"));
            resources.add(resource("mutatingadmissionpolicybindings", "MutatingAdmissionPolicyBinding"));
        }
        return resources.isEmpty() ? Optional.empty() : Optional.of(new APIResourceListBuilder()
                .withGroupVersion("admissionregistration.k8s.io/" + version).withResources(resources).build());
    }

    private static APIResource resource(String plural, String kind) {
        return new APIResourceBuilder().withName(plural).withKind(kind).withNamespaced(false)
                .withVerbs("create", "delete", "get", "list", "patch", "update", "watch").build();
    }

    @Override
    protected NamespacedKubernetesClient getClient() {
        return server.createClient();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.destroy();
        }
    }

    @Override
    protected Class<?> getInjectedClass() {
        return KubernetesMockServer.class;
    }

    @Override
    protected Class<? extends java.lang.annotation.Annotation> getInjectionAnnotation() {
        return KubernetesTestServer.class;
    }
}
