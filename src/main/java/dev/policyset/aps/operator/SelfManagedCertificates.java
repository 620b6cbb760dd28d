package dev.policyset.aps.operator;

import dev.policyset.aps.operator.webhook.CertificateIssuer;
import dev.policyset.aps.operator.webhook.CertificateRotation;
import dev.policyset.aps.operator.webhook.SecretCertificateSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Vertx;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The webhook's self-managed certificates (docs/install.md, "The validating webhook"), as Gatekeeper's cert-controller
 * and Kyverno's certmanager do it: a CA and a serving certificate in a Secret of the operator's namespace, the CA
 * injected into the operator's own ValidatingWebhookConfiguration, rotated before expiry without a restart.
 *
 * <p>Every {@code aps.webhook.reload-period} each replica reads the Secret and serves what it holds (a
 * {@link SecretCertificateSource}: no volume, so no kubelet sync delay). The leader (or the only replica, when leader
 * election is off) also decides, every {@code aps.webhook.self-managed.check-period} and whenever the Secret has no
 * serving certificate, what the Secret must hold ({@link CertificateRotation}, pure), writes it with optimistic
 * concurrency (a replica that lost the lease between its read and its write gets a conflict, not a lost write), and
 * patches the CA bundle into every webhook of the configuration.
 *
 * <p>RBAC, by name only (config/rbac/webhook_certificates_role.yaml): {@code get} and {@code update} on the Secret,
 * {@code get} and {@code patch} on the configuration. The API server cannot limit {@code create} by name, so
 * config/default ships the Secret empty and the operator never creates one.
 */
@Singleton
public class SelfManagedCertificates {
    private static final Logger LOG = Logger.getLogger(SelfManagedCertificates.class);

    private final KubernetesClient client;
    private final Optional<String> namespaceSetting;
    private final String secretName;
    private final String configurationName;
    private final String serviceName;
    private final List<String> extraDnsNames;
    private final CertificateRotation.Settings settings;
    private final Duration checkPeriod;
    private final Duration reloadPeriod;
    private final AtomicBoolean working = new AtomicBoolean();
    private final Clock clock = Clock.systemUTC();
    private volatile Instant nextCheck = Instant.MIN;
    private volatile String lastProblem = "";
    private volatile Vertx vertx;
    private volatile long timer = -1;

    public SelfManagedCertificates(KubernetesClient client,
            @ConfigProperty(name = "aps.webhook.self-managed.namespace") Optional<String> namespace,
            @ConfigProperty(name = "aps.webhook.self-managed.secret", defaultValue = "admission-policy-operator-webhook-tls") String secretName,
            @ConfigProperty(name = "aps.webhook.self-managed.configuration", defaultValue = "admission-policy-operator") String configurationName,
            @ConfigProperty(name = "aps.webhook.self-managed.service", defaultValue = "admission-policy-operator-webhook") String serviceName,
            @ConfigProperty(name = "aps.webhook.self-managed.extra-dns-names") Optional<List<String>> extraDnsNames,
            @ConfigProperty(name = "aps.webhook.self-managed.ca-validity", defaultValue = "P3650D") Duration caValidity,
            @ConfigProperty(name = "aps.webhook.self-managed.ca-renew-before", defaultValue = "P90D") Duration caRenewBefore,
            @ConfigProperty(name = "aps.webhook.self-managed.cert-validity", defaultValue = "P90D") Duration certValidity,
            @ConfigProperty(name = "aps.webhook.self-managed.cert-renew-before", defaultValue = "P30D") Duration certRenewBefore,
            @ConfigProperty(name = "aps.webhook.self-managed.ca-propagation", defaultValue = "PT2M") Duration caPropagation,
            @ConfigProperty(name = "aps.webhook.self-managed.check-period", defaultValue = "PT1M") Duration checkPeriod,
            @ConfigProperty(name = "aps.webhook.reload-period", defaultValue = "PT10S") Duration reloadPeriod) {
        this.client = client;
        this.namespaceSetting = namespace.filter(n -> !n.isBlank());
        this.secretName = secretName;
        this.configurationName = configurationName;
        this.serviceName = serviceName;
        this.extraDnsNames = extraDnsNames.orElse(List.of());
        this.settings = new CertificateRotation.Settings(caValidity, caRenewBefore, certValidity, certRenewBefore, caPropagation);
        this.checkPeriod = checkPeriod;
        this.reloadPeriod = reloadPeriod;
    }

