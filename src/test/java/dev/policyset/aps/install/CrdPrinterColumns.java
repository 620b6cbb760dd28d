package dev.policyset.aps.install;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the CRD's printer columns in the order {@link AdmissionPolicySet} declares them. kubectl shows columns in
 * CRD order, and fabric8's CRD generator sorts them by JSON path (a {@code TreeMap} in
 * {@code AbstractCustomResourceHandler.handlePrinterColumns}), which would put Age first and Ready fourth. Only
 * the order of the column entries changes; every byte of each entry, and of the rest of the file, is the
 * generator's. {@code make manifests} writes crds/ through this; {@code CrdInSyncIT} and the bundle generator
 * compare with it.
 */
final class CrdPrinterColumns {
    private static final Pattern NAME = Pattern.compile("(?m)^ *(?:- )?name: \"([^\"]+)\"$");

    private CrdPrinterColumns() {}

    /** The column names in declaration order. */
    static List<String> declared() {
        return Arrays.stream(AdmissionPolicySet.class.getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name).toList();
    }

    /** The generated CRD text with its printer columns in declaration order. */
    static String ordered(String crd) {
        String start = "  - additionalPrinterColumns:\n";
        int from = crd.indexOf(start);
        if (from < 0) {
            throw new IllegalStateException("the generated CRD has no additionalPrinterColumns");
        }
        int body = from + start.length();
        List<String> lines = new ArrayList<>(crd.substring(body).lines().toList());
        List<List<String>> entries = new ArrayList<>();
        int consumed = 0;
        for (String line : lines) {
            if (line.startsWith("    - ")) {
                entries.add(new ArrayList<>(List.of(line)));
            } else if (line.startsWith("      ") && !entries.isEmpty()) {
                entries.get(entries.size() - 1).add(line);
            } else {
                break;
            }
            consumed++;
        }
        List<String> order = declared();
        entries.sort(Comparator.comparingInt(e -> {
            Matcher m = NAME.matcher(String.join("\n", e));
            if (!m.find() || !order.contains(m.group(1))) {
                throw new IllegalStateException("a generated printer column is not declared on AdmissionPolicySet: " + e);
            }
            return order.indexOf(m.group(1));
        }));
        StringBuilder out = new StringBuilder(crd.substring(0, body));
        entries.forEach(e -> e.forEach(l -> out.append(l).append('\n')));
        lines.subList(consumed, lines.size()).forEach(l -> out.append(l).append('\n'));
        if (!crd.endsWith("\n")) {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }
}
