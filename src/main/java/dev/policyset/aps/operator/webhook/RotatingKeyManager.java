package dev.policyset.aps.operator.webhook;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's key manager, whose certificate can change under a running server: each TLS handshake asks it for
 * an alias, then for that alias's chain and key, so a new certificate is used from the next handshake on with no new
 * SSL context. (Vert.x' {@code updateSSLOptions} rebuilds the context instead, and in 4.5 a connection accepted
 * while it does so fails to initialise: {@code TCPServerBase} reads the not yet completed context future.)
 *
 * <p>An alias names its generation ({@code <generation>/<alias>}), and the last few generations stay known, so a
 * handshake that chose its alias just before a rotation still gets a chain and a key that belong together.
 */
final class RotatingKeyManager extends X509ExtendedKeyManager {
    private static final int KEPT_GENERATIONS = 4;

    private record Generation(String id, X509KeyManager keys) {}

    private final Map<String, Generation> recent = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Generation> eldest) {
            return size() > KEPT_GENERATIONS;
        }
    };
    private volatile Generation current;

    RotatingKeyManager(String id, X509KeyManager keys) {
        use(id, keys);
    }

    /** From the next handshake on, serve {@code keys}. */
    void use(String id, X509KeyManager keys) {
        Generation next = new Generation(id, keys);
        synchronized (recent) {
            recent.put(id, next);
        }
        current = next;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        Generation g = current;
        String alias = g.keys() instanceof X509ExtendedKeyManager x
                ? x.chooseEngineServerAlias(keyType, issuers, engine) : g.keys().chooseServerAlias(keyType, issuers, null);
        return alias == null ? null : g.id() + "/" + alias;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        Generation g = current;
        String alias = g.keys().chooseServerAlias(keyType, issuers, socket);
        return alias == null ? null : g.id() + "/" + alias;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        Generation g = current;
        String[] aliases = g.keys().getServerAliases(keyType, issuers);
        return aliases == null ? null : Arrays.stream(aliases).map(a -> g.id() + "/" + a).toArray(String[]::new);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        Generation g = generationOf(alias);
        return g == null ? null : g.keys().getCertificateChain(alias.substring(g.id().length() + 1));
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        Generation g = generationOf(alias);
        return g == null ? null : g.keys().getPrivateKey(alias.substring(g.id().length() + 1));
    }

    private Generation generationOf(String alias) {
        int slash = alias == null ? -1 : alias.indexOf('/');
        if (slash < 0) {
            return null;
        }
        synchronized (recent) {
            return recent.get(alias.substring(0, slash));
        }
    }

    // A server only: never a client certificate.
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }
}
