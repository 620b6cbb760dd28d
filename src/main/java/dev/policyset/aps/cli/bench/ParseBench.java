package dev.policyset.aps.cli.bench;

import dev.policyset.aps.cli.ExitCodes;
import dev.policyset.aps.cli.InputFiles;
import dev.policyset.aps.core.yaml.DocumentParseException;
import dev.policyset.aps.core.yaml.Yaml;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.nodes.Node;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code aps-bench parse}: parsing time against input size, on the worst case for a YAML reader, one
 * long plain scalar. It prints, per size, the median time of the project's parser (linear: about the same time
 * per MiB at every size) and, up to {@code --baseline-max} MiB, of snakeyaml's own reader, which copies its
 * window for every 1,024 chars read (quadratic); then the time to refuse a 20 MiB file and an endless standard
 * input, which are refused by size without being parsed.
 */
@Command(name = "parse", mixinStandardHelpOptions = true,
        description = "Time YAML parsing of one long scalar by size, and the refusal of inputs over the limit.")
final class ParseBench implements Callable<Integer> {
    @Option(names = "--sizes", split = ",", defaultValue = "1,2,4,8,15", description = "Sizes in MiB (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(names = "--baseline-max", defaultValue = "4",
            description = "Largest size (MiB) also timed with snakeyaml's own reader; 0 for none (default: ${DEFAULT-VALUE}).")
    int baselineMax;

    @Option(names = "--iterations", defaultValue = "3", description = "Timed rounds per size (default: ${DEFAULT-VALUE}).")
    int iterations;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        parse("a".repeat(1 << 20)); // warm-up
        out.printf("one plain scalar of N MiB, median of %d rounds%n", iterations);
        out.printf("%8s %14s %12s %18s %10s%n", "MiB", "aps parse ms", "ms per MiB", "snakeyaml own ms", "ratio");
        for (int mib : sizes) {
            String text = "a".repeat(mib << 20) + "\n";
            double ours = median(() -> parse(text));
            String baseline = "-";
            String ratio = "-";
            if (mib <= baselineMax) {
                double theirs = median(() -> upstream(text));
                baseline = String.format("%.0f", theirs);
                ratio = String.format("%.1fx", theirs / ours);
            }
            out.printf("%8d %14.0f %12.0f %18s %10s%n", mib, ours, ours / mib, baseline, ratio);
            out.flush();
        }
        Path file = Files.createTempFile("aps-bench-parse", ".yaml");
        try {
            Files.writeString(file, "a".repeat(20 << 20) + "\n");
            double fileMs = median(() -> InputFiles.load(List.of(file), InputStream.nullInputStream()));
            double stdinMs = median(() -> InputFiles.load(List.of(Path.of(InputFiles.STDIN)), new Endless()));
            out.printf("refuse a 20 MiB file: %.1f ms; refuse an endless standard input: %.1f ms%n", fileMs, stdinMs);
        } finally {
            Files.deleteIfExists(file);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static void parse(String text) {
        try {
            Yaml.parse("bench", text);
        } catch (DocumentParseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** snakeyaml's own composeAll over its own StreamReader, as the project parsed before. */
    private static void upstream(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        for (Node ignored : new org.yaml.snakeyaml.Yaml(options).composeAll(new StringReader(text))) {
            // compose only
        }
    }

    private double median(Runnable run) {
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < Math.max(1, iterations); i++) {
            long start = System.nanoTime();
            run.run();
            times.add((System.nanoTime() - start) / 1e6);
        }
        double[] sorted = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    /** Standard input that never ends. */
    private static final class Endless extends InputStream {
        @Override
        public int read() {
            return 'a';
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Arrays.fill(b, off, off + len, (byte) 'a');
            return len;
        }
    }
}
