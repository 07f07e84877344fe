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

    /**
     * One thing the subscription saw, in arrival order.
     *
     * @param set   a start's members as sent ({@code null}: none), or a refetch's snapshot
     * @param extra a start's server; an SSE {@code subscribed} frame's {@code id:} as text ({@code null} on the
     *              WebSocket); a resync's reason
     */
    record Seen(char type, long cursor, String pk, String op, String listAction, List<String> changedFields,
                String extra, Set<String> set, long received) {
        static final char EVENT = 'E';
        static final char RESYNC = 'R';
        /** The cursor the subscription (re)subscribed from, the members it sent, and the server. */
        static final char START = 'S';
        /** The server's {@code subscribed}: its registration cursor, and on SSE the frame's {@code id:}. */
        static final char SUBSCRIBED = 'B';
        /** A refetch after a resync: the client holds the database as of this cursor. */
        static final char REFETCH = 'F';
        /** A pk the client named in {@code members} answered as one the viewer cannot read (no op, no fields). */
        static final char UNREADABLE = 'U';

        /** Logged now: {@code received} is the wall clock in microseconds, the unit of the orders' history. */
        Seen(char type, long cursor, String pk, String op, String listAction, List<String> changedFields,
             String extra, Set<String> set) {
            this(type, cursor, pk, op, listAction, changedFields, extra, set, now());
        }

        /** The wall clock in microseconds. */
        static long now() {
            return java.time.temporal.ChronoUnit.MICROS.between(java.time.Instant.EPOCH, java.time.Instant.now());
        }

        String reason() {
            return extra;
        }

        @Override
        public String toString() {
            return type + "@" + cursor + (pk == null ? "" : " " + pk + " " + op + "/" + listAction + " " + changedFields)
                    + (extra == null ? "" : " " + extra) + (set == null ? "" : " " + describe(set));
        }
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
    /** Pks this client names in {@code members} without holding them: other users' orders, and ones that never existed. */
    final Set<String> guesses = new HashSet<>();
    final List<Seen> log = new ArrayList<>();
    /** The connections around the log, bounded, for a convergence violation's report. */
    final SoakJournal journal = new SoakJournal();
    Long startCursor;
    Long lastCursor;
    int resyncs;
    /** Set by every snapshot: an SSE client that resumes with Last-Event-ID opens a new URL after one. */
    boolean refetched;

    SoakSubscription(String id, String user, Kind kind, String argument) {
        this.id = id;
        this.user = user;
        this.kind = kind;
        this.argument = argument;
    }

    /** Records in the journal what happened to this subscription's connection, after the log's entries so far. */
    synchronized void note(SoakJournal.What what, String server, String detail) {
        journal.add(log.size(), what, server, detail);
    }

    /** Whether the server has answered a subscribe of this subscription with {@code subscribed}. */
    synchronized boolean subscribedOnce() {
        return log.stream().anyMatch(seen -> seen.type() == Seen.SUBSCRIBED);
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

    String restPath() {
        return kind == Kind.OBJECT ? "api/orders/" + argument : "api/orders";
    }

    /** The client's REST read of what it covers, at {@code cursor}: the first one, or a refetch after a resync. */
    synchronized void snapshot(List<Order> visible, long cursor) {
        view.clear();
        visible.stream().filter(this::scopeIncludes).map(Order::pk).forEach(view::add);
        // After a resync the client holds the database as of this cursor, and resumes from it.
        startCursor = startCursor == null ? cursor : startCursor;
        lastCursor = lastCursor == null ? cursor : Math.max(lastCursor, cursor);
        log.add(new Seen(Seen.REFETCH, cursor, null, null, null, List.of(), null, Set.copyOf(view)));
        refetched = true;
    }

    /**
     * Whether, after a refetch, the client subscribes again from the refetch's cursor (see reliability.md, problem 8)
     * rather than carrying on live: every filter and model subscription does, as client.md asks. With its members
     * when they fit the transport's limit; without them otherwise, and the server then resyncs wherever it cannot
     * tell what the refetch held (an order created after the refetch's cursor and gone since, protocol.md).
     */
    synchronized boolean resubscribesAfterRefetch() {
        return kind != Kind.OBJECT;
    }

    /** The members a resume names, or {@code null} when the view does not fit {@code maxMembers} (or is empty on SSE). */
    private Set<String> members(int maxMembers, boolean emptyAllowed) {
        if (kind == Kind.OBJECT || view.size() > maxMembers || view.isEmpty() && guesses.isEmpty() && !emptyAllowed) {
            return null;
        }
        Set<String> members = new HashSet<>(view);
        members.addAll(guesses);
        return members;
    }

    /** Records a (re)subscribe from {@code cursor}, with the members sent, on {@code server}. */
    synchronized void started(long cursor, Set<String> members, String server) {
        log.add(new Seen(Seen.START, cursor, null, null, null, List.of(), server, members == null ? null : Set.copyOf(members)));
    }

    /** The server's {@code subscribed}; {@code frameId} is its SSE {@code id:}, {@code null} on the WebSocket. */
    synchronized void subscribed(JsonObject message, String frameId) {
        log.add(new Seen(Seen.SUBSCRIBED, message.getJsonNumber("cursor").longValue(), null, null, null, List.of(), frameId,
                null));
    }

    /** The WebSocket subscribe message resuming from {@link #lastCursor}, with members when they fit. */
    synchronized String subscribeMessage(int maxMembers, String server) {
        JsonObjectBuilder message = Json.createObjectBuilder().add("op", "subscribe").add("subscription_id", id)
                .add("model", MODEL).add("cursor", lastCursor);
        switch (kind) {
            case OBJECT -> message.add("kind", "object").add("pk", argument);
            case MODEL -> message.add("kind", "model");
            case OWNER_FILTER -> message.add("kind", "filter").add("filter", Json.createObjectBuilder().add("owner", argument));
            case STATUS_FILTER -> message.add("kind", "filter").add("filter", Json.createObjectBuilder().add("status", argument));
        }
        Set<String> members = members(maxMembers, true);
        if (members != null) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            members.forEach(array::add);
            message.add("members", array);
        }
        started(lastCursor, members, server);
        return message.build().toString();
    }

    /** The SSE query resuming from {@link #lastCursor}, with members when they fit; records the start when asked. */
    synchronized SseResume sseQuery(int maxMembers) {
        StringBuilder query = new StringBuilder(MODEL).append("?cursor=").append(lastCursor).append("&heartbeat=5s");
        switch (kind) {
            case OBJECT -> query.append("&kind=object&pk=").append(argument);
            case MODEL -> query.append("&kind=model");
            case OWNER_FILTER -> query.append("&kind=filter&filter.owner=").append(encode(argument));
            case STATUS_FILTER -> query.append("&kind=filter&filter.status=").append(encode(argument));
        }
        Set<String> members = members(maxMembers, false);
        if (members != null) {
            query.append("&members=").append(encode(String.join(",", members)));
        }
        refetched = false;
        return new SseResume(query.toString(), lastCursor, members);
    }

    /** An SSE URL's query, with the cursor and members it names. */
    record SseResume(String query, long cursor, Set<String> members) {
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    synchronized void event(JsonObject message) {
        long cursor = message.getJsonNumber("cursor").longValue();
        String pk = message.getJsonObject("subject").getString("pk");
        if (!message.containsKey("op")) {
            log.add(new Seen(Seen.UNREADABLE, cursor, pk, null, message.getString("list_action"), List.of(), null, null));
            view.remove(pk);
            return;
        }
        String listAction = message.getString("list_action");
        List<String> fields = message.containsKey("changed_fields") && message.get("changed_fields") != JsonValue.NULL
                ? message.getJsonArray("changed_fields").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList()
                : List.of();
        log.add(new Seen(Seen.EVENT, cursor, pk, message.getString("op"), listAction, fields, null, null));
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
        log.add(new Seen(Seen.RESYNC, cursor, null, null, null, List.of(), message.getString("reason"), null));
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
