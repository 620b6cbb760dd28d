package dev.policyset.aps.core.validate.safety;

import java.util.List;

/** The safety rules, in ID order. APS401, APS403 and APS601 look at the cluster view (nothing offline). */
public final class SafetyRules {
    private static final List<SafetyRule> ALL = List.of(
            new Aps101ImplicitReinvocation(),
            new Aps102NonIdempotentReinvocation(),
            new Aps201FailClosedSystemNamespaces(),
            new Aps202FailClosedOwnNamespace(),
            new Aps203MutableLabelExemption(),
            new Aps204MatchesEverything(),
            new Aps205ControlPlaneResources(),
            new Aps206UnmatchableCoreRule(),
            new Aps301LongFailClosedTimeout(),
            new Aps302LatencyBudget(),
            new Aps401UnknownPolicy(),
            new Aps402UnboundPolicy(),
            new Aps403ForeignObject(),
            new Aps404DuplicateObject(),
            new Aps501MissingCaBundle(),
            new Aps601ServerTypeCheck(),
            new Aps602SchemaTypeCheck(),
            new Aps603UnguardedAccess(),
            new Aps604MutationUndeclaredField(),
            new Aps605ObjectInitializerName(),
            new Aps701CelCost());

    private SafetyRules() {}

    public static List<SafetyRule> all() {
        return ALL;
    }
}
