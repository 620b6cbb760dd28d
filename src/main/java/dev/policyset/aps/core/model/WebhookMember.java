package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.node.ArrayNode;

import java.util.Map;

/** One webhook configuration: its webhooks as written (elements may be of any JSON type; the validator says so). */
public record WebhookMember(String name, String path, Map<String, String> labels, Map<String, String> annotations,
                            ArrayNode webhooks) implements Member {
    public WebhookMember {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }
}