    /** The namespace of the Secret and the Service: the setting, or the operator's own (the pod's) namespace. */
    public String namespace() {
        return namespaceSetting.orElseGet(() -> Objects.requireNonNullElse(client.getConfiguration().getNamespace(), "default"));
    }

    /** The names the serving certificate is for: the ones the API server checks when it calls the Service. */
    public List<String> dnsNames() {
        // The API server calls <service>.<namespace>.svc (k8s.io/apiserver pkg/util/webhook/authentication.go and
        // serviceresolver.go); the shorter forms are for a client inside the namespace or a port-forward.
        List<String> names = new ArrayList<>(List.of(serviceName + "." + namespace() + ".svc", serviceName + "." + namespace(), serviceName));
        extraDnsNames.stream().filter(n -> !n.isBlank() && !names.contains(n)).forEach(names::add);
        return names;
    }

    public String secret() {
        return namespace() + "/" + secretName;
    }

    /**
     * Starts reading (and, on the leader, maintaining) the Secret every reload period; {@code ready} is called once,
     * with the source, when the Secret first holds a serving certificate.
     */
    public void start(Vertx vertx, BooleanSupplier leader, Consumer<SecretCertificateSource> ready) {
        this.vertx = vertx;
        SecretCertificateSource source = new SecretCertificateSource(secret());
        AtomicBoolean announced = new AtomicBoolean();
        Runnable tick = () -> {
            if (!working.compareAndSet(false, true)) {
                return; // the previous look is still talking to the API server
            }
            vertx.executeBlocking(() -> {
                lookOnce(leader.getAsBoolean(), source);
                // On this worker thread, not in onComplete: starting the server waits for the event loop.
                if (source.present() && announced.compareAndSet(false, true)) {
                    ready.accept(source);
                }
                return null;
            }, false).onComplete(done -> {
                working.set(false);
                if (done.failed()) {
                    problem("could not maintain the webhook certificate in Secret " + secret() + ": " + done.cause());
                }
            });
        };
        timer = vertx.setPeriodic(0, Math.max(1, reloadPeriod.toMillis()), id -> tick.run());
    }

    public void stop() {
        Vertx v = vertx;
        if (v != null && timer >= 0) {
            v.cancelTimer(timer);
        }
    }

    /** One look: read the Secret; on the leader, rotate and inject when due; hand the serving pair to {@code source}. */
    void lookOnce(boolean leader, SecretCertificateSource source) {
        Secret secret;
        try {
            secret = client.secrets().inNamespace(namespace()).withName(secretName).get();
        } catch (KubernetesClientException e) {
            problem("cannot read Secret " + secret() + " (" + e.getCode() + " " + e.getMessage() + "); "
                    + (e.getCode() == 403 ? "the operator needs get and update on it (config/rbac/webhook_certificates_role.yaml)"
                    : "the webhook keeps its current certificate"));
            return;
        }
        Map<String, String> data = text(secret);
        Instant now = clock.instant();
        if (leader && (now.isAfter(nextCheck) || !data.containsKey(CertificateRotation.TLS_CRT))) {
            if (secret == null) {
                problem("Secret " + secret() + " does not exist: apply config/default again (it installs the Secret empty; the "
                        + "operator fills it, but may not create Secrets), or set aps.webhook.certificates=mounted to use "
                        + "cert-manager or OLM instead");
                return;
            }
            CertificateRotation.Plan plan = new CertificateRotation(settings, new CertificateIssuer(new SecureRandom()))
                    .plan(data, dnsNames(), now);
            if (plan.changed()) {
                secret = write(secret, plan.contents());
                if (secret == null) {
                    return;
                }
                data = plan.contents();
                LOG.infof("Webhook certificates in Secret %s: %s", secret(), String.join("; ", plan.changes()));
            }
            if (inject(plan.caBundle())) {
                nextCheck = now.plus(checkPeriod);
                lastProblem = "";
            }
        }
        String cert = data.get(CertificateRotation.TLS_CRT);
        String key = data.get(CertificateRotation.TLS_KEY);
        if (cert != null && key != null && !cert.isBlank()) {
            source.update(cert, key);
        }
    }

