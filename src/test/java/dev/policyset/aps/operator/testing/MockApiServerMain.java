package dev.policyset.aps.operator.testing;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.MockWebServer;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;

/**
 * Smoke test of the packaged operator without a cluster: starts the extended mock server, writes a kubeconfig
 * for it, waits for the operator ({@code java -jar target/quarkus-app/quarkus-run.jar} with that KUBECONFIG) to
 * start, creates one six-object set and prints its status. Exit code 0 when the set becomes Ready.
 * Usage: {@code MockApiServerMain KUBECONFIG_PATH CRD_YAML}.
 */
public final class MockApiServerMain {
    public static void main(String[] args) throws Exception {
        var responses = new HashMap<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>>();
        var dispatcher = new ApplyAwareDispatcher(new KubernetesMixedDispatcher(responses));
        KubernetesMockServer server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(),
                responses, dispatcher, false);
        server.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor("34").withGitVersion("v1.34.0").build());
        server.init(InetAddress.getLoopbackAddress(), 0);
        ApsMockServer.stubDiscovery(server, "v1beta1");
        // Leader election first asks what it may do with Leases; the mock cannot answer a SelfSubjectRulesReview.
        if (Boolean.parseBoolean(System.getProperty("ssrr", "true"))) server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews").andReturn(201, """
                {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"aps-system"},
                 "status":{"incomplete":false,"nonResourceRules":[],"resourceRules":[{"apiGroups":["coordination.k8s.io"],
                 "resources":["leases"],"verbs":["get","create","update"]}]}}""").always();
        NamespacedKubernetesClient client = server.createClient();
        client.resource(Serialization.unmarshal(Files.readString(Path.of(args[1])), CustomResourceDefinition.class)).create();
        String url = client.getConfiguration().getMasterUrl();
        Files.writeString(Path.of(args[0]), """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s"}}]
                users: [{name: mock, user: {token: mock}}]
                contexts: [{name: mock, context: {cluster: mock, user: mock, namespace: aps-system}}]
                current-context: mock
                """.formatted(url));
        System.out.println("mock API server at " + url + "; kubeconfig " + args[0]);
        Thread.sleep(Long.getLong("wait", 20_000));
        client.resource(Sets.six("smoke", "needs a team label")).create();
        for (int i = 0; i < 60; i++) {
            AdmissionPolicySet set = client.resources(AdmissionPolicySet.class).withName("smoke").get();
            if (set.getStatus() != null && set.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"))) {
                System.out.println(Serialization.asYaml(set.getStatus()));
                System.out.println("leases: " + client.leases().inAnyNamespace().list().getItems().stream()
                        .map(l -> l.getMetadata().getNamespace() + "/" + l.getMetadata().getName()).toList());
                server.destroy();
                System.exit(0);
            }
            Thread.sleep(1000);
        }
        System.out.println("not Ready: " + Serialization.asYaml(client.resources(AdmissionPolicySet.class).withName("smoke").get()));
        server.destroy();
        System.exit(1);
    }
}
