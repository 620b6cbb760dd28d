package dev.policyset.aps.core.importer;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CEL libraries only Kyverno's engine has ({@code kyverno/kyverno: pkg/cel/libs/}: http, resource, globalcontext,
 * imagedata, image, generator, json, yaml, x509, hash, math, time, transform, user, with parseServiceAccount), and
 * cel-go's {@code regex} extension ({@code regex.replace}, {@code regex.extract}), which Kyverno's environment adds
 * ({@code pkg/cel/compiler/env.go: ext.Regex}) and the API server's does not: an expression that calls one cannot run
 * in the API server.
 */
final class KyvernoLibraries {
    private static final Pattern CALL = Pattern.compile(
            "(?<![\\w.])(http|resource|globalContext|imagedata|image|generator|json|yaml|x509|hash|random|gzip|regex)\\s*\\.\\s*\\w+\\s*\\(");
    private static final Pattern FUNCTION = Pattern.compile("(?<![\\w.])(parseImageReference|image|parseJson|parseYaml|parseServiceAccount)\\s*\\(");

    private KyvernoLibraries() {}

    /** The Kyverno library an expression calls, if any. */
    static Optional<String> calledBy(String expression) {
        Matcher m = CALL.matcher(expression);
        if (m.find()) {
            return Optional.of(m.group(1));
        }
        m = FUNCTION.matcher(expression);
        return m.find() ? Optional.of(m.group(1) + "()") : Optional.empty();
    }
}
