/**
 * The operator endpoints: the state of the outbox and of this instance's transports, pruning by hand, and the SQL a
 * DBA runs (the capture triggers, and the rollback of numbering by tick).
 */
package io.objectstreams.web.admin;
