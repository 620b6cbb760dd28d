package dev.policyset.aps.testing.kube;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Quarkus test resource: a control plane of the test class's own, the newest binary emulating an older minor
 * ({@code --emulated-version}, init arg {@code emulated-version}, e.g. "1.34"), with that version's defaults:
 * APIs and feature gates as that release had them. Stopped with the class's application. {@link #current()}
 * gives the test the plane.
 */
public class EmulatedApiServerResource implements QuarkusTestResourceLifecycleManager {
    private static volatile KubeControlPlane current;
    private String emulated = "1.34";
    private Map<String, String> properties = Map.of();

    public static KubeControlPlane current() {
        return current;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        emulated = initArgs.getOrDefault("emulated-version", emulated);
    }

    @Override
    public Map<String, String> start() {
        KubeControlPlane plane = KubeControlPlane.start(KubeControlPlane.Options.defaults().emulating(emulated));
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
