package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * GitLab's code-quality report (a subset of the Code Climate issue format): a JSON array that a CI job declares
 * as {@code artifacts: reports: codequality:}, shown in the merge request's widget and diff.
 *
 * <p>Severity: error → {@code critical} (it blocks the apply), warning → {@code minor}, info → {@code info}.
 * The fingerprint is what GitLab compares between the merge request and its target branch to say which findings
 * are new; it hashes rule, file, object, field and message, not the line, so moving a document in its file does
 * not make its findings "new". GitLab shows one issue per fingerprint, so repeats get an occurrence number.
 */
final class CodeQualityReport {
    private CodeQualityReport() {}

    static ArrayNode of(List<LocatedFinding> findings) {
        ArrayNode issues = JsonNodeFactory.instance.arrayNode();
        Map<String, Integer> seen = new HashMap<>();
        for (LocatedFinding lf : findings) {
            Finding f = lf.finding();
            String path = lf.file() == null ? "" : lf.file().replace('\\', '/').replaceFirst("^\\./", "");
            ObjectNode issue = issues.addObject();
            String where = f.object().isEmpty() ? "" : f.object() + (f.field().isEmpty() ? "" : " " + f.field()) + ": ";
            issue.put("description", f.rule() + " " + where + f.message());
            issue.put("check_name", f.rule());
            String key = String.join("\u0000", f.rule(), path, f.object(), f.field(), f.message());
            int occurrence = seen.merge(key, 1, Integer::sum);
            issue.put("fingerprint", sha256(occurrence == 1 ? key : key + "\u0000" + occurrence));
            issue.put("severity", switch (f.severity()) {
                case ERROR -> "critical";
                case WARNING -> "minor";
                case INFO -> "info";
            });
            ObjectNode location = issue.putObject("location");
            location.put("path", path);
            location.putObject("lines").put("begin", lf.line() == null || lf.line() < 1 ? 1 : lf.line());
        }
        return issues;
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
