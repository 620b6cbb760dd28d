package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.List;

/**
 * Pod-controller autogen of a validating policy written for Pods, as Kyverno's
 * {@code spec.autogen.podControllers} ({@code kyverno/kyverno: pkg/cel/autogen/data.go}): the renderer adds one
 * policy for the controllers whose pod template is {@code spec.template} and one for CronJobs.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Autogen {
    @JsonPropertyDescription("Controllers whose pod templates the policy also guards: deployments, statefulsets, "
            + "daemonsets, replicasets, jobs, cronjobs. Empty or absent: none (autogen off).")
    @Size(max = 6)
    @ValidationRule(value = "self.all(x, self.exists_one(y, y == x))", message = "podControllers must be unique")
    private List<PodController> podControllers;

    public List<PodController> getPodControllers() { return podControllers; }
    public void setPodControllers(List<PodController> podControllers) { this.podControllers = podControllers; }
}
