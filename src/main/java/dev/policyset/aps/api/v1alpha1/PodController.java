package dev.policyset.aps.api.v1alpha1;

/** A controller that creates Pods from a template, named by its resource as Kyverno names it. */
public enum PodController {
    deployments, statefulsets, daemonsets, replicasets, jobs, cronjobs
}
