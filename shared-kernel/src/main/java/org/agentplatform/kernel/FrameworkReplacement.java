package org.agentplatform.kernel;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A class of ours that takes over a framework's or library's own behaviour (a hook it offers, or a format it keeps to
 * itself): whoever upgrades that framework re-checks it, with its parity test. Each one is a row of
 * {@code docs/framework-replacements.md}, which says why, and when it can go; a test keeps the two in step.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface FrameworkReplacement {

    /** The framework, and what of it this replaces (e.g. {@code "Axon: JdbcEventStorageEngine"}). */
    String value();
}
