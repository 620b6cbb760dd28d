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
 * Test methods may take a {@link KubeControlPlane} parameter (the shared one).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("kube")
@ExtendWith(RealApiServerExtension.class)
public @interface RealApiServer {
    /**
     * A test that needs the binaries of one older minor (e.g. "1.34"): skipped with the reason when they are not
     * built, even under {@code aps.kube.required} (.ci/run builds only the newest; {@code make test-kube-matrix}
     * builds them all).
     */
    String minor() default "";
}
