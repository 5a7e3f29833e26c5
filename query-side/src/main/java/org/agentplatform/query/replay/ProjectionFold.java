package org.agentplatform.query.replay;

import java.util.List;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Runs a read model's own projection handlers over events into empty copies of its tables, inside the caller's
 * transaction: temporary tables of the same names shadow the real ones for this connection (PostgreSQL looks in the
 * session's temporary schema first), so the projection's code, unchanged, writes the copies. What the copies hold
 * then is the read model as those events make it: at a point in time, or rebuilt from the whole store.
 */
public final class ProjectionFold {

    private final JdbcTemplate jdbc;
    private final ReadModel model;
    private final AnnotationEventHandlerAdapter handlers;
    private long failed;

    public ProjectionFold(JdbcTemplate jdbc, ReadModel model) {
        this.jdbc = jdbc;
        this.model = model;
        this.handlers = new AnnotationEventHandlerAdapter(model.projection());
    }

    /** Creates the empty copies (dropped when the transaction ends). */
    public void shadow() {
        for (String table : model.tableNames()) {
            jdbc.execute("CREATE TEMP TABLE " + table + " (LIKE public." + table + " INCLUDING ALL) ON COMMIT DROP");
        }
    }

    /**
     * Applies events in order: a batch under one savepoint, and after a failure each of its events under its own, so an
     * event the projection cannot take is skipped (and counted, as the live processor would park it) and the rest apply.
     */
    public void apply(List<? extends EventMessage<?>> events) {
        jdbc.execute("SAVEPOINT fold_batch");
        try {
            for (EventMessage<?> event : events) {
                handle(event);
            }
            jdbc.execute("RELEASE SAVEPOINT fold_batch");
        } catch (Exception batchFailed) {
            jdbc.execute("ROLLBACK TO SAVEPOINT fold_batch");
            for (EventMessage<?> event : events) {
                jdbc.execute("SAVEPOINT fold_event");
                try {
                    handle(event);
                    jdbc.execute("RELEASE SAVEPOINT fold_event");
                } catch (Exception eventFailed) {
                    jdbc.execute("ROLLBACK TO SAVEPOINT fold_event");
                    failed++;
                }
            }
        }
    }

    /** How many events the projection could not take. */
    public long failed() {
        return failed;
    }

    private void handle(EventMessage<?> event) throws Exception {
        if (handlers.canHandle(event)) {
            handlers.handle(event);
        }
    }
}
