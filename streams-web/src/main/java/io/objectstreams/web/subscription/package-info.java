/**
 * The subscription engine, shared by every transport. A transport implements
 * {@link io.objectstreams.web.subscription.Subscriber} and hands requests in; nothing here knows WebSocket or SSE,
 * and nothing here writes to the database.
 *
 * <p>It is cut along its jobs, and calls run one way only:
 * <pre>
 * transports → ConnectionRegistry → BatchFanOut → StreamSession → ReplayPlanner → ReplayClassification
 *                     (admission,      (batches,      (one          (reads what a      (the replay table:
 *                      budget,          gaps, the      connection's  start needs)       pure functions)
 *                      senders,         reread, the    subscriptions
 *                      report)          resyncs)       and queue)
 * </pre>
 * Below them sit values and leaves that call nothing back: {@code FanOutLedger} (the fan-out lock, the cursor
 * fanned out through, the subscriptions owed a reread), which lets a session join between two batches without
 * calling the fan-out; {@code BatchSteps} (what the state after a batch tells of each of its rows, G17);
 * {@code Subscription} (one subscription's members and {@code list_action}s);
 * {@code OutboundQueue} and {@code OutboundBudget} (G15); {@code Admission}; {@code DeliveryCounts};
 * {@code Messages}. A session the fan-out cannot even tell to resync is handed to a callback the registry passes
 * in, so the fan-out never names the registry.
 *
 * <p>The reads a subscription's start and a resync need are named for what they read and when:
 * {@code StartMemberReads} (the members a set subscription starts with), {@code StartReadsByCursor} (what the starts
 * registered at one cursor share), {@code ModelReplayReads} (a model's missed events, read once per span for every
 * subscription resuming over it) and {@code ResyncMemberReads} (the members read again after a resync).
 * {@code Truncations} and {@code UndecidablePks} find the events no visibility check can decide.
 *
 * <p>Batches and gaps reach the registry from the listener through
 * {@link io.objectstreams.internal.delivery.DeliveryTargets}, not as CDI events: CDI stops at the first observer that
 * throws, and an application's observer must not be able to keep a batch from subscribers (G10).
 */
package io.objectstreams.web.subscription;
