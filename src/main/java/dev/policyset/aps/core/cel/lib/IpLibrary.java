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
 * Kubernetes IP library ({@code ip.go}, compatibility 1.30): {@code ip(s)}, {@code isIP(s)},
 * {@code ip.isCanonical(s)}, {@code string(ip)}, {@code family()}, {@code isUnspecified()},
 * {@code isLoopback()}, {@code isLinkLocalMulticast()}, {@code isLinkLocalUnicast()},
 * {@code isGlobalUnicast()}.
 */
public final class IpLibrary extends AbstractKubeLibrary {
    public static final OpaqueType IP_TYPE = OpaqueType.create("net.IP");

    public IpLibrary() {
        super("ip");
        add("ip", newGlobalOverload("string_to_ip", IP_TYPE, SimpleType.STRING),
                CelFunctionBinding.from("string_to_ip", String.class, IpLibrary::toIp));
        add("string", newGlobalOverload("ip_to_string", SimpleType.STRING, IP_TYPE),
                CelFunctionBinding.from("ip_to_string", IpAddress.class, IpAddress::toString));
        add("isIP", newGlobalOverload("is_ip", SimpleType.BOOL, SimpleType.STRING),
                CelFunctionBinding.from("is_ip", String.class, IpLibrary::isIp));
        add("ip.isCanonical", newGlobalOverload("ip_is_canonical", SimpleType.BOOL, SimpleType.STRING),
                CelFunctionBinding.from("ip_is_canonical", String.class, s -> toIp(s).toString().equals(s)));
        member("family", "ip_family", SimpleType.INT, IpAddress::family);
        member("isUnspecified", "ip_is_unspecified", SimpleType.BOOL, IpAddress::isUnspecified);
        member("isLoopback", "ip_is_loopback", SimpleType.BOOL, IpAddress::isLoopback);
        member("isLinkLocalMulticast", "ip_is_link_local_multicast", SimpleType.BOOL, IpAddress::isLinkLocalMulticast);
        member("isLinkLocalUnicast", "ip_is_link_local_unicast", SimpleType.BOOL, IpAddress::isLinkLocalUnicast);
        member("isGlobalUnicast", "ip_is_global_unicast", SimpleType.BOOL, IpAddress::isGlobalUnicast);
    }

    private void member(String function, String id, CelType result, java.util.function.Function<IpAddress, Object> f) {
        add(function, newMemberOverload(id, result, IP_TYPE), CelFunctionBinding.from(id, IpAddress.class, f::apply));
    }

    @Override
    public List<CelType> types() {
        return List.of(IP_TYPE);
    }

    static IpAddress toIp(String s) throws CelEvaluationException {
        try {
            return IpAddress.parseKubernetes(s);
        } catch (IpAddress.ParseException e) {
            throw error(e.getMessage());
        }
    }

    private static Object isIp(String s) {
        try {
            IpAddress.parseKubernetes(s);
            return true;
        } catch (IpAddress.ParseException e) {
            return false;
        }
    }
}
