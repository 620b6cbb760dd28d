package dev.policyset.aps.testing.kube;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Quarkus test resource: a control plane of the test class's own, with a release's defaults (no flags of ours),
 * stopped with the class's application. Init args: {@code minor} (e.g. "1.34": that release's real binaries; pair it
 * with {@code @RealApiServer(minor = ...)} so the class skips when they are not built) or {@code emulated-version}
 * (the newest binary with {@code --emulated-version}). {@link #current()} gives the test the plane.
 */
public class OwnApiServerResource implements QuarkusTestResourceLifecycleManager {
    private static volatile KubeControlPlane current;
    private String minor;
    private String emulated;
    private Map<String, String> properties = Map.of();

    public static KubeControlPlane current() {
        return current;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        minor = initArgs.get("minor");
        emulated = initArgs.get("emulated-version");
    }

    @Override
    public Map<String, String> start() {
        String version = minor == null ? KubeBinaries.version()
                : KubeBinaries.versionOf(minor).orElseThrow(() -> new IllegalStateException("no " + minor + " in test/kube/versions"));
        KubeControlPlane.Options options = KubeControlPlane.Options.of(version).withServerDefaults();
        current = KubeControlPlane.start(emulated == null ? options : options.emulating(emulated));
        properties = RealApiServerResource.connectOperator(current);
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
