package dev.policyset.aps.testing.kube;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class judged by a real kube-apiserver ({@link KubeControlPlane#shared()}): skipped with the reason when
 * the binaries are not built (a user's clone without Go), failed when {@code -Daps.kube.required=true} (.ci/run).
 * Test methods may take a {@link KubeControlPlane} parameter.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("kube")
@ExtendWith(RealApiServerExtension.class)
public @interface RealApiServer {}
