package dev.policyset.aps.operator.testing;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * The extended mock server ({@link ApplyAwareDispatcher}, discovery with MutatingAdmissionPolicy at v1beta1) as a
 * stand-alone "cluster" for a packaged operator process: the CRD installed, a kubeconfig written for it (namespace
 * {@value #NAMESPACE}), and the SelfSubjectRulesReview that JOSDK's leader election asks first answered (the mock
 * cannot compute one).
 */
public final class MockCluster implements AutoCloseable {
    public static final String NAMESPACE = "aps-system";
    /** Held so the level sticks: the mock server logs every request at INFO through java.util.logging. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final ApplyAwareDispatcher dispatcher;
    private final NamespacedKubernetesClient client;

    private MockCluster(KubernetesMockServer server, ApplyAwareDispatcher dispatcher) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.client = server.createClient();
    }

    /** Starts the server, installs the CRD from {@code crdYaml} and writes a kubeconfig for it to {@code kubeconfig}. */
    public static MockCluster start(Path kubeconfig, Path crdYaml, boolean answerRulesReview) throws IOException {
        if (!Boolean.getBoolean("aps.mock.log-requests")) {
            MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        }
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        ApplyAwareDispatcher dispatcher = new ApplyAwareDispatcher(new KubernetesMixedDispatcher(responses));
        KubernetesMockServer server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(),
                responses, dispatcher, false);
        server.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor("34").withGitVersion("v1.34.0").build());
        server.init(InetAddress.getLoopbackAddress(), 0);
        ApsMockServer.stubDiscovery(server, "v1beta1");
        if (answerRulesReview) {
            server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews").andReturn(201, """
                    {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"%s"},
                     "status":{"incomplete":false,"nonResourceRules":[],"resourceRules":[{"apiGroups":["coordination.k8s.io"],
                     "resources":["leases"],"verbs":["get","create","update"]}]}}""".formatted(NAMESPACE)).always();
        }
        MockCluster cluster = new MockCluster(server, dispatcher);
        cluster.client.resource(Serialization.unmarshal(Files.readString(crdYaml), CustomResourceDefinition.class)).create();
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s"}}]
                users: [{name: mock, user: {token: mock}}]
                contexts: [{name: mock, context: {cluster: mock, user: mock, namespace: %s}}]
                current-context: mock
                """.formatted(cluster.url(), NAMESPACE));
        return cluster;
    }

    public String url() {
        return client.getConfiguration().getMasterUrl();
    }

    public NamespacedKubernetesClient client() {
        return client;
    }

    public ApplyAwareDispatcher dispatcher() {
        return dispatcher;
    }

    public KubernetesMockServer server() {
        return server;
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
