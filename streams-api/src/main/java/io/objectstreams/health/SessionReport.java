package io.objectstreams.health;

/**
 * The WebSocket sessions connected to this instance, for the health data (G13).
 *
 * @param sessions       connected sessions
 * @param subscriptions  active subscriptions over all of them
 * @param queuedMessages messages waiting in the sessions' outbound queues
 * @param droppedEvents  events the connected sessions' queues dropped for being too slow (each such loss was
 *                       answered with {@code resync_required}, reason {@code slow_consumer})
 */
public record SessionReport(int sessions, int subscriptions, int queuedMessages, long droppedEvents) {
}
