-- The terminals that have not ended, per instance, as the terminal lifecycle saw them (JdbcOpenTerminals): its own
-- record, written in its processor's transactions, so a stopped instance ends every terminal opened before the stop
-- however far the terminal read model lags.
CREATE TABLE terminal_open (
    terminal_id UUID PRIMARY KEY,
    instance_id UUID NOT NULL
);

CREATE INDEX terminal_open_instance ON terminal_open (instance_id);

INSERT INTO terminal_open (terminal_id, instance_id) SELECT id, instance_id FROM terminal_view WHERE status = 'open';
