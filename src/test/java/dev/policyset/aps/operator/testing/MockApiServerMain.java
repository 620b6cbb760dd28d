package dev.policyset.aps.operator.testing;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.file.Path;

/**
 * Smoke test of the packaged operator without a cluster: starts the extended mock server ({@link MockCluster}),
 * writes a kubeconfig for it, waits for the operator ({@code java -jar target/quarkus-app/quarkus-run.jar} with that
 * KUBECONFIG) to start, creates one six-object set and prints its status. Exit code 0 when the set becomes Ready.
 * Usage: {@code MockApiServerMain KUBECONFIG_PATH CRD_YAML}. {@code -Dssrr=false}: no SelfSubjectRulesReview answer
 * (shows the failed-start message). The automated version is {@code PackagedOperatorIT}.
 */
public final class MockApiServerMain {
    public static void main(String[] args) throws Exception {
        MockCluster cluster = MockCluster.start(Path.of(args[0]), Path.of(args[1]),
                Boolean.parseBoolean(System.getProperty("ssrr", "true")));
        NamespacedKubernetesClient client = cluster.client();
        System.out.println("mock API server at " + cluster.url() + "; kubeconfig " + args[0]);
        Thread.sleep(Long.getLong("wait", 20_000));
        client.resource(Sets.six("smoke", "needs a team label")).create();
        for (int i = 0; i < 60; i++) {
            AdmissionPolicySet set = client.resources(AdmissionPolicySet.class).withName("smoke").get();
            if (set.getStatus() != null && set.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"))) {
                System.out.println(Serialization.asYaml(set.getStatus()));
                System.out.println("leases: " + client.leases().inAnyNamespace().list().getItems().stream()
                        .map(l -> l.getMetadata().getNamespace() + "/" + l.getMetadata().getName()).toList());
                cluster.close();
                System.exit(0);
            }
            Thread.sleep(1000);
        }
        System.out.println("not Ready: " + Serialization.asYaml(client.resources(AdmissionPolicySet.class).withName("smoke").get()));
        cluster.close();
        System.exit(1);
    }
}
