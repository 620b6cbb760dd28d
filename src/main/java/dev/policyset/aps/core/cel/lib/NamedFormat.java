package dev.policyset.aps.core.cel.lib;

import dev.policyset.aps.core.util.NameFormats;

import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.OpaqueValue;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code kubernetes.NamedFormat} value of the format library: a named validation whose {@code validate}
 * returns the error messages (empty when valid). The constants are those of {@code format.go}
 * ({@code ConstantFormats}); equality is by name.
 */
public final class NamedFormat extends OpaqueValue {
    private static final Pattern UUID = Pattern.compile(
            "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}");
    private static final Pattern TIME_PART = Pattern.compile(
            "([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))");
    private static final DateTimeFormatter FULL_DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd")
            .withResolverStyle(ResolverStyle.STRICT);

    /** By the name {@code format.named()} takes, in upstream's order. */
    static final Map<String, NamedFormat> CONSTANTS = new LinkedHashMap<>();

    static {
        add("dns1123Label", "DNS1123Label", s -> NameFormats.nameIsDnsLabel(s, false));
        add("dns1123Subdomain", "DNS1123Subdomain", s -> NameFormats.nameIsDnsSubdomain(s, false));
        add("dns1035Label", "DNS1035Label", s -> NameFormats.nameIsDns1035Label(s, false));
        add("qualifiedName", "QualifiedName", NameFormats::qualifiedNameProblems);
        add("dns1123LabelPrefix", "DNS1123LabelPrefix", s -> NameFormats.nameIsDnsLabel(s, true));
        add("dns1123SubdomainPrefix", "DNS1123SubdomainPrefix", s -> NameFormats.nameIsDnsSubdomain(s, true));
        add("dns1035LabelPrefix", "DNS1035LabelPrefix", s -> NameFormats.nameIsDns1035Label(s, true));
        add("labelValue", "LabelValue", NameFormats::labelValueProblems);
        add("uri", "URI", s -> {
            try {
                GoUrl.parseRequestUri(s);
                return List.of();
            } catch (GoUrl.UrlException e) {
                return List.of(e.getMessage());
            }
        });
        add("uuid", "uuid", s -> UUID.matcher(s).matches() ? List.of() : List.of("does not match the UUID format"));
        add("byte", "byte", s -> isStdBase64(s) ? List.of() : List.of("invalid base64"));
        add("date", "date", s -> isDate(s) ? List.of() : List.of("invalid date"));
        add("datetime", "datetime", s -> isDateTime(s) ? List.of() : List.of("invalid datetime"));
    }

    private static void add(String key, String name, Function<String, List<String>> validate) {
        CONSTANTS.put(key, new NamedFormat(name, validate));
    }

    private final String name;
    private final Function<String, List<String>> validate;

    private NamedFormat(String name, Function<String, List<String>> validate) {
        this.name = name;
        this.validate = validate;
    }

    List<String> validate(String s) {
        return validate.apply(s);
    }

    /** Go {@code base64.StdEncoding.DecodeString}: padded, CR/LF ignored, nothing after the padding. */
    static boolean isStdBase64(String s) {
        String t = s.replace("\r", "").replace("\n", "");
        if (t.length() % 4 != 0) {
            return false;
        }
        int pad = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '=') {
                pad++;
                continue;
            }
            boolean alphabet = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
            if (!alphabet || pad > 0) {
                return false;
            }
        }
        return pad <= 2;
    }

    /** strfmt {@code IsDate}: Go {@code time.Parse("2006-01-02", s)}. */
    static boolean isDate(String s) {
        if (!s.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
            return false;
        }
        try {
            LocalDate.parse(s, FULL_DATE);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** kube-openapi strfmt {@code IsDateTime}: a date, 't', then hh:mm:ss[.frac](z|±hh:mm), case-insensitive. */
    static boolean isDateTime(String str) {
        if (str.length() < 4) {
            return false;
        }
        String[] s = str.toLowerCase(java.util.Locale.ROOT).split("t", -1);
        if (s.length < 2 || !isDate(s[0])) {
            return false;
        }
        Matcher m = TIME_PART.matcher(s[1]);
        if (!m.matches()) {
            return false;
        }
        return m.group(1).compareTo("23") <= 0 && m.group(2).compareTo("59") <= 0 && m.group(3).compareTo("59") <= 0;
    }

    /** A CelValue so that cel-java's {@code type()} reports the library type. */
    @Override
    public Object value() {
        return this;
    }

    @Override
    public OpaqueType celType() {
        return FormatLibrary.FORMAT_TYPE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamedFormat f && name.equals(f.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
