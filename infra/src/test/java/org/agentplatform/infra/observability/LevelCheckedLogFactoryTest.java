package org.agentplatform.infra.observability;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Commons Logging, as Spring logs through it, is ours: a message of a disabled level is never rendered, one of an enabled
 * level is logged as before, with its cause and the caller's location.
 */
class LevelCheckedLogFactoryTest {

    /** A lazily rendered message, as Spring's {@code LogMessage}: counts how often it was rendered. */
    private static final class Counted {

        private final AtomicInteger rendered = new AtomicInteger();

        @Override
        public String toString() {
            rendered.incrementAndGet();
            return "rendered";
        }
    }

    /** Keeps what was logged, with the caller's location taken while the caller still runs. */
    private static final class Appended extends AppenderBase<ILoggingEvent> {

        private final List<ILoggingEvent> list = new ArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            event.getCallerData();
            list.add(event);
        }
    }

    @Test
    void commonsLoggingFindsThisFactory() {
        assertThat(LogFactory.getFactory()).isInstanceOf(LevelCheckedLogFactory.class);
        assertThat(LogFactory.getLog(LevelCheckedLogFactoryTest.class)).isInstanceOf(LevelCheckedLogFactory.LevelCheckedLog.class);
    }

    @Test
    void aMessageIsRenderedOnlyWhenItsLevelIsEnabled() {
        String name = "level-checked-" + System.nanoTime();
        Logger logback = (Logger) LoggerFactory.getLogger(name);
        Appended appended = new Appended();
        appended.start();
        logback.addAppender(appended);
        logback.setLevel(Level.INFO);
        Log log = LogFactory.getLog(name);
        Counted message = new Counted();

        log.debug(message);
        log.trace(message, new IllegalStateException());
        assertThat(message.rendered).hasValue(0);
        assertThat(appended.list).isEmpty();

        IllegalStateException cause = new IllegalStateException("why");
        log.warn(message, cause);
        logback.setLevel(Level.DEBUG);
        log.debug(message);
        assertThat(message.rendered).hasValue(2);
        assertThat(appended.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.DEBUG);
        assertThat(appended.list.getFirst().getFormattedMessage()).isEqualTo("rendered");
        assertThat(appended.list.getFirst().getThrowableProxy().getMessage()).isEqualTo("why");
        assertThat(appended.list.getFirst().getCallerData()[0].getClassName()).isEqualTo(LevelCheckedLogFactoryTest.class.getName());
    }
}
