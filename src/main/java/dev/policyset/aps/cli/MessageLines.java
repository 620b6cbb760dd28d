package dev.policyset.aps.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A finding's message laid out for a terminal: its first sentence (what is wrong) from the finding's own line on,
 * the rest (why, and what to do) from a line of its own below it, indented and wrapped. Messages say both in one string (the JSON contract
 * keeps it whole), and on one line they reached 1,400 characters. A break falls only between words outside
 * backticks: an expression or command in backticks stays on one line however long, so it can be pasted.
 */
final class MessageLines {
    private MessageLines() {}

    /**
     * The message's lines: the first sentence from the finding's own line on (its first line holds
     * {@code firstWidth} characters), then the rest from a line of its own; all wrapped to {@code width}.
     */
    static List<String> of(String message, int firstWidth, int width) {
        int end = firstSentenceEnd(message);
        List<String> lines = new ArrayList<>(wrap(message.substring(0, end).strip(), firstWidth, width));
        String rest = message.substring(end).strip();
        if (!rest.isEmpty()) {
            lines.addAll(wrap(rest, width, width));
        }
        return lines;
    }

    /**
     * Where the first sentence ends: after the first ". " outside backticks (past the first 20 characters, so an
     * abbreviation such as "e.g. " at the start does not count), or the whole message when it has none.
     */
    static int firstSentenceEnd(String message) {
        boolean code = false;
        for (int i = 0; i + 1 < message.length(); i++) {
            char c = message.charAt(i);
            if (c == '`') {
                code = !code;
            } else if (!code && c == '.' && message.charAt(i + 1) == ' ' && i >= 20) {
                return i + 1;
            }
        }
        return message.length();
    }

    static List<String> wrap(String text, int firstWidth, int width) {
        List<String> words = words(text);
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : words) {
            int room = lines.isEmpty() ? firstWidth : width;
            if (line.length() > 0 && line.length() + 1 + word.length() > room) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** Words split at spaces outside backticks: a code span is one word. */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean code = false;
        for (char c : text.toCharArray()) {
            if (c == '`') {
                code = !code;
            }
            if (c == ' ' && !code) {
                if (word.length() > 0) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }
}
