package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decodes {@code spec} or {@code status} so that one stored set the operator's classes cannot read never stops the
 * operator. Without it, Jackson fails on an unknown field (a CRD newer than the operator) or on a value of the
 * wrong type (a schema-less or older API server); the fabric8 watch on all sets then stops for good ("watch
 * failed ... will stop"), or the operator does not start at all.
 *
 * <ul>
 *   <li>An unknown field is skipped and logged once per field path (per process).
 *   <li>A value of the wrong type: {@link #fallback} decides (for the spec, an {@link UndecodableSpec} keeping the
 *       stored document, so the set is still judged — and reported — by the same reader the CLI uses; for the
 *       status, none: the operator writes a new one). Logged once per field and problem.
 * </ul>
 * The decoding itself uses the mapper that is decoding the set (the client's, with fabric8's modules).
 */
abstract class LenientDecoder<T> extends StdDeserializer<T> {
    private static final System.Logger LOG = System.getLogger(LenientDecoder.class.getName());
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    private final Class<T> type;
    private final String field;

    LenientDecoder(Class<T> type, String field) {
        super(type);
        this.type = type;
        this.field = field;
    }

    /** What to use when {@code raw} does not decode into the type; {@code problem} names the field. */
    abstract T fallback(JsonNode raw, ObjectReader reader, String problem);

    /** What happens to a set whose field does not decode, for the log. */
    abstract String consequence();

    @Override
    public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonNode raw = ctxt.readTree(p);
        ObjectReader reader = readerFor(p.getCodec()).forType(type).withHandler(new SkipUnknown(field));
        try {
            return reader.readValue(raw);
        } catch (IOException | IllegalArgumentException e) {
            String problem = describe(field, e);
            logOnce("type:" + problem, "AdmissionPolicySet " + problem + "; " + consequence());
            return fallback(raw, reader, problem);
        }
    }

    static ObjectReader readerFor(ObjectCodec codec) {
        if (codec instanceof ObjectReader r) {
            return r;
        }
        return (codec instanceof ObjectMapper m ? m : Serialization.jsonMapper()).reader();
    }

    /** {@code spec.prune: Cannot deserialize value of type ...}: the field path in Kubernetes notation, and Jackson's reason. */
    static String describe(String root, Exception e) {
        if (e instanceof JsonMappingException m) {
            StringBuilder path = new StringBuilder(root);
            for (JsonMappingException.Reference r : m.getPath()) {
                if (r.getFieldName() != null) {
                    path.append('.').append(r.getFieldName());
                } else if (r.getIndex() >= 0) {
                    path.append('[').append(r.getIndex()).append(']');
                }
            }
            return path + ": " + m.getOriginalMessage().lines().findFirst().orElse("");
        }
        return root + ": " + e.getMessage();
    }

    static void logOnce(String key, String message) {
        if (LOGGED.add(key)) {
            LOG.log(System.Logger.Level.WARNING, message);
        }
    }

    /** Skips a field the classes do not know, and says so once per field (list indexes left out). */
    private static final class SkipUnknown extends DeserializationProblemHandler {
        private final String root;

        SkipUnknown(String root) {
            this.root = root;
        }

        @Override
        public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, JsonDeserializer<?> deserializer,
                                             Object beanOrClass, String propertyName) throws IOException {
            // The object that holds propertyName (the parser may already stand on the value's own object or list).
            JsonStreamContext holder = p.getParsingContext();
            if (p.currentToken() != null && p.currentToken().isStructStart()) {
                holder = holder.getParent();
            }
            StringBuilder path = new StringBuilder();
            for (JsonStreamContext c = holder; c.getParent() != null && !c.getParent().inRoot(); c = c.getParent()) {
                path.insert(0, c.getParent().inArray() ? "[]" : "." + c.getParent().getCurrentName());
            }
            String full = root + path + "." + propertyName;
            logOnce("unknown:" + full, "AdmissionPolicySet field " + full + " is not known to this operator version "
                    + "(is the CRD newer than the operator?); it is ignored");
            p.skipChildren();
            return true;
        }
    }
}
