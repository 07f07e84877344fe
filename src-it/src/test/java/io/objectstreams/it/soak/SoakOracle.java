package io.objectstreams.it.soak;

import io.objectstreams.it.soak.SoakSubscription.Seen;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * What every client should have seen, read from the database after the run: the committed changes of the soak's
 * model in cursor order (the outbox holds exactly the committed writes, G1) and the final state of every order.
 * Owners never change in the soak, so who may read an order is fixed; alice and bob read their own, carol all.
 */
final class SoakOracle {

    record Row(long cursor, String pk, String op, List<String> changedFields) {
    }

    final NavigableMap<Long, Row> rows = new TreeMap<>();
    final Map<String, Row> deletes = new HashMap<>();
    /** The cursors of each subject's rows, in order. */
    final Map<String, TreeSet<Long>> rowsOf = new HashMap<>();
    final Map<String, SoakSubscription.Order> orders = new HashMap<>();
    final Map<String, String> owners = new HashMap<>();
    final List<String> violations = new ArrayList<>();
    final Map<String, AtomicLong> counts = new TreeMap<>();

    private SoakOracle() {
    }

    /** Reads the rows assigned after {@code fromCursor} and the orders now; {@code knownOwners} adds deleted orders' owners. */
    static SoakOracle read(long fromCursor, Map<String, String> knownOwners) throws SQLException {
        SoakOracle oracle = new SoakOracle();
        try (Connection c = TestDatabase.connect()) {
            try (PreparedStatement s = c.prepareStatement("SELECT cursor, subject_pk, op, changed_fields FROM streams_outbox"
                    + " WHERE model = ? AND cursor > ? ORDER BY cursor")) {
                s.setString(1, SoakSubscription.MODEL);
                s.setLong(2, fromCursor);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        Array fields = rs.getArray(4);
                        Row row = new Row(rs.getLong(1), rs.getString(2), rs.getString(3),
                                Arrays.asList((String[]) fields.getArray()));
                        oracle.rows.put(row.cursor(), row);
                        oracle.rowsOf.computeIfAbsent(row.pk(), pk -> new TreeSet<>()).add(row.cursor());
                        if (row.op().equals("deleted")) {
                            oracle.deletes.put(row.pk(), row);
                        }
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT id, owner, status FROM store_order");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    SoakSubscription.Order order = new SoakSubscription.Order(rs.getString(1), rs.getString(2), rs.getString(3));
                    oracle.orders.put(order.pk(), order);
                    oracle.owners.put(order.pk(), order.owner());
                }
            }
        }
        knownOwners.forEach(oracle.owners::putIfAbsent);
        return oracle;
    }

    static long unassignedRows() throws SQLException {
        try (Connection c = TestDatabase.connect();
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM streams_outbox WHERE cursor IS NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    boolean visible(String user, String pk) {
        String owner = owners.get(pk);
        return owner != null && (user.equals("carol") || owner.equals(user));
    }

    /** The pks the subscription should hold now. */
    Set<String> expected(SoakSubscription subscription) {
        return orders.values().stream()
                .filter(o -> visible(subscription.user, o.pk()) && subscription.scopeIncludes(o))
                .map(SoakSubscription.Order::pk).collect(Collectors.toSet());
    }

    private void violation(String text) {
        violations.add(text);
    }

    private void count(String name, long by) {
        counts.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(by);
    }

    /**
     * G1 on the outbox itself: no row of a write that rolled back (the soak's failing writes set the note, its
     * committed writes never change it); a subject is gone exactly when its last row is a delete; every subject has
     * a known owner (a rolled-back create's pk has none).
     */
    void checkOutbox() {
        Map<String, Row> last = new HashMap<>();
        for (Row row : rows.values()) {
            if (row.op().equals("updated") && row.changedFields().contains("note")) {
                violation("outbox: row " + row + " changes the note: a rolled-back write committed");
            }
            if (!owners.containsKey(row.pk())) {
                violation("outbox: row " + row + " names an order nobody created (a rolled-back create?)");
            }
            last.put(row.pk(), row);
        }
        last.forEach((pk, row) -> {
            if (orders.containsKey(pk) == row.op().equals("deleted")) {
                violation("outbox: order " + pk + " " + (orders.containsKey(pk) ? "exists" : "is gone")
                        + " but its last row is " + row);
            }
        });
    }

    /** Every rule of the soak for one subscription; counts what it saw. */
    void check(SoakSubscription subscription) {
        List<Seen> log = subscription.logCopy();
        String who = subscription.toString();
        TreeMap<Long, Seen> byCursor = new TreeMap<>();
        TreeMap<Long, Seen> resyncs = new TreeMap<>();
        Set<Long> delivered = new HashSet<>();
        long floor = Long.MIN_VALUE;
        for (Seen seen : log) {
            switch (seen.type()) {
                case Seen.EVENT -> {
                    count("events", 1);
                    Row row = rows.get(seen.cursor());
                    if (row == null) {
                        violation(who + ": event at cursor " + seen.cursor() + " for " + seen.pk() + " has no committed row");
                    } else if (!row.pk().equals(seen.pk()) || row.op().equals("deleted") != seen.op().equals("deleted")) {
                        violation(who + ": event " + seen + " does not match the committed row " + row);
                    }
                    if (!visible(subscription.user, seen.pk())) {
                        violation(who + ": event " + seen + " names an order " + subscription.user + " cannot read");
                    }
                    if (seen.op().equals("updated") && seen.changedFields().contains("note")) {
                        violation(who + ": event " + seen + " carries a rolled-back change (note)");
                    }
                    if (seen.cursor() <= floor) {
                        violation(who + ": event at " + seen.cursor() + " after " + floor + ": duplicate or out of order");
                    }
                    floor = Math.max(floor, seen.cursor());
                    byCursor.put(seen.cursor(), seen);
                    delivered.add(seen.cursor());
                }
                case Seen.RESYNC -> {
                    count("resyncs:" + seen.reason(), 1);
                    if (seen.cursor() < floor) {
                        violation(who + ": resync at " + seen.cursor() + " after " + floor + ": out of order");
                    }
                    floor = Math.max(floor, seen.cursor());
                    byCursor.putIfAbsent(seen.cursor(), seen);
                    resyncs.put(seen.cursor(), seen);
                }
                case Seen.UNREADABLE -> {
                    // At the resume's own cursor, before its replay: only for a pk gone or never readable (G8).
                    count("named members answered as unreadable", 1);
                    if (!seen.listAction().equals("removed") || orders.containsKey(seen.pk())
                            && visible(subscription.user, seen.pk())) {
                        violation(who + ": " + seen + " answers a named order the user can read as unreadable");
                    }
                }
                case Seen.REFETCH -> {
                    // The client holds the database as of this cursor; a client that carries on live may still be
                    // sent older events, so the floor stays where it is.
                    count("refetches", 1);
                    byCursor.putIfAbsent(seen.cursor(), seen);
                }
                default -> floor = Math.max(floor, seen.cursor());
            }
        }
        if (subscription.startCursor == null) {
            violation(who + ": never started");
            return;
        }
        if (subscription.staticScope()) {
            for (Row row : rows.tailMap(subscription.startCursor, false).values()) {
                if (delivered.contains(row.cursor()) || !visible(subscription.user, row.pk()) || !inStaticScope(subscription, row.pk())) {
                    continue;
                }
                String coverage = coverage(row, byCursor, resyncs, delivered);
                if (coverage != null) {
                    count(coverage, 1);
                } else {
                    Map.Entry<Long, Seen> next = byCursor.ceilingEntry(row.cursor());
                    violation(who + ": gap: " + row + " was never delivered nor covered by a resync; next message: "
                            + (next == null ? "none" : next.getValue()));
                }
            }
        }
        Set<String> expected = expected(subscription);
        Set<String> view = subscription.viewCopy();
        if (!view.equals(expected)) {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(view);
            Set<String> extra = new HashSet<>(view);
            extra.removeAll(expected);
            violation(who + ": did not converge: missing " + SoakSubscription.describe(missing) + ", extra "
                    + SoakSubscription.describe(extra));
        }
    }

    /**
     * How a row the subscription was not sent is accounted for, or {@code null} for a gap. Cursors only grow on the
     * wire, so the first message at or after a row is the one at its ceiling:
     * <ul>
     * <li>a resync there names the row, or a refetch after a resync read the database past it;</li>
     * <li>a later delete of the subject supersedes it;</li>
     * <li>otherwise the row may have been coalesced into a later change of the same subject (a replay sends each
     * subject once, at its latest cursor), with no resync in between: that change was sent, or is itself named by
     * the resync at its ceiling. The second case is a replay cut short: the client left before the replay reached
     * the subject, resumed from a cursor past the row, and was owed the subject's latest change from there.</li>
     * </ul>
     */
    private String coverage(Row row, NavigableMap<Long, Seen> byCursor, NavigableMap<Long, Seen> resyncs, Set<Long> delivered) {
        Map.Entry<Long, Seen> first = byCursor.ceilingEntry(row.cursor());
        if (first != null && first.getValue().type() == Seen.RESYNC) {
            return "rows covered by a resync";
        }
        if (first != null && first.getValue().type() == Seen.REFETCH) {
            return "rows covered by a refetch";
        }
        Row delete = deletes.get(row.pk());
        if (delete != null && delete.cursor() >= row.cursor()) {
            return "rows superseded by a delete";
        }
        for (Long later : rowsOf.get(row.pk()).tailSet(row.cursor(), false)) {
            if (!resyncs.subMap(row.cursor(), true, later, false).isEmpty()) {
                return null;
            }
            if (delivered.contains(later)) {
                return "rows coalesced into a later event";
            }
            Map.Entry<Long, Seen> atLater = byCursor.ceilingEntry(later);
            if (atLater != null && atLater.getValue().type() != Seen.EVENT) {
                return "rows coalesced into a later change a resync covers";
            }
        }
        return null;
    }

    private boolean inStaticScope(SoakSubscription subscription, String pk) {
        return switch (subscription.kind) {
            case OBJECT -> pk.equals(subscription.argument);
            case MODEL -> true;
            case OWNER_FILTER -> subscription.argument.equals(owners.get(pk));
            case STATUS_FILTER -> false;
        };
    }

    /** Whether every subscription holds what the database says it should. */
    boolean converged(List<SoakSubscription> subscriptions) {
        return subscriptions.stream().allMatch(s -> s.started() && s.viewCopy().equals(expected(s)));
    }
}