    private Secret write(Secret current, Map<String, String> contents) {
        Map<String, String> encoded = new LinkedHashMap<>();
        contents.forEach((k, v) -> encoded.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.US_ASCII))));
        Secret next = new SecretBuilder(current).withData(encoded).build();
        try {
            // The read's resourceVersion makes this a compare-and-swap: a conflict means someone else wrote first.
            return client.secrets().inNamespace(namespace()).resource(next).update();
        } catch (KubernetesClientException e) {
            problem("cannot write Secret " + secret() + " (" + e.getCode() + " " + e.getMessage() + ")"
                    + (e.getCode() == 409 ? "; it changed since it was read, trying again at the next look" : "")
                    + (e.getCode() == 403 ? "; the operator needs update on it (config/rbac/webhook_certificates_role.yaml)" : ""));
            return null;
        }
    }

    /** Puts {@code caBundle} into every webhook of the configuration that lacks it; true when all carry it. */
    private boolean inject(String caBundle) {
        String encoded = Base64.getEncoder().encodeToString(caBundle.getBytes(StandardCharsets.US_ASCII));
        var resource = client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configurationName);
        try {
            ValidatingWebhookConfiguration vwc = resource.get();
            if (vwc == null) {
                problem("ValidatingWebhookConfiguration " + configurationName + " does not exist, so no CA was injected: "
                        + "apply config/default again, or set aps.webhook.self-managed.configuration to its name");
                return false;
            }
            if (vwc.getWebhooks().stream().allMatch(w -> encoded.equals(w.getClientConfig().getCaBundle()))) {
                return true;
            }
            // A JSON patch of just the caBundles, each guarded by a test of its webhook's name: if the list changed
            // since the read, the patch fails (422) and the next look reads again, instead of writing a wrong entry.
            List<Map<String, String>> ops = new ArrayList<>();
            List<ValidatingWebhook> hooks = vwc.getWebhooks();
            for (int i = 0; i < hooks.size(); i++) {
                ops.add(Map.of("op", "test", "path", "/webhooks/" + i + "/name", "value", hooks.get(i).getName()));
                ops.add(Map.of("op", "add", "path", "/webhooks/" + i + "/clientConfig/caBundle", "value", encoded));
            }
            resource.patch(PatchContext.of(PatchType.JSON), Serialization.asJson(ops));
            LOG.infof("Injected the CA bundle of Secret %s into ValidatingWebhookConfiguration %s", secret(), configurationName);
            return true;
        } catch (KubernetesClientException e) {
            problem("cannot inject the CA into ValidatingWebhookConfiguration " + configurationName + " (" + e.getCode() + " "
                    + e.getMessage() + ")" + (e.getCode() == 403
                    ? "; the operator needs get and patch on it (config/rbac/webhook_certificates_role.yaml)" : ""));
            return false;
        }
    }

    private static Map<String, String> text(Secret secret) {
        Map<String, String> out = new LinkedHashMap<>();
        if (secret != null && secret.getData() != null) {
            secret.getData().forEach((k, v) -> {
                if (v != null) {
                    out.put(k, new String(Base64.getMimeDecoder().decode(v), StandardCharsets.US_ASCII));
                }
            });
        }
        return out;
    }

    /** A problem is logged once until it changes or goes away, not every reload period. */
    private void problem(String message) {
        if (!message.equals(lastProblem)) {
            LOG.warn("Validating webhook: " + message);
            lastProblem = message;
        }
    }
}
