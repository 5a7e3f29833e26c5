/**
 * The read side: projections from events into read tables, the read repositories the API uses,
 * and the change feeds that wake live streams.
 */
package org.agentplatform.query;
