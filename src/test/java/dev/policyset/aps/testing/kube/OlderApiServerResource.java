package dev.policyset.aps.testing.kube;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Quarkus test resource: a control plane of the test class's own, from the real binaries of an older supported
 * minor (init arg {@code minor}, e.g. "1.34") with that release's defaults (no flags of ours). Pair it with
 * {@code @RealApiServer(minor = ...)} so the class skips when those binaries are not built.
 */
public class OlderApiServerResource implements QuarkusTestResourceLifecycleManager {
    private static volatile KubeControlPlane current;
    private String minor = "1.34";
    private Map<String, String> properties = Map.of();

    public static KubeControlPlane current() {
        return current;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        minor = initArgs.getOrDefault("minor", minor);
    }

    @Override
    public Map<String, String> start() {
        String version = KubeBinaries.versionOf(minor).orElseThrow(() -> new IllegalStateException("no " + minor + " in test/kube/versions"));
        KubeControlPlane plane = KubeControlPlane.start(KubeControlPlane.Options.of(version).withServerDefaults());
        current = plane;
        OperatorInstall.ensure(plane);
        properties = plane.clientProperties(OperatorInstall.USER, OperatorInstall.GROUPS);
        properties.forEach(System::setProperty);
        return properties;
    }

    @Override
    public void stop() {
        properties.keySet().forEach(System::clearProperty);
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
