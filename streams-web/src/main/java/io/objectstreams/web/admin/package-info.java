/** The operator endpoints: the state of the outbox and of this instance's transports, and pruning by hand. */
package io.objectstreams.web.admin;
