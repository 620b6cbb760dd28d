package dev.policyset.aps.operator.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged operator ({@code target/quarkus-app/quarkus-run.jar}, prod profile: leader election on) as a child
 * process pointed at a {@link MockCluster}: its own HTTP port, a fixed HOSTNAME (the leader identity), output in a
 * log file the assertions quote.
 */
public final class OperatorProcess implements AutoCloseable {
    public static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    private final Process process;
    private final Path log;

    private OperatorProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static OperatorProcess start(Path kubeconfig, String identity, Path log, Map<String, String> env) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", JAR.toAbsolutePath().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
        builder.environment().put("HOSTNAME", identity);
        builder.environment().put("QUARKUS_HTTP_PORT", "0");
        builder.environment().putAll(env);
        return new OperatorProcess(builder.start(), log);
    }

    public Process process() {
        return process;
    }

    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends SIGTERM ({@link Process#destroy()} on Unix) and waits up to {@code max}; the time to exit, or null. */
    public Duration terminate(Duration max) throws InterruptedException {
        long start = System.nanoTime();
        process.destroy();
        return process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS) ? Duration.ofNanos(System.nanoTime() - start) : null;
    }

    /** SIGKILL: the operator gets no chance to finish what it was doing. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
