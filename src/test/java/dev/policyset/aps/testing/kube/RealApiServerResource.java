package dev.policyset.aps.testing.kube;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Quarkus test resource: the operator under test talks to the shared real control plane as its own
 * ServiceAccount (config/rbac judged by the real authorizer), with the CRD and RBAC of config/default installed.
 * The plane is this application's class loader's shared one, stopped with the application.
 */
public class RealApiServerResource implements QuarkusTestResourceLifecycleManager {
    private Map<String, String> properties = Map.of();

    /**
     * Also set as system properties, as Quarkus' own Kubernetes test resources do: fabric8's {@code Config} reads
     * {@code kubernetes.*} from there, not from the application's configuration.
     */
    @Override
    public Map<String, String> start() {
        properties = connectOperator(KubeControlPlane.shared());
        return properties;
    }

    /** Installs config/default on {@code plane}; the operator's client properties, also set as system properties. */
    static Map<String, String> connectOperator(KubeControlPlane plane) {
        OperatorInstall.ensure(plane);
        Map<String, String> properties = plane.clientProperties(OperatorInstall.USER, OperatorInstall.GROUPS);
        properties.forEach(System::setProperty);
        return properties;
    }

    @Override
    public void stop() {
        properties.keySet().forEach(System::clearProperty);
        KubeControlPlane.closeShared(); // this application's class loader's plane (see there)
    }
}
