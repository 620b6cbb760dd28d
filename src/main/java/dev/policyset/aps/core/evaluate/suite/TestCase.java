package dev.policyset.aps.core.evaluate.suite;

import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.AdmissionSimulator;
import dev.policyset.aps.core.evaluate.Fixtures;
import dev.policyset.aps.core.evaluate.PolicyConfiguration;

/**
 * One request with its expected outcome, and what it runs against.
 *
 * @param setupError why the case cannot run although its file could be read (kaptest: an object or param it
 *                   names is not among the resources); the case then fails with this message
 */
public record TestCase(String name, int line, AdmissionRequest request, Expectation expect, PolicyConfiguration config,
                       Fixtures fixtures, AdmissionSimulator.Options options, String setupError) {
    public TestCase(String name, int line, AdmissionRequest request, Expectation expect, PolicyConfiguration config,
                    Fixtures fixtures, AdmissionSimulator.Options options) {
        this(name, line, request, expect, config, fixtures, options, null);
    }
}
