package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.Finding;
import dev.policyset.aps.core.validate.cel.CelChecker;

import java.util.List;

/** The API server's create-time rules for the six admission kinds (reference document). */
public final class ApiServerRules {
    private ApiServerRules() {}

    /** Every {@code api/*} finding the API server would return for creating this object. */
    public static List<Finding> check(RenderedObject object, KubeVersion version, CelChecker cel) {
        return List.of(); // filled by the validator issue (#3)
    }
}
