package dev.policyset.aps.operator.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.SetAdmission;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AdmissionReviews in, answers out, one directory per case under {@code src/test/resources/golden/webhook/}:
 * <ul>
 *   <li>{@code in-review.json}: the request body exactly as sent (the AdmissionReview the API server posts, shaped by
 *       {@code k8s.io/api/admission/v1/types.go}; or a malformed body);
 *   <li>{@code in-cluster.yaml} (optional): admission objects the cluster holds (multi-document);
 *   <li>{@code out-reply.json}: the HTTP status and the JSON body the handler answers.
 * </ul>
 * Every response is also checked against the wire contract (uid echoed, apiVersion and kind, status on refusals,
 * warnings that the API server's warning recorder passes uncut). Any other file fails the case. Regenerate with
 * {@code -Daps.golden.update=true} and review the diff.
 */
class AdmissionReviewGoldenTest {
    static final Path CASES = Path.of("src/test/resources/golden/webhook");
    private static final Set<String> KNOWN = Set.of("in-review.json", "in-cluster.yaml", "out-reply.json");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final SetAdmission ADMISSION = new SetAdmission(new Planner(new KubernetesCelChecker()));

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException {
        List<Path> dirs;
        try (Stream<Path> list = Files.list(CASES)) {
            dirs = list.filter(Files::isDirectory).sorted().toList();
        }
        assertFalse(dirs.isEmpty(), "no golden cases under " + CASES);
        return dirs.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private static void check(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                assertTrue(KNOWN.contains(f.getFileName().toString()), dir + " has a file the test does not use: " + f.getFileName());
            }
        }
        ClusterView cluster = cluster(dir.resolve("in-cluster.yaml"));
        byte[] request = Files.readAllBytes(dir.resolve("in-review.json"));
        AdmissionReviewHandler.Reply reply = new AdmissionReviewHandler(ADMISSION, () -> cluster).handle(request);

        JsonNode body = JSON.readTree(reply.body());
        WireContract.check(request, reply.status(), body);
        assertEquals(expectedOutcome(reply.status(), body), reply.outcome(), "the metrics' outcome of " + dir.getFileName());
        ObjectNode actual = JSON.createObjectNode();
        actual.put("status", reply.status());
        actual.set("body", body);
        compare(dir.resolve("out-reply.json"), JSON.writeValueAsString(actual) + "\n");
    }

    /** What the answer says, as the {@code outcome} tag of {@code aps_webhook_reviews_total} must say it. */
    private static ReviewOutcome expectedOutcome(int status, JsonNode body) {
        if (status != 200) {
            return ReviewOutcome.MALFORMED;
        }
        JsonNode response = body.path("response");
        if (!response.path("allowed").asBoolean()) {
            return ReviewOutcome.DENIED;
        }
        return response.path("warnings").isEmpty() ? ReviewOutcome.ALLOWED : ReviewOutcome.WARNED;
    }

    private static ClusterView cluster(Path file) throws Exception {
        List<LiveObject> objects = new ArrayList<>();
        if (Files.exists(file)) {
            for (Document d : Yaml.parse(file.toString(), Files.readString(file))) {
                objects.add(LiveObject.of((ObjectNode) d.content()).orElseThrow(() -> new AssertionError(file + ": not an admission object")));
            }
        }
        return ClusterView.of(KubeVersion.NEWEST, Optional.of("v1beta1"), objects);
    }

    private static void compare(Path expectedFile, String actual) throws IOException {
        if (Boolean.getBoolean("aps.golden.update")) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(expectedFile), expectedFile + " is missing; run with -Daps.golden.update=true");
        assertEquals(Files.readString(expectedFile), actual, "differs from " + expectedFile);
    }
}
