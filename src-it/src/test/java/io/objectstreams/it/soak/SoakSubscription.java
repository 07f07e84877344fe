package io.objectstreams.it.soak;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One logical subscription of a soak client, across its reconnects: what it holds (the pks it was told are in its
 * set) and everything it received, in arrival order, for the oracle.
 */
final class SoakSubscription {

    static final String MODEL = "store.CustomerOrder";

    enum Kind { OBJECT, MODEL, OWNER_FILTER, STATUS_FILTER }

    /** One thing the subscription saw: an event, a resync, or the cursor it (re)subscribed from. */
    record Seen(char type, long cursor, String pk, String op, String listAction, List<String> changedFields,
                String reason) {
        static final char EVENT = 'E';
        static final char RESYNC = 'R';
        static final char START = 'S';
        /** A refetch after a resync: the client holds the database as of this cursor. */
        static final char REFETCH = 'F';
        /** A pk the client named in {@code members} answered as one the viewer cannot read (no op, no fields). */
        static final char UNREADABLE = 'U';
    }

    /** An order as the REST API lists it. */
    record Order(String pk, String owner, String status) {
    }

    final String id;
    final String user;
    final Kind kind;
    /** The object's pk, the filter's owner or status. */
    final String argument;

    final Set<String> view = new HashSet<>();
    final List<Seen> log = new ArrayList<>();
    Long startCursor;
    Long lastCursor;
    int resyncs;

    SoakSubscription(String id, String user, Kind kind, String argument) {
        this.id = id;
        this.user = user;
        this.kind = kind;
        this.argument = argument;
    }

    boolean started() {
        return startCursor != null;
    }

    /** Whether an order belongs to this subscription's set, given that the user may read it. */
    boolean scopeIncludes(Order order) {
        return switch (kind) {
            case OBJECT -> order.pk().equals(argument);
            case MODEL -> true;
            case OWNER_FILTER -> order.owner().equals(argument);
            case STATUS_FILTER -> order.status().equals(argument);
        };
    }

    /** Whether the scope depends only on things that never change (pk, owner), so every relevant row is owed. */
    boolean staticScope() {
        return kind != Kind.STATUS_FILTER;
    }

    String restPath() {
        return kind == Kind.OBJECT ? "api/orders/" + argument : "api/orders";
    }

    synchronized void snapshot(List<Order> visible, long cursor) {
        view.clear();
        visible.stream().filter(this::scopeIncludes).map(Order::pk).forEach(view::add);
        if (startCursor == null) {
            startCursor = cursor;
            lastCursor = cursor;
            log.add(new Seen(Seen.START, cursor, null, null, null, List.of(), "snapshot"));
        } else {
            // After a resync: the client holds the database as of this cursor, and resumes from it.
            lastCursor = Math.max(lastCursor, cursor);
            log.add(new Seen(Seen.REFETCH, lastCursor, null, null, null, List.of(), "refetch"));
        }
    }

    /**
     * Whether, after a refetch, the client subscribes again from the refetch's cursor with its members (see
     * reliability.md, problem 8) rather than carrying on live: for a filter or model subscription whose members
     * fit the transport's limit.
     */
    synchronized boolean resubscribesAfterRefetch(int maxMembers) {
        return kind != Kind.OBJECT && !view.isEmpty() && view.size() <= maxMembers;
    }

    /** The WebSocket subscribe message resuming from {@link #lastCursor}, with members when they fit. */
    synchronized String subscribeMessage(int maxMembers) {
        log.add(new Seen(Seen.START, lastCursor, null, null, null, List.of(), "resume"));
        JsonObjectBuilder message = Json.createObjectBuilder().add("op", "subscribe").add("subscription_id", id)
                .add("model", MODEL).add("cursor", lastCursor);
        switch (kind) {
            case OBJECT -> message.add("kind", "object").add("pk", argument);
            case MODEL -> message.add("kind", "model");
            case OWNER_FILTER -> message.add("kind", "filter").add("filter", Json.createObjectBuilder().add("owner", argument));
            case STATUS_FILTER -> message.add("kind", "filter").add("filter", Json.createObjectBuilder().add("status", argument));
        }
        if (kind != Kind.OBJECT && view.size() <= maxMembers) {
            JsonArrayBuilder members = Json.createArrayBuilder();
            view.forEach(members::add);
            message.add("members", members);
        }
        return message.build().toString();
    }

    /** The SSE query resuming from {@link #lastCursor}, with members when they fit. */
    synchronized String sseQuery(int maxMembers) {
        log.add(new Seen(Seen.START, lastCursor, null, null, null, List.of(), "resume"));
        StringBuilder query = new StringBuilder(MODEL).append("?cursor=").append(lastCursor).append("&heartbeat=5s");
        switch (kind) {
            case OBJECT -> query.append("&kind=object&pk=").append(argument);
            case MODEL -> query.append("&kind=model");
            case OWNER_FILTER -> query.append("&kind=filter&filter.owner=").append(encode(argument));
            case STATUS_FILTER -> query.append("&kind=filter&filter.status=").append(encode(argument));
        }
        if (kind != Kind.OBJECT && !view.isEmpty() && view.size() <= maxMembers) {
            query.append("&members=").append(encode(String.join(",", view)));
        }
        return query.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    synchronized void event(JsonObject message) {
        long cursor = message.getJsonNumber("cursor").longValue();
        String pk = message.getJsonObject("subject").getString("pk");
        if (!message.containsKey("op")) {
            log.add(new Seen(Seen.UNREADABLE, cursor, pk, null, message.getString("list_action"), List.of(), null));
            view.remove(pk);
            return;
        }
        String listAction = message.getString("list_action");
        List<String> fields = message.containsKey("changed_fields") && message.get("changed_fields") != JsonValue.NULL
                ? message.getJsonArray("changed_fields").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList()
                : List.of();
        log.add(new Seen(Seen.EVENT, cursor, pk, message.getString("op"), listAction, fields, null));
        if (listAction.equals("added") || listAction.equals("changed")) {
            view.add(pk);
        } else {
            view.remove(pk);
        }
        lastCursor = Math.max(lastCursor, cursor);
    }

    /** Records a resync; the caller refetches. */
    synchronized void resync(JsonObject message) {
        long cursor = message.getJsonNumber("cursor").longValue();
        log.add(new Seen(Seen.RESYNC, cursor, null, null, null, List.of(), message.getString("reason")));
        lastCursor = Math.max(lastCursor, cursor);
        resyncs++;
    }

    synchronized Set<String> viewCopy() {
        return new HashSet<>(view);
    }

    synchronized int logSize() {
        return log.size();
    }

    synchronized List<Seen> logCopy() {
        return new ArrayList<>(log);
    }

    @Override
    public String toString() {
        return user + "/" + id + " " + kind + (argument == null ? "" : "(" + argument + ")");
    }

    static String describe(Set<String> pks) {
        return pks.stream().sorted().collect(Collectors.joining(",", "[", "]"));
    }
}
