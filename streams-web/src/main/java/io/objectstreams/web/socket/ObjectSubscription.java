package io.objectstreams.web.socket;

import io.objectstreams.StreamEvent;
import jakarta.json.JsonValue;

/**
 * One object subscription of one connection: which subject, the last cursor sent for it (so replayed and live
 * events never repeat), and whether the subscriber could see the subject at the last event (so a delete or a
 * loss of visibility reaches exactly those who saw it).
 */
final class ObjectSubscription {

    private final String id;
    private final String model;
    private final String pk;
    private final JsonValue ordering;
    private final JsonValue shape;
    private long sentThrough;
    private boolean visible = true;

    ObjectSubscription(String id, String model, String pk, JsonValue ordering, JsonValue shape, long sentThrough) {
        this.id = id;
        this.model = model;
        this.pk = pk;
        this.ordering = ordering;
        this.shape = shape;
        this.sentThrough = sentThrough;
    }

    String id() {
        return id;
    }

    String model() {
        return model;
    }

    String pk() {
        return pk;
    }

    JsonValue ordering() {
        return ordering;
    }

    JsonValue shape() {
        return shape;
    }

    boolean matches(StreamEvent event) {
        return event.pk().equals(pk) && event.model().equals(model);
    }

    /**
     * The {@code list_action} this event means for this subscription, or {@code null} when it has no effect
     * (already sent, or about an object the subscriber cannot see and did not see). Advances the state.
     */
    String effect(StreamEvent event, boolean visibleNow) {
        if (event.cursor() <= sentThrough) {
            return null;
        }
        sentThrough = event.cursor();
        String action;
        switch (event.op()) {
            case DELETED -> action = visible ? "deleted" : null;
            default -> action = visibleNow ? (visible ? "changed" : "added") : (visible ? "removed" : null);
        }
        visible = event.op() != io.objectstreams.EventOperation.DELETED && visibleNow;
        return action;
    }

    /** Skips everything up to {@code cursor} (after a resync). */
    void skipThrough(long cursor) {
        sentThrough = Math.max(sentThrough, cursor);
    }
}
