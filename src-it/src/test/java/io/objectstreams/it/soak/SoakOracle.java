package io.objectstreams.it.soak;

import io.objectstreams.it.soak.SoakSubscription.Kind;
import io.objectstreams.it.soak.SoakSubscription.Seen;
import io.objectstreams.it.support.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * What every client should have seen, read from the database after the run, and the rules that hold each
 * subscription's log to it. The outbox holds the committed changes in cursor order (G1, G5); a trigger the soak
 * installs on the orders' table ({@code it_order_history}) records each order's owner and status after every
 * transaction, so the oracle knows, for every row, who could read the order and which filters it matched; the
 * servers record their delivery batches (a file per server, {@code target/soak-batches}).
 *
 * <p>Each subscription's log is cut into episodes, one per (re)subscribe from a cursor C. An episode owes the client
 * every row after C up to the cursor its next episode resumes from:
 * <ul>
 * <li>a filter or model subscription's replay (rows through the {@code subscribed} cursor R) sends each changed
 * subject at most once, at its latest row, with {@code changed_fields} covering every row it coalesces, and with
 * the {@code list_action} the members table gives for a state the subject had at or after that row;</li>
 * <li>every later row (and an object subscription's replay) is sent as itself, in cursor order, once, with the
 * {@code list_action} that the client's set and a state at or after the row give; it may be left out only when
 * the client did not hold the subject and it did not match then, when a delete of the subject later in the same
 * transaction supersedes it, or (but for staff's model subscription, which sees every order while it exists) when
 * the client did not hold it and a later transaction of the same delivery batch wrote it again (G17);</li>
 * <li>a {@code deleted} goes only to a user who could read the order just before its delete (issue 40 item 12);</li>
 * <li>a {@code resync_required} accounts for the rows through its cursor, and a refetch for the rows through the
 * cursor it read; the number of resyncs per reason is bounded by the faults the run injected ({@link Bounds}).</li>
 * </ul>
 * Nothing may name an order the user could not read; an SSE {@code subscribed} frame's {@code id:} may not be ahead
 * of the cursor the client resumed from; at the end every subscription holds what the database says it should.
 * Every violation starts with its kind in brackets ({@code [gap]}, {@code [duplicate]}, {@code [order]},
 * {@code [leak]}, {@code [subscribed-id]}, ...), which the fault tests look for. A {@code [convergence]} violation
 * carries its evidence on the lines after its first ({@link ConvergenceReport}).
 */
final class SoakOracle {

    /** An order's state after a transaction; {@code deleted} when the transaction deleted it. */
    record State(String owner, String status, boolean deleted) {
    }

    /** An outbox row, the order's state after its transaction, and when that transaction wrote it (microseconds). */
    record Row(long cursor, String pk, String op, List<String> changedFields, long transaction, State after, long at) {
    }

    /** How many resyncs of each reason the injected faults can explain. */
    record Bounds(int databaseRestarts, Set<String> stalledSubscriptions, int replayLimit) {
    }

    final NavigableMap<Long, Row> rows = new TreeMap<>();
    /** Each subject's rows, by cursor. */
    final Map<String, NavigableMap<Long, Row>> rowsOf = new HashMap<>();
    final Map<String, SoakSubscription.Order> orders = new HashMap<>();
    /** Each server's delivery batches: first cursor to last. */
    final Map<String, NavigableMap<Long, Long>> batches = new HashMap<>();
    final List<String> violations = new ArrayList<>();
    final Map<String, AtomicLong> counts = new TreeMap<>();
    private final Map<String, State> history = new HashMap<>();
    private final Map<String, Long> writtenAt = new HashMap<>();

    private SoakOracle() {
    }

    /** Where the servers' batch logs are, one file per server ({@code SoakBatchLog}). */
    private static final Path BATCHES = Path.of("target", "soak-batches");

    /**
     * The batch log of the server {@code slot}, emptied of an earlier run's (whose cursors the new database reuses);
     * the server creates it and appends to it across its restarts.
     */
    static Path batchLog(String slot) {
        Path log = BATCHES.resolve(slot + ".txt");
        try {
            Files.createDirectories(BATCHES);
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return log;
    }

    /**
     * Installs the history trigger; call before the soak's first write, after the servers started. The batch logs
     * are kept: the servers hold them open, and a batch before the first write holds none of the soak's rows.
     */
    static void install() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            // No sequence here: EclipseLink reads a new order's IDENTITY id with lastval(), which a nextval() in this
            // trigger would answer instead (the orders then get the history's numbers as ids). Rows are ordered by
            // clock_timestamp(), then by their place in the table.
            s.execute("DROP TABLE IF EXISTS it_order_history");
            s.execute("CREATE TABLE it_order_history (at timestamptz NOT NULL DEFAULT clock_timestamp(),"
                    + " transaction_id bigint NOT NULL DEFAULT txid_current(), pk text NOT NULL, owner text, status text,"
                    + " deleted boolean NOT NULL)");
            s.execute("CREATE OR REPLACE FUNCTION it_order_history() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF TG_OP = 'DELETE' THEN"
                    + "  INSERT INTO it_order_history (pk, owner, status, deleted) VALUES (OLD.id::text, OLD.owner, OLD.status, true);"
                    + "  RETURN OLD;"
                    + " END IF;"
                    + " INSERT INTO it_order_history (pk, owner, status, deleted) VALUES (NEW.id::text, NEW.owner, NEW.status, false);"
                    + " RETURN NEW; END $$");
            s.execute("DROP TRIGGER IF EXISTS it_order_history ON store_order");
            s.execute("CREATE TRIGGER it_order_history AFTER INSERT OR UPDATE OR DELETE ON store_order"
                    + " FOR EACH ROW EXECUTE FUNCTION it_order_history()");
        }
    }

    /** Removes the trigger, so later tests write the orders' table as before. */
    static void uninstall() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS it_order_history ON store_order");
        }
    }

    /** Reads the rows assigned after {@code fromCursor}, the orders' history and state now, and the batches. */
    static SoakOracle read(long fromCursor) throws SQLException {
        SoakOracle oracle = new SoakOracle();
        try (Connection c = TestDatabase.connect()) {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT transaction_id, pk, owner, status, deleted,"
                         + " (extract(epoch FROM at) * 1000000)::bigint FROM it_order_history ORDER BY at, ctid")) {
                while (rs.next()) {
                    // The last write of a transaction to an order is its state after that transaction.
                    oracle.history.put(rs.getLong(1) + "/" + rs.getString(2), new State(rs.getString(3), rs.getString(4),
                            rs.getBoolean(5)));
                    oracle.writtenAt.put(rs.getLong(1) + "/" + rs.getString(2), rs.getLong(6));
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT cursor, subject_pk, op, changed_fields, transaction_id"
                    + " FROM streams_numbered WHERE model = ? AND cursor > ? ORDER BY cursor")) {
                s.setString(1, SoakSubscription.MODEL);
                s.setLong(2, fromCursor);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        Array fields = rs.getArray(4);
                        String pk = rs.getString(2);
                        long transaction = rs.getLong(5);
                        State after = oracle.history.get(transaction + "/" + pk);
                        if (after == null && oracle.rowsOf.containsKey(pk)) {
                            // A transaction that wrote only the order's lines (in SQL, or a line removed through the
                            // helper) left the order as the row before it did: cursors follow commits.
                            after = oracle.rowsOf.get(pk).lastEntry().getValue().after();
                        }
                        Row row = new Row(rs.getLong(1), pk, rs.getString(3), Arrays.asList((String[]) fields.getArray()),
                                transaction, after, oracle.writtenAt.getOrDefault(transaction + "/" + pk, Long.MIN_VALUE));
                        oracle.rows.put(row.cursor(), row);
                        oracle.rowsOf.computeIfAbsent(pk, k -> new TreeMap<>()).put(row.cursor(), row);
                    }
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, owner, status FROM store_order")) {
                while (rs.next()) {
                    SoakSubscription.Order order = new SoakSubscription.Order(rs.getString(1), rs.getString(2), rs.getString(3));
                    oracle.orders.put(order.pk(), order);
                }
            }
            try (java.util.stream.Stream<Path> logs = Files.list(BATCHES)) {
                for (Path log : logs.toList()) {
                    String server = log.getFileName().toString().replaceFirst("\\.txt$", "");
                    for (String line : Files.readAllLines(log)) {
                        String[] range = line.split(" ");
                        if (range.length == 2) {
                            oracle.batches.computeIfAbsent(server, k -> new TreeMap<>())
                                    .put(Long.parseLong(range[0]), Long.parseLong(range[1]));
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return oracle;
    }

    static long unassignedRows() throws SQLException {
        try (Connection c = TestDatabase.connect();
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM streams_numbered WHERE cursor IS NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean readable(String user, State state) {
        return state != null && !state.deleted() && (user.equals("carol") || state.owner().equals(user));
    }

    /** Whether the order, in {@code state}, is in the subscription's scope: readable by its user and matching. */
    static boolean matches(SoakSubscription subscription, String pk, State state) {
        if (!readable(subscription.user, state)) {
            return false;
        }
        return switch (subscription.kind) {
            case OBJECT -> pk.equals(subscription.argument);
            case MODEL -> true;
            case OWNER_FILTER -> state.owner().equals(subscription.argument);
            case STATUS_FILTER -> state.status().equals(subscription.argument);
        };
    }

    /** The states a subject can have been in when a row at or after {@code cursor} was delivered or replayed. */
    private List<State> statesFrom(String pk, long cursor) {
        return statesFrom(pk, cursor, Long.MAX_VALUE);
    }

    /**
     * The states a subject can have been in when a row at or after {@code cursor} was sent to a client that received
     * it at {@code received}: a transaction that wrote the order after that moment committed after it too, so the
     * server cannot have read the state it left (the history's time is taken inside the transaction, before its
     * commit; so is the client's after the read, on the same clock).
     */
    private List<State> statesFrom(String pk, long cursor, long received) {
        NavigableMap<Long, Row> of = rowsOf.getOrDefault(pk, new TreeMap<>());
        List<State> states = new ArrayList<>();
        Map.Entry<Long, Row> before = of.floorEntry(cursor);
        states.add(before == null ? null : before.getValue().after());
        of.tailMap(cursor, false).values().stream().filter(r -> r.at() <= received).forEach(r -> states.add(r.after()));
        return states;
    }

    /** The pks the subscription should hold now. */
    Set<String> expected(SoakSubscription subscription) {
        return orders.values().stream()
                .filter(o -> matches(subscription, o.pk(), new State(o.owner(), o.status(), false)))
                .map(SoakSubscription.Order::pk).collect(Collectors.toSet());
    }

    private void violation(String text) {
        violations.add(text);
    }

    private void count(String name, long by) {
        counts.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(by);
    }

    /**
     * G1 on the outbox itself: every row is a committed write of the orders' table (the history has its transaction;
     * a rolled-back write has none), and no committed soak write changes the note (only the failing writes do); a
     * subject is gone exactly when its last row is a delete.
     */
    void checkOutbox() {
        Map<String, Row> last = new HashMap<>();
        for (Row row : rows.values()) {
            if (row.op().equals("updated") && row.changedFields().contains("note")) {
                violation("[outbox] row " + row + " changes the note: a rolled-back write committed");
            }
            if (row.after() == null) {
                violation("[outbox] row " + row + " has no committed write of the order behind it (a rolled-back write?)");
            }
            last.put(row.pk(), row);
        }
        last.forEach((pk, row) -> {
            if (orders.containsKey(pk) == row.op().equals("deleted")) {
                violation("[outbox] order " + pk + " " + (orders.containsKey(pk) ? "exists" : "is gone")
                        + " but its last row is " + row);
            }
        });
    }

    /** Every rule of the soak for one subscription; counts what it saw. */
    void check(SoakSubscription subscription, Bounds bounds) {
        List<Seen> log = subscription.logCopy();
        String who = subscription.toString();
        if (!subscription.started()) {
            violation("[start] " + who + ": never started");
            return;
        }
        Walk walk = new Walk(subscription, who, bounds.replayLimit());
        List<Seen> episode = new ArrayList<>();
        for (Seen seen : log) {
            if (seen.type() == Seen.START) {
                if (!episode.isEmpty() && episode.get(0).type() == Seen.START) {
                    walk.episode(episode, seen.cursor());
                } else {
                    walk.prelude(episode);
                }
                episode = new ArrayList<>();
            }
            episode.add(seen);
        }
        if (!episode.isEmpty() && episode.get(0).type() == Seen.START) {
            walk.episode(episode, Long.MAX_VALUE);
        }
        walk.checkResyncs(bounds);
        Set<String> expected = expected(subscription);
        Set<String> view = subscription.viewCopy();
        if (!view.equals(expected)) {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(view);
            Set<String> extra = new HashSet<>(view);
            extra.removeAll(expected);
            // The first line is the verdict; the lines after it are its evidence, for a run whose database is gone.
            violation("[convergence] " + who + ": did not converge: missing " + SoakSubscription.describe(missing)
                    + ", extra " + SoakSubscription.describe(extra)
                    + ConvergenceReport.explain(this, subscription, missing, extra));
        }
    }

    /** Whether every subscription holds what the database says it should. */
    boolean converged(List<SoakSubscription> subscriptions) {
        return subscriptions.stream().allMatch(s -> s.started() && s.viewCopy().equals(expected(s)));
    }

    /** One subscription's log, episode by episode, with what the client holds. */
    private final class Walk {
        private final SoakSubscription subscription;
        private final String who;
        private final Set<String> held = new HashSet<>();
        /** After a refetch, until the next start: which subjects the server counts as members is not known... */
        private boolean uncertain;
        /** ...except for those an event has settled since. */
        private final Set<String> settled = new HashSet<>();
        /**
         * After a resume without members the server's set can only hold more than the client's (what entered before
         * it was read); after a refetch it can also hold less (the known race of carrying on, protocol.md).
         */
        private boolean afterRefetch;
        private final Map<String, Integer> resyncs = new TreeMap<>();
        private int startsWithoutMembers;
        private int starts;
        /** Starts whose replay was past streams.replay-limit: each explains a resync. */
        private int oversizedStarts;
        private final int replayLimit;

        Walk(SoakSubscription subscription, String who, int replayLimit) {
            this.subscription = subscription;
            this.who = who;
            this.replayLimit = replayLimit;
        }

        /** Whether the replay of (from, registered] is past the limit (protocol.md, reconnecting). */
        private boolean oversized(long from, long registered) {
            if (registered <= from) {
                return false;
            }
            if (subscription.kind == Kind.OBJECT) {
                return rowsOf.getOrDefault(subscription.argument, new TreeMap<>()).subMap(from, false, registered, true).size()
                        > replayLimit;
            }
            return registered - from > 10L * replayLimit
                    || rows.subMap(from, false, registered, true).values().stream().map(Row::pk).distinct().count() > replayLimit;
        }

        /** The first snapshot, before the first start. */
        void prelude(List<Seen> entries) {
            for (Seen seen : entries) {
                if (seen.type() == Seen.REFETCH) {
                    held.clear();
                    held.addAll(seen.set());
                }
            }
        }

        /** Whether the client held {@code pk} as far as the server knows: TRUE, FALSE, or null for unknown. */
        private Boolean belonged(String pk) {
            return uncertain && !settled.contains(pk) ? null : held.contains(pk);
        }

        /** One (re)subscribe: entries from its start to the next; {@code end} is the cursor the next resumes from. */
        void episode(List<Seen> entries, long end) {
            Seen start = entries.get(0);
            long from = start.cursor();
            Set<String> members = start.set();
            String server = start.extra();
            starts++;
            if (members == null && subscription.kind != Kind.OBJECT) {
                startsWithoutMembers++;
            }
            if (members != null) {
                held.clear();
                held.addAll(members);
            }
            // Without members the server starts from the set it reads itself, a moment after registering: which
            // orders it counts as the client's is known only as events settle them.
            uncertain = members == null && subscription.kind != Kind.OBJECT;
            afterRefetch = false;
            settled.clear();
            int i = 1;
            Long registered = null;
            // Refusals (unavailable, ...) and connections lost before subscribed: nothing more of this episode.
            while (i < entries.size() && registered == null) {
                Seen seen = entries.get(i++);
                if (seen.type() == Seen.SUBSCRIBED) {
                    registered = seen.cursor();
                    if (seen.extra() != null && Long.parseLong(seen.extra()) > from) {
                        violation("[subscribed-id] " + who + ": subscribed frame's id " + seen.extra()
                                + " is ahead of the cursor " + from + " the client resumed from");
                    }
                } else if (seen.type() == Seen.REFETCH) {
                    refetch(seen);
                } else {
                    violation("[order] " + who + ": " + seen + " before subscribed");
                }
            }
            if (registered == null) {
                return;
            }
            if (oversized(from, registered)) {
                oversizedStarts++;
            }
            if (subscription.kind == Kind.OBJECT) {
                held.clear();
                held.add(subscription.argument); // found visible at subscribe, or refused
            }
            Set<String> unreadable = new HashSet<>();
            while (i < entries.size() && entries.get(i).type() == Seen.UNREADABLE) {
                Seen seen = entries.get(i++);
                count("named members answered as unreadable", 1);
                boolean now = statesFrom(seen.pk(), registered, seen.received()).stream().anyMatch(s -> !readable(subscription.user, s));
                if (members == null || !members.contains(seen.pk()) || !unreadable.add(seen.pk()) || seen.cursor() != from
                        || !"removed".equals(seen.listAction()) || !now) {
                    violation("[unreadable] " + who + ": " + seen + " is not the one answer owed to a named member"
                            + " the user cannot read (resumed from " + from + ", members " + members + ")");
                }
                held.remove(seen.pk());
            }
            List<Seen> rest = entries.subList(i, entries.size());
            long position = from;
            boolean replayResynced = !rest.isEmpty() && rest.get(0).type() == Seen.RESYNC;
            // A server behind the client's cursor registers below it: nothing to replay, live from the client's cursor.
            if (subscription.kind != Kind.OBJECT && !replayResynced && registered > from) {
                int replayed = 0;
                while (replayed < rest.size() && rest.get(replayed).type() == Seen.EVENT
                        && rest.get(replayed).cursor() <= registered) {
                    replayed++;
                }
                replay(rest.subList(0, replayed), from, registered, end, members, unreadable);
                rest = rest.subList(replayed, rest.size());
                position = registered;
            }
            live(rest, position, end, server);
        }

        /** A filter or model subscription's replay of the rows in (from, registered]. */
        private void replay(List<Seen> events, long from, long registered, long end, Set<String> members,
                            Set<String> unreadable) {
            Map<String, Seen> sent = new HashMap<>();
            long floor = from;
            for (Seen event : events) {
                if (event.cursor() <= floor) {
                    violation("[order] " + who + ": replayed " + event + " after cursor " + floor);
                }
                floor = Math.max(floor, event.cursor());
                count("events", 1);
                if (sent.put(event.pk(), event) != null) {
                    violation("[duplicate] " + who + ": replay from " + from + " names " + event.pk() + " twice");
                }
            }
            Map<String, List<Row>> changed = new HashMap<>();
            for (Row row : rows.subMap(from, false, registered, true).values()) {
                changed.computeIfAbsent(row.pk(), k -> new ArrayList<>()).add(row);
            }
            for (Seen event : events) {
                if (!changed.containsKey(event.pk())) {
                    violation("[gap] " + who + ": replayed " + event + " names no change in (" + from + ", " + registered + "]");
                }
            }
            for (Map.Entry<String, List<Row>> entry : changed.entrySet()) {
                String pk = entry.getKey();
                List<Row> subject = entry.getValue();
                Row last = subject.get(subject.size() - 1);
                // Created since the cursor only when its first row there creates it: a pk deleted and restored under
                // its old id existed at the cursor, and the client may hold it (issue 40 item 3).
                boolean created = subject.get(0).op().equals("created");
                Boolean belonged = members == null ? null : members.contains(pk);
                Seen event = sent.get(pk);
                long received = event == null ? Long.MAX_VALUE : event.received();
                Set<String> allowed = new HashSet<>();
                for (State state : statesFrom(pk, last.cursor(), received)) {
                    if (matches(subscription, pk, state)) {
                        allowed.add(belonged == null ? (created ? "added" : "changed") : belonged ? "changed" : "added");
                    } else if (readable(subscription.user, state)) {
                        // Without members, a subject created since the cursor is never mentioned unless it matches.
                        allowed.add(belonged == null ? (created ? "none" : "removed") : belonged ? "removed" : "none");
                    } else {
                        allowed.add(belonged == null ? (created ? "none" : "resync") : belonged ? "unreadable" : "none");
                    }
                }
                if (Boolean.TRUE.equals(belonged) && allowed.contains("unreadable")
                        && statesFrom(pk, last.cursor(), received).stream().anyMatch(st -> readable(subscription.user, st))) {
                    // A named member is checked readable a moment after the set is read: readable then but not in
                    // the set, it is removed with its details, which were the user's to see at that moment.
                    allowed.add("removed");
                }
                String outcome = event != null ? event.listAction() : unreadable.contains(pk) ? "unreadable" : "none";
                if (outcome.equals("none") && last.cursor() > end) {
                    // The client left before the replay reached this subject, and resumed from a cursor before its
                    // latest change: the next replay owes it (with the fields changed after that cursor).
                    count("rows of a replay cut short, owed by the next", subject.size());
                    continue;
                }
                if (!allowed.contains(outcome)) {
                    violation((outcome.equals("none") ? "[gap] " : leakOrWrong(event, pk, last.cursor())) + who
                            + ": replay from " + from + " through " + registered + " answered " + pk + " with " + outcome
                            + (event == null ? "" : " " + event) + "; allowed " + allowed + " (rows " + subject + ")");
                }
                if (event != null) {
                    if (event.cursor() != last.cursor()) {
                        violation("[coalescing] " + who + ": replayed " + event + " not at its latest row " + last);
                    }
                    Set<String> fields = new HashSet<>();
                    subject.forEach(r -> fields.addAll(r.changedFields()));
                    if (event.op().equals("updated") && !event.changedFields().containsAll(fields)) {
                        violation("[coalescing] " + who + ": replayed " + event + " does not cover the fields of " + subject);
                    }
                    count(subject.size() > 1 ? "rows coalesced in a replay" : "rows replayed", subject.size());
                } else {
                    count("rows replay owed nothing", subject.size());
                }
                if (outcome.equals("added") || outcome.equals("changed")) {
                    held.add(pk);
                    settled.add(pk);
                } else if (!outcome.equals("none")) {
                    held.remove(pk);
                    settled.add(pk);
                }
            }
        }

        private String leakOrWrong(Seen event, String pk, long cursor) {
            boolean ever = statesFrom(pk, cursor, event == null ? Long.MAX_VALUE : event.received()).stream().anyMatch(s -> readable(subscription.user, s));
            return event != null && !ever ? "[leak] " : "[action] ";
        }

        /** Rows in (position, end] against the live entries, in arrival order. */
        private void live(List<Seen> entries, long position, long end, String server) {
            long refetched = Long.MIN_VALUE;
            for (Seen seen : entries) {
                switch (seen.type()) {
                    case Seen.EVENT -> {
                        count("events", 1);
                        if (seen.cursor() <= position) {
                            violation((seen.cursor() == position ? "[duplicate] " : "[order] ") + who + ": event " + seen
                                    + " after cursor " + position);
                            continue;
                        }
                        owed(position, seen.cursor(), refetched, server, seen.received());
                        position = seen.cursor();
                        delivered(seen);
                    }
                    case Seen.RESYNC -> {
                        resyncs.merge(seen.reason(), 1, Integer::sum);
                        if (seen.cursor() < position) {
                            violation("[order] " + who + ": resync " + seen + " after cursor " + position);
                        } else {
                            count("rows covered by a resync", rows.subMap(position, false, seen.cursor(), true).size());
                            position = seen.cursor();
                        }
                    }
                    case Seen.REFETCH -> {
                        refetch(seen);
                        refetched = Math.max(refetched, seen.cursor());
                    }
                    default -> violation("[order] " + who + ": " + seen + " in the middle of an episode");
                }
            }
            owed(position, end == Long.MAX_VALUE ? end : end + 1, refetched, server, Long.MAX_VALUE);
        }

        private void refetch(Seen seen) {
            held.clear();
            held.addAll(seen.set());
            uncertain = true;
            afterRefetch = true;
            settled.clear();
        }

        /**
         * The rows in (after, before) were not sent: each must be one the client was owed nothing for. The client
         * received what came next at {@code receivedBy} (its clock, as the rows' write times).
         */
        private void owed(long after, long before, long refetched, String server, long receivedBy) {
            if (before <= after + 1) {
                return;
            }
            Collection<Row> owed = subscription.kind == Kind.OBJECT
                    ? rowsOf.getOrDefault(subscription.argument, new TreeMap<>()).subMap(after, false, before, false).values()
                    : rows.subMap(after, false, before, false).values();
            for (Row row : owed) {
                if (row.cursor() <= refetched) {
                    count("rows covered by a refetch", 1);
                    continue;
                }
                // What is owed follows what the client holds; only after a refetch may the server hold less.
                Boolean belonged = afterRefetch ? belonged(row.pk()) : Boolean.valueOf(held.contains(row.pk()));
                boolean mayBeOutside = belonged == null || !belonged;
                if (row.op().equals("deleted")) {
                    if (!mayBeOutside) {
                        violation("[gap] " + who + ": the delete " + row + " of a held order was never sent");
                    }
                    continue;
                }
                if (mayBeOutside && statesFrom(row.pk(), row.cursor()).stream().anyMatch(s -> !matches(subscription, row.pk(), s))) {
                    continue;
                }
                if (supersededInBatch(row, server)) {
                    count("rows superseded by a delete in their own transaction", 1);
                    continue;
                }
                if (!seesEveryOrder() && (rewrittenInBatch(row, server) || rewrittenBefore(row, receivedBy))) {
                    // The state the server read cannot tell whether the user could see the order at this row: a later
                    // row of the batch, or one written before the fan-out read it, adds it or tells a holder of it,
                    // never this one (G8, G17); a row after which nothing deciding changed is never excused. Staff's
                    // model subscription sees every order while it exists, and is owed every row.
                    count("rows left to a later row of their batch", 1);
                    continue;
                }
                violation("[gap] " + who + ": " + row + " was never sent (held: " + belonged + "; " + server + "'s batch "
                        + batches.getOrDefault(server, new TreeMap<>()).floorEntry(row.cursor()) + ", the order's last row "
                        + rowsOf.get(row.pk()).lastKey() + ")");
            }
        }

        /** Whether the order's delete, in the same transaction as {@code row}, came after it: one state, never seen. */
        private boolean supersededInBatch(Row row, String server) {
            Map.Entry<Long, Row> delete = rowsOf.get(row.pk()).lastEntry();
            return delete.getValue().op().equals("deleted") && delete.getValue().transaction() == row.transaction()
                    && delete.getKey() > row.cursor();
        }

        /**
         * Whether a later transaction changed, within {@code row}'s delivery batch on {@code server}, what the soak's
         * scopes are decided by: the owner (visibility, owner filters) or the status (status filters), or deleted it.
         */
        private boolean rewrittenInBatch(Row row, String server) {
            Map.Entry<Long, Long> batch = batches.getOrDefault(server, new TreeMap<>()).floorEntry(row.cursor());
            if (batch == null || batch.getValue() < row.cursor()) {
                return false;
            }
            return rowsOf.get(row.pk()).subMap(row.cursor(), false, batch.getValue(), true).values().stream()
                    .anyMatch(later -> later.transaction() != row.transaction() && (!later.op().equals("updated")
                            || later.changedFields().contains("owner") || later.changedFields().contains("status")));
        }

        /**
         * Whether another transaction changed the order's owner or status, or deleted or created it, after {@code row}
         * and before {@code receivedBy}: the fan-out, which read the state after that, may have read that write too.
         */
        private boolean rewrittenBefore(Row row, long receivedBy) {
            return rowsOf.get(row.pk()).tailMap(row.cursor(), false).values().stream()
                    .anyMatch(later -> later.transaction() != row.transaction() && later.at() <= receivedBy
                            && (!later.op().equals("updated") || later.changedFields().contains("owner")
                            || later.changedFields().contains("status")));
        }

        /** Staff's model subscription: every order, whatever its state, while it exists. */
        private boolean seesEveryOrder() {
            return subscription.user.equals("carol") && subscription.kind == Kind.MODEL;
        }

        /** One live event against its row. */
        private void delivered(Seen event) {
            Row row = rows.get(event.cursor());
            if (row == null || !row.pk().equals(event.pk()) || !row.op().equals(event.op())) {
                violation("[gap] " + who + ": event " + event + " does not match the committed row " + row);
                return;
            }
            if (event.op().equals("updated") && event.changedFields().contains("note")) {
                violation("[outbox] " + who + ": event " + event + " carries a rolled-back change (note)");
            }
            if (!event.changedFields().containsAll(row.changedFields())) {
                violation("[action] " + who + ": event " + event + " lacks changed fields of " + row);
            }
            Boolean belonged = belonged(row.pk());
            List<State> states = statesFrom(row.pk(), row.cursor(), event.received());
            String action = event.listAction();
            boolean held = belonged == null || belonged;
            boolean outside = belonged == null || !belonged;
            Map.Entry<Long, Row> before = rowsOf.get(row.pk()).lowerEntry(row.cursor());
            if (action.equals("deleted") && before != null && !readable(subscription.user, before.getValue().after())) {
                // Issue 40 item 12: whoever lost sight of the order before its delete hears of that, never of the delete.
                violation("[leak] " + who + ": event " + event + " tells of the delete of an order the user could not read"
                        + " before it (" + before.getValue() + ")");
            }
            // An event that says the order matches must say so of the state the row left: the server reads what came
            // after the row (in its batch and since) and never tells a row as seen that a later change could have
            // hidden (G8, G17). A removal may be told at a row after which the order matches no longer.
            State left = states.get(0);
            boolean ok = switch (action) {
                case "deleted" -> row.op().equals("deleted") && held;
                case "added" -> outside && !row.op().equals("deleted") && matches(subscription, row.pk(), left);
                case "changed" -> held && !row.op().equals("deleted") && matches(subscription, row.pk(), left);
                case "removed" -> held && !row.op().equals("deleted") && states.stream().anyMatch(s -> !matches(subscription, row.pk(), s));
                default -> false;
            };
            if (!ok) {
                boolean readableEver = states.stream().anyMatch(s -> readable(subscription.user, s));
                String kind = (action.equals("added") || action.equals("changed")) && !readableEver ? "[leak] " : "[action] ";
                violation(kind + who + ": event " + event + " for " + row + " (held: " + belonged + ", states from then: "
                        + states + ")");
            }
            settled.add(row.pk());
            if (action.equals("added") || action.equals("changed")) {
                this.held.add(row.pk());
            } else {
                this.held.remove(row.pk());
            }
        }

        /** Resyncs per reason, within what the run's faults explain. */
        void checkResyncs(Bounds bounds) {
            resyncs.forEach((reason, n) -> count("resyncs:" + reason, n));
            // A resync whose members could not be read is followed by a second one once they are (protocol.md):
            // each fault, and each start without members, explains up to two.
            Map<String, Integer> limits = Map.of(
                    "slow_consumer", bounds.stalledSubscriptions().contains(subscription.id) ? 2 : 0,
                    "delivery_failed", 2 * bounds.databaseRestarts(),
                    "cursor_replay_unavailable", 2 * startsWithoutMembers + (subscription.kind == Kind.OBJECT ? 0 : oversizedStarts),
                    "cursor_pruned", 0,
                    "object_replay_limit_exceeded", subscription.kind == Kind.OBJECT ? oversizedStarts : 0);
            resyncs.forEach((reason, n) -> {
                if (n > limits.getOrDefault(reason, 0)) {
                    violation("[resyncs] " + who + ": " + n + " resyncs with reason " + reason + ", more than the "
                            + limits.getOrDefault(reason, 0) + " the run's faults explain (" + starts + " starts, "
                            + startsWithoutMembers + " without members, " + oversizedStarts + " past the replay limit)");
                }
            });
        }
    }

    static String kinds(Collection<String> violations) {
        return violations.stream().map(v -> v.substring(0, v.indexOf(']') + 1)).collect(Collectors.toCollection(java.util.TreeSet::new)).toString();
    }
}
