/**
 * Policy test files ({@code kind: PolicyTest}, and kaptest manifests read as they are) and running their
 * cases through {@link dev.policyset.aps.core.evaluate.AdmissionSimulator}. Pure: files named by a test
 * are read through a {@link dev.policyset.aps.core.evaluate.suite.Loader} the caller supplies; every
 * problem in a test file is reported with its file and line.
 */
package dev.policyset.aps.core.evaluate.suite;
