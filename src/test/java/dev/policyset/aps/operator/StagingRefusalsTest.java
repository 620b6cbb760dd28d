package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.plan.DryRunRejection;
import dev.policyset.aps.core.plan.Write;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StagingRefusalsTest {
    private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");

    @Test
    void theSameWritesGetTheRefusalUntilTheRetryPeriodHasPassed() {
        MutableClock clock = new MutableClock(T0);
        StagingRefusals refusals = new StagingRefusals(clock);
        List<Write> writes = List.of(write("staged", "a"));
        List<DryRunRejection> refusal = List.of(new DryRunRejection("ValidatingAdmissionPolicyBinding/staged-binding",
                422, "Invalid", "user cannot get the param", List.of(), true));
        assertTrue(refusals.recent(writes).isEmpty(), "nothing remembered yet");
        refusals.remember(writes, refusal);

        clock.now = T0.plus(StagingRefusals.RETRY).minusSeconds(1);
        assertEquals(refusal, refusals.recent(List.of(write("staged", "a"))), "equal writes, within the period");
        assertTrue(refusals.recent(List.of(write("staged", "b"))).isEmpty(), "a changed object is asked again");

        clock.now = T0.plus(StagingRefusals.RETRY);
        assertTrue(refusals.recent(writes).isEmpty(), "after the period the server is asked again");
    }

    private static Write write(String name, String value) {
        var object = JsonNodeFactory.instance.objectNode();
        object.putObject("metadata").put("name", name);
        object.putObject("spec").put("value", value);
        return new Write(AdmissionKind.VALIDATING_ADMISSION_POLICY, "admissionregistration.k8s.io/v1", name, object,
                Write.Action.CREATE);
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
