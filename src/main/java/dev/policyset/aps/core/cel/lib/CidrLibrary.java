package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes CIDR library ({@code cidr.go}, compatibility 1.30): {@code cidr(s)}, {@code isCIDR(s)},
 * {@code string(cidr)}, {@code containsIP(ip|string)}, {@code containsCIDR(cidr|string)}, {@code ip()},
 * {@code masked()}, {@code prefixLength()}.
 */
public final class CidrLibrary extends AbstractKubeLibrary {
    public static final OpaqueType CIDR_TYPE = OpaqueType.create("net.CIDR");

    public CidrLibrary() {
        super("cidr");
        OpaqueType ipType = IpLibrary.IP_TYPE;
        add("cidr", newGlobalOverload("string_to_cidr", CIDR_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("string_to_cidr", String.class, CidrLibrary::toCidr));
        add("string", newGlobalOverload("cidr_to_string", SimpleType.STRING, CIDR_TYPE),
                CelFunctionBinding.from("cidr_to_string", Cidr.class, Cidr::toString));
        add("isCIDR", newGlobalOverload("is_cidr", SimpleType.BOOL, SimpleType.STRING),
                CelFunctionBinding.from("is_cidr", String.class, CidrLibrary::isCidr));
        add("containsIP", newMemberOverload("cidr_contains_ip_ip", SimpleType.BOOL, CIDR_TYPE, ipType),
                CelFunctionBinding.from("cidr_contains_ip_ip", Cidr.class, IpAddress.class, Cidr::containsIp));
        add("containsIP", newMemberOverload("cidr_contains_ip_string", SimpleType.BOOL, CIDR_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("cidr_contains_ip_string", Cidr.class, String.class, CidrLibrary::containsIpString));
        add("containsCIDR", newMemberOverload("cidr_contains_cidr", SimpleType.BOOL, CIDR_TYPE, CIDR_TYPE),
                CelFunctionBinding.from("cidr_contains_cidr", Cidr.class, Cidr.class, Cidr::containsCidr));
        add("containsCIDR", newMemberOverload("cidr_contains_cidr_string", SimpleType.BOOL, CIDR_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("cidr_contains_cidr_string", Cidr.class, String.class,
                        (c, s) -> c.containsCidr(toCidr(s))));
        add("ip", newMemberOverload("cidr_ip", ipType, CIDR_TYPE),
                CelFunctionBinding.from("cidr_ip", Cidr.class, Cidr::ip));
        add("masked", newMemberOverload("cidr_masked", CIDR_TYPE, CIDR_TYPE),
                CelFunctionBinding.from("cidr_masked", Cidr.class, Cidr::masked));
        add("prefixLength", newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR_TYPE),
                CelFunctionBinding.from("cidr_prefix_length", Cidr.class, Cidr::prefixLength));
    }

    @Override
    public List<CelType> types() {
        return List.of(CIDR_TYPE);
    }

    static Cidr toCidr(String s) throws CelEvaluationException {
        try {
            return Cidr.parseKubernetes(s);
        } catch (IpAddress.ParseException e) {
            throw error("network address parse error during conversion from string: %s", e.getMessage());
        }
    }

    private static Object isCidr(String s) {
        try {
            Cidr.parseKubernetes(s);
            return true;
        } catch (IpAddress.ParseException e) {
            return false;
        }
    }

    /** Upstream converts the string with ip() and reports a failed conversion as "no such overload". */
    private static Object containsIpString(Cidr c, String s) throws CelEvaluationException {
        IpAddress ip;
        try {
            ip = IpAddress.parseKubernetes(s);
        } catch (IpAddress.ParseException e) {
            throw error("no such overload");
        }
        return c.containsIp(ip);
    }
}
