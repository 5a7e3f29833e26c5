package org.agentplatform.infra.eventstore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An event handler whose processing group gets no dead-letter queue: it must take every event, in order (the audit
 * chain links each event to the one before), so a batch that fails is retried instead of an event being parked.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface NeverParked {
}
