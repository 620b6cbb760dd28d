package dev.policyset.aps.core.cel.cost;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.values.CelByteString;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.policyset.aps.core.cel.cost.CostConstants.LIST_CREATE_BASE_COST;
import static dev.policyset.aps.core.cel.cost.CostConstants.REGEX_STRING_LENGTH_COST_FACTOR;
import static dev.policyset.aps.core.cel.cost.CostConstants.STRING_TRAVERSAL_COST_FACTOR;
import static dev.policyset.aps.core.cel.cost.CostConstants.STRUCT_CREATE_BASE_COST;

/**
 * The costs of library functions, estimated and actual, before cel-go's defaults apply:
 * <ul>
 *   <li>the overload estimators and trackers the cel-go extensions register ({@code ext/sets.go},
 *       {@code ext/lists.go} v3: {@code slice}, {@code flatten}, {@code lists.range}, {@code reverse},
 *       {@code distinct}, {@code sort}, {@code sortBy}), which cel-go consults first;</li>
 *   <li>the Kubernetes {@code library.CostEstimator} ({@code k8s.io/apiserver/pkg/cel/library/cost.go}:
 *       {@code EstimateCallCost} and {@code CallCost}), by function name as upstream does.</li>
 * </ul>
 * Null means "no opinion": the caller falls back to cel-go's defaults.
 */
final class LibraryCosts {
    /** A call's cost and, for strings/bytes/lists/maps, its result size (cel-go {@code checker.CallEstimate}). */
    record CallEstimate(CostEstimate cost, SizeEstimate resultSize) {
    }

    /** {@code cel.MaxNameFormatRegexSize} (k8s.io/apiserver/pkg/cel/format.go). */
    static final long MAX_NAME_FORMAT_REGEX_SIZE = 128;
    /** {@code cel.MaxFormatSize}. */
    static final long MAX_FORMAT_SIZE = 64;

    // k8s: shortest repeatable selector requirement that allocates a values slice is 2 characters
    private static final double SELECTOR_LENGTH_TO_REQUIREMENT_COUNT = .5;
    private static final double COST_PER_REQUIREMENT = LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST;

    private LibraryCosts() {
    }

    // ---------------------------------------------------------------- estimates

    /** The estimate for a call, or null. {@code sizes} answers sizes the expression does not tell. */
    static CallEstimate estimate(String function, String overloadId, AstNode target, List<AstNode> args,
                                 SizeEstimator sizes) {
        CallEstimate ext = extensionEstimate(function, overloadId, target, args, sizes);
        return ext != null ? ext : kubernetesEstimate(function, overloadId, target, args, sizes);
    }

    private static CallEstimate extensionEstimate(String function, String overloadId, AstNode target,
                                                  List<AstNode> args, SizeEstimator sizes) {
        switch (function) {
            case "sets.contains", "sets.intersects", "sets.equivalent" -> {
                if (args.size() != 2) {
                    return null;
                }
                double factor = function.equals("sets.equivalent") ? 2 : 1;
                CostEstimate cost = size(args.get(0), sizes).multiply(size(args.get(1), sizes))
                        .multiplyByCostFactor(factor).add(CostEstimate.ONE);
                return new CallEstimate(cost, null);
            }
            case "slice" -> {
                if (target == null || args.size() != 2 || !isList(target)) {
                    return null;
                }
                SizeEstimate sz = size(target, sizes);
                long start = literalUint(args.get(0), 0);
                long end = literalUint(args.get(1), sz.max());
                return allocatingListCall(1, SizeEstimate.fixed(Math.max(0, end - start)));
            }
            case "lists.range" -> {
                if (target != null || args.size() != 1) {
                    return null;
                }
                return allocatingListCall(1, SizeEstimate.fixed(literalUint(args.get(0), Long.MAX_VALUE)));
            }
            case "reverse" -> {
                if (target == null || !args.isEmpty() || !isList(target)) {
                    return null;
                }
                return allocatingListCall(1, size(target, sizes));
            }
            case "flatten" -> {
                if (target == null || args.size() > 1) {
                    return null;
                }
                long depth = args.size() == 1 ? literalUint(args.get(0), Long.MAX_VALUE) : 1;
                return allocatingListCall((double) depth, size(target, sizes));
            }
            case "distinct" -> {
                if (target == null || !args.isEmpty()) {
                    return null;
                }
                SizeEstimate sz = size(target, sizes);
                return allocatingListCall(2, sz.multiply(sz));
            }
            case "sort" -> {
                if (target == null || !args.isEmpty() || !isList(target)) {
                    return null;
                }
                return sortCost(size(target, sizes), elementKind(target.type()));
            }
            case "lists.@sortByAssociatedKeys" -> {
                if (target == null || args.size() != 1) {
                    return null;
                }
                return sortCost(size(args.get(0), sizes), elementKind(args.get(0).type()));
            }
            default -> {
                return null;
            }
        }
    }

