package dev.policyset.aps.core.util;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a misspelt one most likely meant, for "did you mean" hints: the same name in another case, or
 * the closest by edit distance (insertions, deletions, substitutions and swaps of neighbours, each 1) when it
 * is close enough to be a typo and not a different word. A hint that points at an unrelated name costs the
 * reader more than no hint, so the bar is a third of the typed name's length, at most 3.
 */
public final class NearestName {
    private NearestName() {}

    /** The nearest of {@code known} to {@code typed}; empty when none is close; ties go to the first. */
    public static Optional<String> among(String typed, Collection<String> known) {
        String t = typed.toLowerCase(Locale.ROOT);
        int limit = Math.max(1, Math.min(3, typed.length() / 3));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : known) {
            if (name.equals(typed)) {
                continue;
            }
            int d = distance(t, name.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = name;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= limit ? Optional.of(best) : Optional.empty();
    }

    /** Optimal string alignment distance: Levenshtein plus the swap of two neighbours ("reinvocationPolicy"). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
