package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.util.NameFormats;

import java.util.List;
import java.util.Locale;

/**
 * A policy's {@code spec.paramKind} ({@code validateParamKind, parseGroupVersion}) and a binding's
 * {@code spec.paramRef} ({@code validateParamRef}).
 */
final class ParamValidation {
    static final List<String> PARAMETER_NOT_FOUND_ACTIONS = List.of("Deny", "Allow");

    private ParamValidation() {}

    static void validateParamKind(ObjectNode paramKind, FieldPath path, Errors errors) {
        String apiVersion = Json.text(paramKind, "apiVersion");
        FieldPath apiVersionPath = path.child("apiVersion");
        if (apiVersion.isEmpty()) {
            errors.required(apiVersionPath, "set the parameter resource's apiVersion, e.g. v1 or example.com/v1");
        } else if (apiVersion.chars().filter(c -> c == '/').count() > 1) {
            errors.invalid(apiVersionPath, apiVersion, "unexpected GroupVersion string: " + apiVersion
                    + "; use group/version");
        } else if (!apiVersion.equals("/")) {
            int slash = apiVersion.indexOf('/');
            String group = slash < 0 ? "" : apiVersion.substring(0, slash);
            String groupVersion = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
            if (!group.isEmpty()) {
                List<String> problems = NameFormats.subdomainProblems(group);
                if (!problems.isEmpty()) {
                    errors.invalid(apiVersionPath, group, String.join(",", problems));
                }
            }
            if (groupVersion.isEmpty()) {
                errors.invalid(apiVersionPath, apiVersion, "version must be specified");
            } else {
                List<String> problems = NameFormats.dns1035LabelProblems(groupVersion);
                if (!problems.isEmpty()) {
                    errors.invalid(apiVersionPath, groupVersion, String.join(",", problems)
                            + (slash < 0 ? " (without a '/', the whole apiVersion is read as the version)" : ""));
                }
            }
        } else {
            // "/" parses as an empty group and version: upstream reports the missing version.
            errors.invalid(apiVersionPath, apiVersion, "version must be specified");
        }
        String kind = Json.text(paramKind, "kind");
        if (kind.isEmpty()) {
            errors.required(path.child("kind"), "set the parameter resource's kind, e.g. ConfigMap");
        } else {
            List<String> problems = NameFormats.dns1035LabelProblems(kind.toLowerCase(Locale.ROOT));
            if (!problems.isEmpty()) {
                errors.invalid(path.child("kind"), kind, "may have mixed case, but should otherwise match: "
                        + String.join(",", problems));
            }
        }
    }

    static void validateParamRef(ObjectNode paramRef, FieldPath path, Errors errors) {
        if (paramRef == null) {
            return;
        }
        String name = Json.text(paramRef, "name");
        ObjectNode selector = Json.object(paramRef, "selector");
        if (!name.isEmpty()) {
            for (String problem : NameFormats.pathSegmentNameProblems(name)) {
                errors.invalid(path.child("name"), name, problem);
            }
            if (selector != null) {
                errors.forbidden(path.child("name"), "name and selector are mutually exclusive; keep one of them");
            }
        }
        if (selector != null) {
            LabelSelectorValidation.validate(selector, path.child("selector"), errors);
            if (!name.isEmpty()) {
                errors.forbidden(path.child("selector"), "name and selector are mutually exclusive; keep one of them");
            }
        }
        if (name.isEmpty() && selector == null) {
            errors.required(path, "one of name or selector must be specified");
        }
        String action = Json.text(paramRef, "parameterNotFoundAction");
        if (action.isEmpty()) {
            errors.required(path.child("parameterNotFoundAction"),
                    "set Deny (reject when the parameter is missing) or Allow; there is no default");
        } else if (!PARAMETER_NOT_FOUND_ACTIONS.contains(action)) {
            errors.notSupported(path.child("parameterNotFoundAction"), action, PARAMETER_NOT_FOUND_ACTIONS);
        }
    }
}
