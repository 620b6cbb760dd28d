package dev.policyset.aps.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The judging shared by the differential suites (docs/real-apiserver.md, "Differential suites"): the reviewed
 * entries of one section of {@code src/test/resources/kube/known-divergences.yaml}, the suite's counts, and its part
 * of {@code target/kube-report-<version>.json}. A case agrees, or diverges as an entry says (known), or diverges
 * unlisted (the test fails, printing the entry to review); a listed entry that agrees now fails as well, and so does
 * one that no case of the run reported at a version it names ({@link #staleEntries}). A case the server cannot be
 * asked is skipped with its reason ({@link #skip}), counted apart from the cases.
 */
public final class Differential {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A reviewed divergence. */
    public record Known(String id, List<String> versions, String server, String aps, String why, String upstream) {
        public boolean appliesTo(String version) {
            return versions.stream().anyMatch(v -> version.equals(v) || version.startsWith(v + "."));
        }
    }

    private final String suite;
    private final String version;
    private final Map<String, List<Known>> known;
    private final Set<String> stillDiverging = new TreeSet<>();
    private final Set<String> judged = new TreeSet<>();
    private int cases;
    private int agree;
    private int knownCount;
    private int diverge;
    private final Map<String, Integer> skipped = new java.util.TreeMap<>();

    private Differential(String suite, String version, Map<String, List<Known>> known) {
        this.suite = suite;
        this.version = version;
        this.known = known;
    }

    /** The judge of {@code suite} (a top-level key of known-divergences.yaml) at {@code version}. */
    public static Differential of(String suite, String version) {
        return new Differential(suite, version, read(suite));
    }

    /** The entry for {@code id} at {@code version}, if one is listed: a case may have one entry per range of versions. */
    private Known listed(String id, String version) {
        return known.getOrDefault(id, List.of()).stream().filter(k -> k.appliesTo(version)).findFirst().orElse(null);
    }

    /**
     * Judges one case whose two sides summarise as {@code server} and {@code aps} ({@code agree} says whether they
     * agree, for suites where agreement is more than equal summaries); fails the calling test unless they agree or
     * the divergence is listed with exactly these summaries. {@code version} is the version the entry's
     * {@code versions} are matched against (the server's, or the emulated one).
     */
    public synchronized void judge(String id, String version, String server, String aps, boolean agree, String detail) {
        cases++;
        judged.add(id);
        Known listed = listed(id, version);
        boolean listedHere = listed != null;
        String line = id + " at " + version + ": server " + server + ", aps " + aps + (detail.isEmpty() ? "" : "; " + detail);
        if (agree) {
            this.agree++;
            if (listedHere) {
                fail("listed in known-divergences.yaml but agrees now (remove the entry): " + line);
            }
            return;
        }
        if (listedHere) {
            stillDiverging.add(id);
            knownCount++;
            assertEquals(listed.server() + " / " + listed.aps(), server + " / " + aps,
                    "known divergence changed (review the entry): " + line);
            return;
        }
        diverge++;
        System.out.println("[" + suite + "] DIVERGES " + line);
        fail("unlisted divergence (fix it, or list it under '" + suite + "' in src/test/resources/kube/known-divergences.yaml):\n"
                + "  - case: \"" + id + "\"\n    versions: [\"" + minor(version) + "\"]\n    server: " + quote(server)
                + "\n    aps: " + quote(aps) + "\n" + line);
    }

    /**
     * A case the server cannot be asked (e.g. a kind it does not serve): counted under {@code skipped} by
     * {@code reason} (a short, stable phrase) and shown as a skipped test with {@code detail}. A listed entry for
     * it stays stale.
     */
    public void skip(String id, String reason, String detail) {
        synchronized (this) {
            skipped.merge(reason, 1, Integer::sum);
        }
        System.out.println("[" + suite + "] SKIPPED " + id + ": " + reason + (detail.isEmpty() ? "" : " (" + detail + ")"));
        org.junit.jupiter.api.Assumptions.abort(reason + (detail.isEmpty() ? "" : ": " + detail));
    }

    /** Entries that apply at {@code version} to a case this run judged but that did not diverge (or were not run). */
    public synchronized List<String> staleEntries(String version, java.util.function.Predicate<String> ranHere) {
        return known.values().stream().flatMap(List::stream).filter(k -> k.appliesTo(version)).filter(k -> ranHere.test(k.id()))
                .filter(k -> !stillDiverging.contains(k.id())).map(Known::id).toList();
    }

    public synchronized boolean judged(String id) {
        return judged.contains(id);
    }

    /** Merges {@code {cases, agree, known, diverge}} into target/kube-report-&lt;version&gt;.json under suites.&lt;suite&gt;. */
    public synchronized Path writeReport() {
        Path report = Path.of("target", "kube-report-" + version + ".json");
        try {
            ObjectNode root = Files.exists(report) ? (ObjectNode) JSON.readTree(report.toFile()) : JSON.createObjectNode();
            root.put("version", version);
            ObjectNode suites = root.has("suites") ? (ObjectNode) root.get("suites") : root.putObject("suites");
            ObjectNode counts = suites.putObject(suite);
            counts.put("cases", cases);
            counts.put("agree", agree);
            counts.put("known", knownCount);
            counts.put("diverge", diverge);
            if (!skipped.isEmpty()) {
                ObjectNode why = counts.putObject("skipped");
                skipped.forEach(why::put);
            }
            Files.createDirectories(report.getParent());
            JSON.writerWithDefaultPrettyPrinter().writeValue(report.toFile(), root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return report;
    }

    /** "N cases, A agree, K known, D diverge". */
    public synchronized String counts() {
        return cases + " cases, " + agree + " agree, " + knownCount + " known, " + diverge + " diverge"
                + (skipped.isEmpty() ? "" : "; skipped " + skipped);
    }

    private static String minor(String version) {
        String[] parts = version.split("[.]");
        return parts.length >= 2 ? parts[0] + "." + parts[1].replaceAll("[^0-9].*", "") : version;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /**
     * The entries of one section; each needs case, versions, server, aps, why and upstream. A case is listed more than
     * once only where the server does something else at other versions, so no two of its entries share a version.
     */
    static Map<String, List<Known>> read(String section) {
        Map<String, List<Known>> known = new LinkedHashMap<>();
        try (InputStream in = Differential.class.getResourceAsStream("/kube/known-divergences.yaml")) {
            assertTrue(in != null, "src/test/resources/kube/known-divergences.yaml is missing");
            List<Document> docs = Yaml.parse("known-divergences.yaml", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            for (Document doc : docs) {
                for (JsonNode entry : doc.content().path(section)) {
                    List<String> versions = new ArrayList<>();
                    entry.path("versions").forEach(v -> versions.add(v.asText()));
                    String id = entry.path("case").asText();
                    for (String field : List.of("case", "server", "aps", "why", "upstream")) {
                        assertFalse(entry.path(field).asText().isBlank(), "known-divergences.yaml: " + id + " needs '" + field + "'");
                    }
                    assertFalse(versions.isEmpty(), "known-divergences.yaml: " + id + " needs 'versions'");
                    List<Known> entries = known.computeIfAbsent(id, k -> new ArrayList<>());
                    for (String v : versions) {
                        assertTrue(entries.stream().noneMatch(k -> k.versions().contains(v)),
                                "known-divergences.yaml lists " + id + " twice for " + v + " under " + section);
                    }
                    entries.add(new Known(id, versions, entry.path("server").asText(), entry.path("aps").asText(),
                            entry.path("why").asText(), entry.path("upstream").asText()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (dev.policyset.aps.core.yaml.DocumentParseException e) {
            throw new IllegalStateException("known-divergences.yaml does not parse: " + e.getMessage(), e);
        }
        return known;
    }
}
