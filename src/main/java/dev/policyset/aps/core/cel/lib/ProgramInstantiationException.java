package dev.policyset.aps.core.cel.lib;

/** An expression type-checked but cannot become a program (cel-go {@code env.Program} failed). */
public final class ProgramInstantiationException extends Exception {
    public ProgramInstantiationException(String message) {
        super(message);
    }
}
