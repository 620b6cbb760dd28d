package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.lib.GoUrl;
import dev.policyset.aps.core.util.NameFormats;

/**
 * A webhook's {@code clientConfig}: exactly one of {@code url} / {@code service}
 * ({@code validation.go: validate*Webhook}), then {@code apiserver/pkg/util/webhook/validation.go:
 * ValidateWebhookURL, ValidateWebhookService}. {@code caBundle} is not validated by the API server.
 */
final class ClientConfigValidation {
    private static final String URL_FORM = "; desired format: https://host[/path]";

    private ClientConfigValidation() {}

    static void validate(ObjectNode clientConfig, FieldPath path, Errors errors) {
        String url = Json.string(clientConfig, "url");
        ObjectNode service = Json.object(clientConfig, "service");
        if ((url == null) == (service == null)) {
            errors.required(path, "exactly one of url or service is required; use service for an in-cluster webhook");
        } else if (url != null) {
            validateUrl(url, path.child("url"), errors);
        } else {
            validateService(service, path.child("service"), errors);
        }
    }

    static void validateUrl(String url, FieldPath path, Errors errors) {
        GoUrl parsed;
        try {
            parsed = GoUrl.parse(url);
        } catch (GoUrl.UrlException e) {
            errors.required(path, "url must be a valid URL: " + e.getMessage() + URL_FORM);
            return;
        }
        if (!parsed.scheme().equals("https")) {
            errors.invalid(path, parsed.scheme(), "'https' is the only allowed URL scheme" + URL_FORM);
        }
        if (parsed.host().isEmpty()) {
            errors.invalid(path, parsed.host(), "host must be specified" + URL_FORM);
        }
        if (parsed.user() != null) {
            errors.invalid(path, parsed.user(), "user information is not permitted in the URL; pass credentials "
                    + "through a kubeconfig for the API server instead");
        }
        if (!parsed.fragment().isEmpty()) {
            errors.invalid(path, parsed.fragment(), "fragments are not permitted in the URL; remove the #part");
        }
        if (!parsed.rawQuery().isEmpty()) {
            errors.invalid(path, parsed.rawQuery(), "query parameters are not permitted in the URL; remove the ?part");
        }
    }

    static void validateService(ObjectNode service, FieldPath path, Errors errors) {
        // Reported on the field that is missing, with the server's path in the message: kube-apiserver passes
        // name and namespace to webhook.ValidateWebhookService(fldPath, namespace, name, ...) the other way round
        // (pkg/apis/admissionregistration/validation/validation.go), so it names the other field (1.34-1.37,
        // StructureDifferentialRealServerTest; known-divergences.yaml).
        if (Json.text(service, "name").isEmpty()) {
            errors.required(path.child("name"), "service name is required; set it (the API server reports this as "
                    + path.child("namespace") + ": Required value)");
        }
        if (Json.text(service, "namespace").isEmpty()) {
            errors.required(path.child("namespace"), "service namespace is required; set it (the API server reports "
                    + "this as " + path.child("name") + ": Required value)");
        }
        Long port = Json.integer(service, "port");
        long effectivePort = port == null ? 0 : port; // defaulted to 443 when omitted
        if (effectivePort < 1 || effectivePort > 65535) {
            errors.invalid(path.child("port"), effectivePort, "port is not valid: must be between 1 and 65535, inclusive");
        }
        String urlPath = Json.string(service, "path");
        if (urlPath == null || urlPath.isEmpty() || urlPath.equals("/")) {
            return;
        }
        FieldPath at = path.child("path");
        if (urlPath.equals("//")) {
            errors.invalid(at, urlPath, "segment[0] may not be empty");
            return;
        }
        if (!urlPath.startsWith("/")) {
            errors.invalid(at, urlPath, "must start with a '/'");
        }
        String toCheck = urlPath.substring(1);
        if (toCheck.endsWith("/")) {
            toCheck = toCheck.substring(0, toCheck.length() - 1);
        }
        String[] steps = toCheck.split("/", -1);
        for (int i = 0; i < steps.length; i++) {
            if (steps[i].isEmpty()) {
                errors.invalid(at, urlPath, "segment[" + i + "] may not be empty");
                continue;
            }
            for (String problem : NameFormats.subdomainProblems(steps[i])) {
                errors.invalid(at, urlPath, "segment[" + i + "]: " + problem);
            }
        }
    }
}
