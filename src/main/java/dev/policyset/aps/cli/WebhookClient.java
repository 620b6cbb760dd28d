package dev.policyset.aps.cli;

import dev.policyset.aps.core.review.TlsNames;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one HTTP call of {@code aps review}, made as the API server's webhook client makes it
 * ({@code k8s.io/apiserver/pkg/util/webhook/client.go: HookClient}): POST of the JSON AdmissionReview, HTTP/1.1,
 * {@code ?timeout=Ns} (client-go's {@code Request.Timeout} passes the deadline to the webhook), trusting only the
 * given CA bundle (or the system roots when there is none), and the certificate checked for the host the API server
 * would dial ({@link TlsNames}: Go's rules, not Java's). JDK {@link HttpClient} only.
 */
final class WebhookClient {
    record Response(int status, String contentType, byte[] body, long elapsedMillis) {}

    /** Nothing answered: no connection could be made (exit 2). */
    static final class Unreachable extends Exception {
        Unreachable(String message) {
            super(message);
        }
    }

    /** The call was made and failed: TLS refused, timed out, connection dropped (a finding, exit 1). */
    static final class CallFailed extends Exception {
        final String check;
        /** How the API server words this failure after {@code failed calling webhook "NAME": } (its log and error). */
        final String apiServerCause;

        CallFailed(String check, String message, String apiServerCause) {
            super(message);
            this.check = check;
            this.apiServerCause = apiServerCause;
        }
    }

    private WebhookClient() {}

    /**
     * @param cas        the certificates to trust; null: the JVM's default trust store (the system roots)
     * @param verifyHost the name the certificate must be valid for
     */
    static Response post(URI uri, byte[] body, int timeoutSeconds, List<X509Certificate> cas, String verifyHost)
            throws Unreachable, CallFailed {
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout);
        if ("https".equalsIgnoreCase(uri.getScheme())) {
            builder.sslContext(sslContext(cas, verifyHost));
        }
        HttpClient client = builder.build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, */*")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            return new Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body(), elapsed);
        } catch (HttpConnectTimeoutException e) {
            throw new Unreachable("no connection to " + uri.getHost() + ":" + port(uri) + " within " + timeoutSeconds + " s");
        } catch (HttpTimeoutException e) {
            throw new CallFailed("timeout", "no answer within timeoutSeconds " + timeoutSeconds + " s: the API server "
                    + "cancels the call (context deadline exceeded). Answer faster, or raise timeoutSeconds (at most 30; "
                    + "the webhooks of one request share the API server's 60 s)", "context deadline exceeded");
        } catch (SSLException e) {
            throw new CallFailed("tls", "TLS handshake with " + uri.getHost() + " failed: " + rootMessage(e)
                    + ". The API server fails the same way (x509 errors); check the certificate and the CA bundle",
                    "failed to call webhook: Post \"" + uri + "\": tls: " + rootMessage(e));
        } catch (ConnectException | UnknownHostException | UnresolvedAddressException e) {
            throw new Unreachable("cannot connect to " + uri.getHost() + ":" + port(uri) + ": " + whyUnreachable(e));
        } catch (IOException e) {
            if (rootCause(e) instanceof UnresolvedAddressException || rootCause(e) instanceof UnknownHostException
                    || rootCause(e) instanceof ConnectException) {
                throw new Unreachable("cannot connect to " + uri.getHost() + ":" + port(uri) + ": " + whyUnreachable(e));
            }
            throw new CallFailed("http", "the call failed: " + rootMessage(e) + " (the webhook closed the connection "
                    + "or sent no valid HTTP response)", "failed to call webhook: Post \"" + uri + "\": " + rootMessage(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallFailed("http", "interrupted", "interrupted");
        }
    }

    /** PEM certificates (one or more); an empty list when there are none. */
    static List<X509Certificate> readPem(byte[] pem) throws CertificateException {
        List<X509Certificate> out = new ArrayList<>();
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
            out.add((X509Certificate) c);
        }
        return out;
    }

    private static SSLContext sslContext(List<X509Certificate> cas, String verifyHost) throws CallFailed {
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (cas == null) {
                f.init((KeyStore) null);
            } else {
                KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                store.load(null, null);
                for (int i = 0; i < cas.size(); i++) {
                    store.setCertificateEntry("ca-" + i, cas.get(i));
                }
                f.init(store);
            }
            X509TrustManager pkix = null;
            for (TrustManager tm : f.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    pkix = x;
                }
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[]{new GoStyleTrust(pkix, verifyHost)}, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new CallFailed("tls", "cannot set up TLS: " + e.getMessage(), "x509: " + e.getMessage());
        }
    }

    /**
     * Chain validation by the JDK's PKIX trust manager, host name by {@link TlsNames}. Being an
     * {@link X509ExtendedTrustManager}, it replaces JSSE's own endpoint identification, which would check the URL's
     * host with Java's rules rather than the host the API server verifies (a service's {@code NAME.NAMESPACE.svc}).
     */
    private static final class GoStyleTrust extends X509ExtendedTrustManager {
        private final X509TrustManager pkix;
        private final String host;

        GoStyleTrust(X509TrustManager pkix, String host) {
            this.pkix = pkix;
            this.host = host;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            try {
                pkix.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                throw new CertificateException("x509: certificate signed by unknown authority (" + rootMessage(e)
                        + ")", e);
            }
            String problem = TlsNames.problem(chain[0], host);
            if (problem != null) {
                throw new CertificateException(problem);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("client certificates are not checked here");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return pkix.getAcceptedIssuers();
        }
    }

    /** The JDK leaves these messages empty: say what they mean. */
    private static String whyUnreachable(Throwable e) {
        Throwable root = rootCause(e);
        if (root instanceof UnresolvedAddressException || root instanceof UnknownHostException) {
            return "unknown host (the name does not resolve here)";
        }
        String message = rootMessage(e);
        return message.equals(root.getClass().getSimpleName()) || message.equals(e.getClass().getSimpleName())
                ? "connection refused (nothing listens there; is the port-forward running?)" : message;
    }

    private static int port(URI uri) {
        return uri.getPort() > 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** The innermost message that says something (our x509 reason, rather than the SSL wrapper's). */
    static String rootMessage(Throwable e) {
        String found = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                found = t.getMessage();
                if (found.startsWith("x509:")) {
                    return found;
                }
            }
        }
        return found != null ? found : e.getClass().getSimpleName();
    }
}
