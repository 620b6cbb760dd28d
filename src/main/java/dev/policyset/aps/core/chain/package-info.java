/**
 * The admission chain of one request ({@code aps chain}) and the worst-case latency arithmetic it shares with APS302.
 * Pure: built on the interception model ({@code core.intercept}).
 */
package dev.policyset.aps.core.chain;
