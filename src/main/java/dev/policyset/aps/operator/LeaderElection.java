package dev.policyset.aps.operator;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Leader election through a Lease ({@code aps.leader-election.lease-name}, in {@code aps.leader-election.namespace}
 * or the operator's own namespace). QOSDK activates it for the profiles in
 * {@code quarkus.operator-sdk.activate-leader-election-for-profiles} (default {@code prod}), so two replicas
 * never reconcile at once while dev and test runs need no Lease.
 */
@Singleton
public class LeaderElection extends LeaderElectionConfiguration {
    public LeaderElection() {
        super(ConfigProvider.getConfig().getOptionalValue("aps.leader-election.lease-name", String.class)
                        .orElse("admission-policy-operator-lease"),
                ConfigProvider.getConfig().getOptionalValue("aps.leader-election.namespace", String.class).orElse(null));
    }
}
