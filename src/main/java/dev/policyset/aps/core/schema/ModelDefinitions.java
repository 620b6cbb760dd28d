package dev.policyset.aps.core.schema;

import java.util.Optional;

/** Where the model classes' definitions come from: the generated resource, or reflection over the classes. */
public interface ModelDefinitions {
    /** The definition of a model class, by its full name; empty when it is not known here. */
    Optional<ModelDefinition> definition(String className);
}
