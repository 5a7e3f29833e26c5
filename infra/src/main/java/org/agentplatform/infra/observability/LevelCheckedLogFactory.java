package org.agentplatform.infra.observability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.kernel.FrameworkReplacement;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LocationAwareLogger;

/**
 * Commons Logging (the API Spring and its projects log through) onto SLF4J, asking the level before a message is
 * rendered. Commons Logging 1.3's own SLF4J bridge renders every message ({@code String.valueOf}) and only then lets
 * SLF4J drop it, so the lazy {@code LogMessage.format(...)} debug messages that Spring Security writes several times a
 * request were formatted on every request with DEBUG off (spring-framework#37266). Chosen by Commons Logging's service
 * lookup ({@code META-INF/services/org.apache.commons.logging.LogFactory}).
 */
@FrameworkReplacement("Commons Logging: LogFactory (META-INF/services)")
public final class LevelCheckedLogFactory extends LogFactory {

    private final Map<String, Log> logs = new ConcurrentHashMap<>();
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();

    @Override
    public Log getInstance(Class<?> clazz) {
        return getInstance(clazz.getName());
    }

    @Override
    public Log getInstance(String name) {
        return logs.computeIfAbsent(name, any -> new LevelCheckedLog(LoggerFactory.getLogger(name)));
    }

    @Override
    public Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public String[] getAttributeNames() {
        return attributes.keySet().toArray(String[]::new);
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
    }

    @Override
    public void removeAttribute(String name) {
        attributes.remove(name);
    }

    @Override
    public void release() {
        logs.clear();
    }

    /** One logger: a message is rendered only when its level is enabled; the caller's location is kept. */
    static final class LevelCheckedLog implements Log {

        private static final String FQCN = LevelCheckedLog.class.getName();

        private final Logger logger;
        private final LocationAwareLogger located;

        LevelCheckedLog(Logger logger) {
            this.logger = logger;
            this.located = logger instanceof LocationAwareLogger aware ? aware : null;
        }

        @Override
        public boolean isTraceEnabled() {
            return logger.isTraceEnabled();
        }

        @Override
        public boolean isDebugEnabled() {
            return logger.isDebugEnabled();
        }

        @Override
        public boolean isInfoEnabled() {
            return logger.isInfoEnabled();
        }

        @Override
        public boolean isWarnEnabled() {
            return logger.isWarnEnabled();
        }

        @Override
        public boolean isErrorEnabled() {
            return logger.isErrorEnabled();
        }

        @Override
        public boolean isFatalEnabled() {
            return logger.isErrorEnabled();
        }

        @Override
        public void trace(Object message) {
            trace(message, null);
        }

        @Override
        public void trace(Object message, Throwable failure) {
            if (logger.isTraceEnabled()) {
                log(LocationAwareLogger.TRACE_INT, message, failure);
            }
        }

        @Override
        public void debug(Object message) {
            debug(message, null);
        }

        @Override
        public void debug(Object message, Throwable failure) {
            if (logger.isDebugEnabled()) {
                log(LocationAwareLogger.DEBUG_INT, message, failure);
            }
        }

        @Override
        public void info(Object message) {
            info(message, null);
        }

        @Override
        public void info(Object message, Throwable failure) {
            if (logger.isInfoEnabled()) {
                log(LocationAwareLogger.INFO_INT, message, failure);
            }
        }

        @Override
        public void warn(Object message) {
            warn(message, null);
        }

        @Override
        public void warn(Object message, Throwable failure) {
            if (logger.isWarnEnabled()) {
                log(LocationAwareLogger.WARN_INT, message, failure);
            }
        }

        @Override
        public void error(Object message) {
            error(message, null);
        }

        @Override
        public void error(Object message, Throwable failure) {
            if (logger.isErrorEnabled()) {
                log(LocationAwareLogger.ERROR_INT, message, failure);
            }
        }

        @Override
        public void fatal(Object message) {
            error(message, null);
        }

        @Override
        public void fatal(Object message, Throwable failure) {
            error(message, failure);
        }

        private void log(int level, Object message, Throwable failure) {
            String text = String.valueOf(message);
            if (located != null) {
                located.log(null, FQCN, level, text, null, failure);
                return;
            }
            switch (level) {
                case LocationAwareLogger.TRACE_INT -> logger.trace(text, failure);
                case LocationAwareLogger.DEBUG_INT -> logger.debug(text, failure);
                case LocationAwareLogger.INFO_INT -> logger.info(text, failure);
                case LocationAwareLogger.WARN_INT -> logger.warn(text, failure);
                default -> logger.error(text, failure);
            }
        }
    }
}
