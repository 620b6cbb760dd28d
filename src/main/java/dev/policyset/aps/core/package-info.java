/**
 * The pure core: model, render, validate, evaluate, status. No Kubernetes client, JOSDK, Quarkus, clock or
 * environment reads; everything it needs is passed in, so the operator and the CLI share one judge.
 */
package dev.policyset.aps.core;