    private static CallEstimate sortCost(SizeEstimate sz, CelKind elementKind) {
        double factor = 2.0;
        if (elementKind == CelKind.STRING || elementKind == CelKind.BYTES) {
            factor += STRING_TRAVERSAL_COST_FACTOR;
        }
        return allocatingListCall(factor, sz.multiply(sz));
    }

    private static CallEstimate allocatingListCall(double factor, SizeEstimate listSize) {
        CostEstimate cost = listSize.multiplyByCostFactor(factor).add(CostEstimate.ONE)
                .add(CostEstimate.fixed(LIST_CREATE_BASE_COST));
        return new CallEstimate(cost, listSize);
    }

    /** k8s {@code CostEstimator.EstimateCallCost}. */
    private static CallEstimate kubernetesEstimate(String function, String overloadId, AstNode target,
                                                   List<AstNode> args, SizeEstimator sizes) {
        switch (function) {
            case "check" -> {
                return fixed(350_000);
            }
            case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed",
                    "reason", "error", "errored" -> {
                return fixed(1);
            }
            case "fieldSelector", "labelSelector" -> {
                if (args.size() == 1) {
                    return new CallEstimate(selectorCost(size(args.get(0), sizes)), null);
                }
            }
            case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes" -> {
                if (target != null) {
                    CostEstimate elCost = CostEstimate.ONE;
                    AstNode element = listElementNode(target);
                    if (element != null) {
                        CelKind k = element.type().kind();
                        if (k == CelKind.STRING || k == CelKind.BYTES) {
                            elCost = elCost.add(size(element, sizes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                        }
                        return new CallEstimate(size(target, sizes).multiplyByCost(elCost), null);
                    } else if (function.equals("includes")) {
                        return new CallEstimate(size(target, sizes).multiplyByCost(elCost), null);
                    } else {
                        return new CallEstimate(size(target, sizes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), null);
                    }
                }
            }
            case "url", "jsonpatch.escapeKey" -> {
                if (args.size() == 1) {
                    SizeEstimate sz = size(args.get(0), sizes);
                    return new CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), sz);
                }
            }
            case "lowerAscii", "upperAscii", "substring", "trim" -> {
                if (target != null) {
                    SizeEstimate sz = size(target, sizes);
                    return new CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), sz);
                }
            }
            case "replace" -> {
                if (target != null && args.size() >= 2) {
                    return replaceEstimate(size(target, sizes), size(args.get(0), sizes), size(args.get(1), sizes));
                }
            }
            case "split" -> {
                if (target != null) {
                    SizeEstimate sz = size(target, sizes);
                    long max = sz.max();
                    if (args.size() > 1) {
                        CelExpr limit = args.get(1).expr();
                        if (limit != null && limit.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                                && limit.constant().getKind() == CelConstant.Kind.INT64_VALUE) {
                            max = limit.constant().int64Value(); // as upstream, a negative limit wraps around in Go
                            if (max < 0) {
                                max = Long.MAX_VALUE;
                            }
                        }
                    }
                    return new CallEstimate(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL_COST_FACTOR),
                            new SizeEstimate(0, max));
                }
            }
            case "join" -> {
                if (target != null) {
                    SizeEstimate sz = SizeEstimate.fixed(0);
                    SizeEstimate listSize = size(target, sizes);
                    AstNode element = listElementNode(target);
                    if (element != null) {
                        sz = listSize.multiply(size(element, sizes));
                    }
                    if (!args.isEmpty()) {
                        SizeEstimate sep = size(args.get(0), sizes);
                        long minSeparators = listSize.min() > 0 ? listSize.min() - 1 : 0;
                        long maxSeparators = listSize.max() > 0 ? listSize.max() - 1 : 0;
                        sz = sz.add(sep.multiply(new SizeEstimate(minSeparators, maxSeparators)));
                    }
                    return new CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), sz);
                }
            }
            case "find", "findAll" -> {
                if (target != null && !args.isEmpty()) {
                    SizeEstimate sz = size(target, sizes);
                    CostEstimate strCost = sz.add(SizeEstimate.fixed(1)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate regexCost = size(args.get(0), sizes).multiplyByCostFactor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return new CallEstimate(strCost.multiply(regexCost), new SizeEstimate(0, sz.max()));
                }
            }
            case "cidr", "isIP", "isCIDR" -> {
                if (!args.isEmpty()) {
                    return new CallEstimate(size(args.get(0), sizes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), null);
                }
            }
            case "ip" -> {
                if ("cidr_ip".equals(overloadId)) {
                    return fixed(1);
                }
                if (!args.isEmpty()) {
                    return new CallEstimate(size(args.get(0), sizes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), null);
                }
            }
            case "ip.isCanonical" -> {
                if (!args.isEmpty()) {
                    return new CallEstimate(size(args.get(0), sizes).multiplyByCostFactor(2 * STRING_TRAVERSAL_COST_FACTOR), null);
                }
            }
            case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
                    "isLinkLocalUnicast", "isGlobalUnicast" -> {
                return fixed(1);
            }
            case "containsIP", "containsCIDR" -> {
                if (!args.isEmpty()) {
                    SizeEstimate sz = new SizeEstimate(4, 16);
                    CostEstimate cost = sz.add(sz).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    if (function.equals("containsCIDR")) {
                        cost = cost.add(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR)).add(CostEstimate.ONE);
                    }
                    if ("cidr_contains_ip_string".equals(overloadId) || "cidr_contains_cidr_string".equals(overloadId)) {
                        cost = cost.add(size(args.get(0), sizes).asCost().multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                    return new CallEstimate(cost, null);
                }
            }
            case "quantity", "isQuantity", "semver", "isSemver" -> {
                if (!args.isEmpty()) {
                    return new CallEstimate(size(args.get(0), sizes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), null);
                }
            }
            case "validate" -> {
                if (!args.isEmpty()) {
                    return new CallEstimate(size(args.get(0), sizes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR)
                            .multiplyByCostFactor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR), null);
                }
            }
            case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
                    "compareTo", "add", "sub", "major", "minor", "patch", "getScheme", "getHostname", "getHost",
                    "getPort", "getEscapedPath", "getQuery" -> {
                return fixed(1);
            }
            case "_==_" -> {
                if (args.size() == 2) {
                    CelType lhs = args.get(0).type();
                    CelType rhs = args.get(1).type();
                    if (lhs != null && lhs.equals(rhs)) {
                        switch (lhs.name()) {
                            case "net.IP", "net.CIDR", "kubernetes.Quantity", "kubernetes.authorization.Authorizer",
                                    "kubernetes.authorization.PathCheck", "kubernetes.authorization.GroupCheck",
                                    "kubernetes.authorization.ResourceCheck", "kubernetes.authorization.Decision",
                                    "kubernetes.Semver" -> {
                                return fixed(1);
                            }
                            case "kubernetes.NamedFormat" -> {
                                return new CallEstimate(new CostEstimate(1, MAX_FORMAT_SIZE)
                                        .multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), null);
                            }
                            case "kubernetes.URL" -> {
                                SizeEstimate size = SizeEstimate.fixed(1);
                                // upstream reads rhs twice (lhSize := rhs.ComputedSize()); kept
                                SizeEstimate rh = args.get(1).computedSize();
                                if (rh != null) {
                                    size = rh.union(rh);
                                }
                                return new CallEstimate(new CostEstimate(1, size.max())
                                        .multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), null);
                            }
                            default -> {
                                return null;
                            }
                        }
                    }
                }
            }
            default -> {
                return null;
            }
        }
        return null;
    }

    private static CallEstimate replaceEstimate(SizeEstimate sz, SizeEstimate toReplace, SizeEstimate replaceWith) {
        long countMax;
        long countMin;
        long retainedMax = 0;
        long retainedMin = 0;
        if (toReplace.min() == 0) {
            countMax = sz.max() < Long.MAX_VALUE ? sz.max() + 1 : sz.max();
            retainedMax = sz.max();
        } else if (replaceWith.max() <= toReplace.min()) {
            countMax = 0;
            retainedMax = sz.max();
        } else {
            countMax = (long) Math.ceil((double) sz.max() / (double) toReplace.min());
        }
        if (toReplace.max() == 0) {
            countMin = sz.min() < Long.MAX_VALUE ? sz.min() + 1 : sz.min();
            retainedMin = sz.min();
        } else if (toReplace.max() <= replaceWith.min()) {
            countMin = 0;
            retainedMin = sz.min();
        } else {
            countMin = (long) Math.ceil((double) sz.min() / (double) toReplace.max());
        }
        SizeEstimate size = new SizeEstimate(countMin, countMax).multiply(replaceWith)
                .add(new SizeEstimate(retainedMin, retainedMax));
        return new CallEstimate(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL_COST_FACTOR), size);
    }

    /** k8s {@code selectorCostEstimate}. */
    private static CostEstimate selectorCost(SizeEstimate selectorLength) {
        CostEstimate parse = selectorLength.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
        CostEstimate requirementCount = selectorLength.multiplyByCostFactor(SELECTOR_LENGTH_TO_REQUIREMENT_COUNT);
        CostEstimate requirementCost = requirementCount.multiplyByCostFactor(COST_PER_REQUIREMENT);
        return CostEstimate.fixed(LIST_CREATE_BASE_COST).add(parse).add(requirementCost);
    }

    private static CallEstimate fixed(long cost) {
        return new CallEstimate(CostEstimate.fixed(cost), null);
    }

    /** k8s {@code sizeEstimate}: computed, else estimated, else unknown. */
    static SizeEstimate size(AstNode node, SizeEstimator sizes) {
        if (node.computedSize() != null) {
            return node.computedSize();
        }
        SizeEstimate estimated = sizes.estimateSize(node);
        return estimated != null ? estimated : SizeEstimate.UNKNOWN;
    }

    /** k8s {@code listElementNode}: the items of a list-typed node, with their path. */
    static AstNode listElementNode(AstNode list) {
        if (list.type() == null || list.type().parameters().isEmpty()) {
            return null;
        }
        List<String> path = null;
        if (!list.path().isEmpty()) {
            path = new ArrayList<>(list.path());
            path.add("@items");
        }
        return new AstNode(path, list.type().parameters().get(0), null, null);
    }

    private static boolean isList(AstNode node) {
        return node.type() != null && node.type().kind() == CelKind.LIST;
    }

    private static CelKind elementKind(CelType listType) {
        return listType != null && !listType.parameters().isEmpty() ? listType.parameters().get(0).kind() : CelKind.DYN;
    }

    /** cel-go ext {@code nodeAsUintValue}: an int literal (negative as 0), else the default. */
    private static long literalUint(AstNode node, long defaultValue) {
        CelExpr e = node.expr();
        if (e == null || e.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || e.constant().getKind() != CelConstant.Kind.INT64_VALUE) {
            return defaultValue;
        }
        return Math.max(0, e.constant().int64Value());
    }

    // ---------------------------------------------------------------- actual costs

    /**
     * The actual cost of a call, or null. {@code args} are cel-go's: the target first for a member call.
     * The extension trackers first, then k8s {@code CostEstimator.CallCost}.
     */
    static Long actual(String function, String overloadId, List<Object> args, Object result) {
        switch (function) {
            case "sets.contains", "sets.intersects", "sets.equivalent" -> {
                if (args.size() == 2) {
                    double factor = function.equals("sets.equivalent") ? 2 : 1;
                    return 1 + (long) ((double) (actualSize(args.get(0)) * actualSize(args.get(1))) * factor);
                }
            }
            case "slice", "reverse" -> {
                if (!args.isEmpty() && args.get(0) instanceof List<?>) {
                    return allocatingListCall(1, actualSize(result));
                }
            }
            case "lists.range" -> {
                return allocatingListCall(1, actualSize(result));
            }
            case "flatten" -> {
                if (!args.isEmpty() && args.get(0) instanceof List<?>) {
                    double depth = args.size() == 2 && args.get(1) instanceof Long l ? l : 1.0;
                    return allocatingListCall(depth, actualSize(args.get(0)));
                }
            }
            case "distinct", "sort" -> {
                if (!args.isEmpty() && args.get(0) instanceof List<?> l) {
                    return selfCompare(l);
                }
            }
            case "lists.@sortByAssociatedKeys" -> {
                if (args.size() == 2 && args.get(1) instanceof List<?> l) {
                    return selfCompare(l);
                }
            }
            default -> {
                // the Kubernetes library below
            }
        }
        return kubernetesActual(function, overloadId, args, result);
    }

    private static long selfCompare(List<?> l) {
        long sz = l.size();
        double factor = 2.0;
        if (sz == 0) {
            return allocatingListCall(factor, 0);
        }
        Object first = l.get(0);
        if (first instanceof String || first instanceof CelByteString) {
            factor += STRING_TRAVERSAL_COST_FACTOR;
        }
        return allocatingListCall(factor, CostEstimate.multiplyNoOverflow(sz, sz));
    }

    private static long allocatingListCall(double factor, long size) {
        return CostEstimate.addNoOverflow((long) ((double) size * factor), 1 + LIST_CREATE_BASE_COST);
    }

    /** k8s {@code CostEstimator.CallCost}. */
    private static Long kubernetesActual(String function, String overloadId, List<Object> args, Object result) {
        switch (function) {
            case "check" -> {
                return 350_000L;
            }
            case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed",
                    "reason", "error", "errored" -> {
                return 1L;
            }
            case "fieldSelector", "labelSelector" -> {
                if (args.size() >= 2) {
                    long length = actualSize(args.get(1));
                    return selectorCost(SizeEstimate.fixed(length)).max();
                }
            }
            case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes" -> {
                return args.isEmpty() ? 0L : traversalCost(args.get(0));
            }
            case "url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey", "cidr", "isIP",
                    "isCIDR", "quantity", "isQuantity", "semver", "isSemver" -> {
                if (!args.isEmpty()) {
                    return ceil(actualSize(args.get(0)) * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "replace", "split" -> {
                if (!args.isEmpty()) {
                    return ceil(actualSize(args.get(0)) * 2 * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "join" -> {
                if (!args.isEmpty()) {
                    return ceil(actualSize(result) * 2 * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "find", "findAll" -> {
                if (args.size() >= 2) {
                    long strCost = ceil((1.0 + actualSize(args.get(0))) * STRING_TRAVERSAL_COST_FACTOR);
                    long regexCost = ceil(actualSize(args.get(1)) * REGEX_STRING_LENGTH_COST_FACTOR);
                    return CostEstimate.multiplyNoOverflow(strCost, regexCost);
                }
            }
            case "ip" -> {
                if (!args.isEmpty()) {
                    return "cidr_ip".equals(overloadId) ? 1L : ceil(actualSize(args.get(0)) * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "ip.isCanonical" -> {
                if (!args.isEmpty()) {
                    return ceil(actualSize(args.get(0)) * 2 * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
                    "isLinkLocalUnicast", "isGlobalUnicast", "format.named", "sign", "asInteger", "isInteger",
                    "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor",
                    "patch", "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery" -> {
                return 1L;
            }
            case "containsIP" -> {
                if (args.size() >= 2) {
                    long cidrSize = actualSize(args.get(0));
                    long cost = ceil((cidrSize + cidrSize) * STRING_TRAVERSAL_COST_FACTOR);
                    if ("cidr_contains_ip_string".equals(overloadId)) {
                        cost += ceil(actualSize(args.get(1)) * STRING_TRAVERSAL_COST_FACTOR);
                    }
                    return cost;
                }
            }
            case "containsCIDR" -> {
                if (args.size() >= 2) {
                    long cidrSize = actualSize(args.get(0));
                    long cost = ceil((cidrSize + cidrSize) * STRING_TRAVERSAL_COST_FACTOR);
                    cost += ceil(cidrSize * STRING_TRAVERSAL_COST_FACTOR) + 1;
                    if ("cidr_contains_cidr_string".equals(overloadId)) {
                        cost += ceil(actualSize(args.get(1)) * STRING_TRAVERSAL_COST_FACTOR);
                    }
                    return cost;
                }
            }
            case "validate" -> {
                if (args.size() >= 2) {
                    long strCost = ceil((1.0 + actualSize(args.get(1))) * STRING_TRAVERSAL_COST_FACTOR);
                    long regexCost = ceil(formatRegexSize(args.get(0)) * REGEX_STRING_LENGTH_COST_FACTOR);
                    return CostEstimate.multiplyNoOverflow(strCost, regexCost);
                }
            }
            case "_==_" -> {
                if (args.size() == 2 && isKubernetesValue(args.get(0))) {
                    return 1L;
                }
            }
            default -> {
                return null;
            }
        }
        return null;
    }

    /**
     * k8s {@code Format.MaxRegexSize} per named format ({@code library/format.go: ConstantFormats}; uuid and
     * the date formats use the length of kube-openapi's {@code strfmt.UUIDPattern}/{@code DateTimePattern}).
     */
    private static final Map<String, Long> FORMAT_REGEX_SIZES = Map.ofEntries(
            Map.entry("DNS1123Label", 30L), Map.entry("DNS1123Subdomain", 60L), Map.entry("DNS1035Label", 30L),
            Map.entry("QualifiedName", 60L), Map.entry("DNS1123LabelPrefix", 30L),
            Map.entry("DNS1123SubdomainPrefix", 60L), Map.entry("DNS1035LabelPrefix", 30L),
            Map.entry("LabelValue", 40L), Map.entry("URI", 1103L), Map.entry("uuid", 72L), Map.entry("byte", 84L),
            Map.entry("date", 71L), Map.entry("datetime", 71L));

    private static long formatRegexSize(Object format) {
        if (format instanceof dev.policyset.aps.core.cel.lib.NamedFormat f) {
            return FORMAT_REGEX_SIZES.getOrDefault(f.toString(), MAX_NAME_FORMAT_REGEX_SIZE);
        }
        return MAX_NAME_FORMAT_REGEX_SIZE;
    }

    /** The Kubernetes library value types whose equality costs 1 (k8s {@code CallCost} of {@code _==_}). */
    private static boolean isKubernetesValue(Object v) {
        return v != null && v.getClass().getPackageName().equals("dev.policyset.aps.core.cel.lib");
    }

    private static long ceil(double v) {
        return CostEstimate.multiplyByCostFactor(1, v);
    }

    /** cel-go {@code actualSize}: the size of strings (code points), bytes, lists, maps; 1 otherwise. */
    static long actualSize(Object v) {
        if (v instanceof String s) {
            return s.codePointCount(0, s.length());
        }
        if (v instanceof CelByteString b) {
            return b.size();
        }
        if (v instanceof List<?> l) {
            return l.size();
        }
        if (v instanceof Map<?, ?> m) {
            return m.size();
        }
        if (v instanceof Optional<?> o && o.isPresent()) {
            return actualSize(o.get());
        }
        return 1;
    }

    /** k8s {@code traversalCost}: a traversal of a value as a data tree (Go truncates, not rounds up). */
    static long traversalCost(Object v) {
        if (v instanceof String s) {
            return (long) (s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length * STRING_TRAVERSAL_COST_FACTOR);
        }
        if (v instanceof CelByteString b) {
            return (long) (b.size() * STRING_TRAVERSAL_COST_FACTOR);
        }
        if (v instanceof List<?> l) {
            long cost = 0;
            for (Object o : l) {
                cost = CostEstimate.addNoOverflow(cost, traversalCost(o));
            }
            return cost;
        }
        if (v instanceof Map<?, ?> m) {
            long cost = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                cost = CostEstimate.addNoOverflow(cost, traversalCost(e.getKey()) + traversalCost(e.getValue()));
            }
            return cost;
        }
        return 1;
    }
}
