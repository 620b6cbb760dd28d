package dev.policyset.aps.core.importer;

/**
 * The {@code import/<Reason>} rule IDs, one per reason a policy, rule or test is refused or changed. Each is a
 * section of docs/import.md (and {@code aps explain import/<Reason>} prints it).
 */
public final class ImportRules {
    public static final String PREFIX = "import/";

    /** A ConstraintTemplate with Rego code only. */
    public static final String REGO = PREFIX + "Rego";
    /** A constraint whose kind no imported template defines. */
    public static final String NO_TEMPLATE = PREFIX + "NoTemplate";
    /** Two constraints (or policies) of one kind and name among the inputs: only the first is imported. */
    public static final String DUPLICATE = PREFIX + "Duplicate";
    /** A constraint's enforcementAction that has no validation action. */
    public static final String ENFORCEMENT_ACTION = PREFIX + "EnforcementAction";
    /** A Kyverno CEL library that has no native form (http, resource, image, globalContext, ...). */
    public static final String UNSUPPORTED_LIBRARY = PREFIX + "UnsupportedLibrary";
    /** A Kyverno rule other than validate.cel: pattern, anyPattern, deny, JMESPath, foreach, ... */
    public static final String NOT_CEL = PREFIX + "NotCel";
    /** A Kyverno validate.foreach rule. */
    public static final String FOREACH = PREFIX + "Foreach";
    /** A Kyverno rule or policy feature with no native form: generate, mutate, verifyImages, context, apiCall. */
    public static final String UNSUPPORTED_RULE = PREFIX + "UnsupportedRule";
    /** A Kyverno policy whose pod-controller autogen a set cannot render (a MutatingPolicy for Pods). */
    public static final String AUTOGEN = PREFIX + "Autogen";
    /** A Kyverno rule that runs only in background scans. */
    public static final String BACKGROUND_ONLY = PREFIX + "BackgroundOnly";
    /** A Kyverno match or exclude that cannot be written as matchConstraints and matchConditions. */
    public static final String MATCH = PREFIX + "Match";
    /** A Kyverno PolicyException that negated matchConditions cannot express (conditions, podSecurity, ...). */
    public static final String EXCEPTION = PREFIX + "Exception";
    /** A Kyverno PolicyException whose policy or rule was not imported: it exempts nothing. */
    public static final String EXCEPTION_TARGET = PREFIX + "ExceptionTarget";
    /** A Kyverno PolicyException imported as negated matchConditions on the policies it names. */
    public static final String EXCEPTION_APPLIED = PREFIX + "ExceptionApplied";
    /** A test or test case that cannot be converted (its policy was refused, an object is missing, ...). */
    public static final String TEST = PREFIX + "Test";

    private ImportRules() {}
}
