package dev.policyset.aps.operator;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import sun.misc.Signal;

/**
 * SIGTERM (how the kubelet stops a container) is an orderly stop with exit code 0. The JVM's own handler runs
 * the shutdown hooks and exits with 143, which Kubernetes shows as a terminated container with reason
 * {@code Error} after every rollout or drain; and everything the stop does (stopping the operator, releasing the
 * leader Lease) would run inside a shutdown hook, where any {@code System.exit} deadlocks. {@code Quarkus.asyncExit(0)}
 * stops the application on the main thread instead, then exits 0. Only in a packaged run (not in tests or dev mode,
 * whose launcher owns the JVM's signals).
 */
@Singleton
public class Termination {
    private static final Logger LOG = Logger.getLogger(Termination.class);

    /** Before {@link OperatorStartup} (priority 1), so a SIGTERM during start-up is handled the same way. */
    void onStart(@Observes @Priority(0) StartupEvent event) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        Signal.handle(new Signal("TERM"), signal -> {
            LOG.info("SIGTERM: stopping the operator");
            Quarkus.asyncExit(0);
        });
    }
}
