package dev.policyset.aps.core.review;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts by lines (longest common subsequence, three lines of context), to show what a
 * webhook's patch changed in a form reviewers know from pull requests. Objects are small; texts beyond
 * {@value #MAX_CELLS} line pairs are shown as one whole replacement rather than compared.
 */
public final class LineDiff {
    private static final int CONTEXT = 3;
    private static final long MAX_CELLS = 4_000_000L;

    private LineDiff() {}

    /** The diff, {@code ---}/{@code +++} headers and {@code @@} hunks; empty when the texts are equal. */
    public static List<String> unified(String before, String after, String beforeName, String afterName) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        if (a.equals(b)) {
            return List.of();
        }
        List<String[]> ops = (long) a.size() * b.size() > MAX_CELLS ? replaceAll(a, b) : lcs(a, b);
        List<String> out = new ArrayList<>();
        out.add("--- " + beforeName);
        out.add("+++ " + afterName);
        int i = 0;
        int previousEnd = 0;
        while (i < ops.size()) {
            if (ops.get(i)[0].equals(" ")) {
                i++;
                continue;
            }
            int start = Math.max(previousEnd, i - CONTEXT);
            // one hunk while the next change is within 2 * CONTEXT unchanged lines
            int last = i;
            for (int k = i + 1; k < ops.size() && k - last <= 2 * CONTEXT; k++) {
                if (!ops.get(k)[0].equals(" ")) {
                    last = k;
                }
            }
            int end = Math.min(ops.size(), last + CONTEXT + 1);
            int aStart = 1;
            int bStart = 1;
            for (int k = 0; k < start; k++) {
                if (!ops.get(k)[0].equals("+")) {
                    aStart++;
                }
                if (!ops.get(k)[0].equals("-")) {
                    bStart++;
                }
            }
            int aLen = 0;
            int bLen = 0;
            for (int k = start; k < end; k++) {
                if (!ops.get(k)[0].equals("+")) {
                    aLen++;
                }
                if (!ops.get(k)[0].equals("-")) {
                    bLen++;
                }
            }
            out.add("@@ -" + aStart + "," + aLen + " +" + bStart + "," + bLen + " @@");
            for (int k = start; k < end; k++) {
                out.add(ops.get(k)[0] + ops.get(k)[1]);
            }
            i = end;
            previousEnd = end;
        }
        return out;
    }

    private static List<String[]> lcs(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int[][] len = new int[n + 1][m + 1];
        for (int x = n - 1; x >= 0; x--) {
            for (int y = m - 1; y >= 0; y--) {
                len[x][y] = a.get(x).equals(b.get(y)) ? len[x + 1][y + 1] + 1 : Math.max(len[x + 1][y], len[x][y + 1]);
            }
        }
        List<String[]> ops = new ArrayList<>();
        int x = 0;
        int y = 0;
        while (x < n && y < m) {
            if (a.get(x).equals(b.get(y))) {
                ops.add(new String[]{" ", a.get(x)});
                x++;
                y++;
            } else if (len[x + 1][y] >= len[x][y + 1]) {
                ops.add(new String[]{"-", a.get(x++)});
            } else {
                ops.add(new String[]{"+", b.get(y++)});
            }
        }
        while (x < n) {
            ops.add(new String[]{"-", a.get(x++)});
        }
        while (y < m) {
            ops.add(new String[]{"+", b.get(y++)});
        }
        return ops;
    }

    private static List<String[]> replaceAll(List<String> a, List<String> b) {
        List<String[]> ops = new ArrayList<>();
        a.forEach(l -> ops.add(new String[]{"-", l}));
        b.forEach(l -> ops.add(new String[]{"+", l}));
        return ops;
    }

    private static List<String> lines(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        String t = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return List.of(t.split("\n", -1));
    }
}
