package io.objectstreams.it.soak;

import io.objectstreams.it.soak.SoakOracle.Row;
import io.objectstreams.it.soak.SoakOracle.State;
import io.objectstreams.it.soak.SoakSubscription.Seen;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The evidence a {@code [convergence]} violation carries, so that a failure of a 25-minute soak explains itself after
 * the run's database is gone. For each missing or extra pk (the first {@link #PKS}) it adds {@code [soak]} lines:
 * <ol>
 * <li>the truth: the pk's outbox rows since the run began (the last {@link #TRUTH}), each with its cursor, op,
 * changed fields, transaction, write time, the order's owner and status (or delete) after it, whether that state is
 * in the subscription's scope, and the delivery batch that held it on each server;</li>
 * <li>what the subscription saw of it: the events naming the pk and the refetches that changed whether the client
 * held it (the last {@link #ABOUT_PK}), with whether the client held it after each;</li>
 * <li>around the row that decided the pk's membership last (the cursor X below): every start (cursor, members,
 * server), {@code subscribed} (cursor, SSE {@code id:}), resync and refetch of the log, and every entry of the
 * {@link SoakJournal} (connection opened on which server and how it resumed, e.g. with {@code Last-Event-ID},
 * refused, ended and why with the last {@code id:} read, refetch reads, error frames), from the episode before
 * the last one that owed X on (at most {@link #AROUND}: the first ones and the last ones), and the two events of
 * the episode that owed X whose cursors enclose it.</li>
 * </ol>
 * Times are the wall clock in UTC, microseconds: the rows' write times and the client's receive times share it.
 */
final class ConvergenceReport {

    /** Missing and extra pks explained per violation, at most. */
    static final int PKS = 3;
    /** Rows of the truth per pk, at most (the last ones). */
    static final int TRUTH = 30;
    /** Entries about the pk per pk, at most (the last ones). */
    static final int ABOUT_PK = 30;
    /** Lifecycle entries per pk, at most: the first {@code AROUND - TAIL} of the window and the last {@link #TAIL}. */
    static final int AROUND = 40;
    private static final int TAIL = 10;

    private static final String HEAD = "\n[soak]     ";
    private static final String LINE = "\n[soak]       ";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

    /** One entry of the subscription's story: a log entry ({@code seen}) or a journal entry ({@code noted}). */
    private record Item(Seen seen, SoakJournal.Entry noted) {
        long cursor() {
            return seen == null ? Long.MIN_VALUE : seen.cursor();
        }

        boolean is(char type) {
            return seen != null && seen.type() == type;
        }
    }

    private final SoakOracle oracle;
    private final SoakSubscription subscription;
    private final List<Item> story = new ArrayList<>();
    private final long dropped;

    private ConvergenceReport(SoakOracle oracle, SoakSubscription subscription) {
        this.oracle = oracle;
        this.subscription = subscription;
        // The journal's entries go where they were recorded: before the log entry at their position.
        List<Seen> log = subscription.logCopy();
        List<SoakJournal.Entry> journal = subscription.journal.copy();
        int j = 0;
        for (int i = 0; i <= log.size(); i++) {
            while (j < journal.size() && journal.get(j).position() <= i) {
                story.add(new Item(null, journal.get(j++)));
            }
            if (i < log.size()) {
                story.add(new Item(log.get(i), null));
            }
        }
        dropped = subscription.journal.dropped();
    }

    /**
     * The detail lines for a subscription that did not converge, each starting on a new line; a failure of the report
     * itself is one line, never an exception that would hide the violation.
     */
    static String explain(SoakOracle oracle, SoakSubscription subscription, Set<String> missing, Set<String> extra) {
        try {
            return text(oracle, subscription, missing, extra);
        } catch (RuntimeException e) {
            return HEAD + "(the evidence could not be gathered: " + e + ")";
        }
    }

    private static String text(SoakOracle oracle, SoakSubscription subscription, Set<String> missing,
                               Set<String> extra) {
        ConvergenceReport report = new ConvergenceReport(oracle, subscription);
        StringBuilder out = new StringBuilder();
        List<String> pks = Stream.concat(new TreeSet<>(missing).stream(), new TreeSet<>(extra).stream()).toList();
        pks.stream().limit(PKS).forEach(pk -> report.explain(out, pk, missing.contains(pk) ? "missing" : "extra"));
        if (pks.size() > PKS) {
            out.append(HEAD).append(pks.size() - PKS).append(" more pks not explained");
        }
        if (report.dropped > 0) {
            out.append(HEAD).append("the journal dropped its ").append(report.dropped).append(" oldest entries");
        }
        return out.toString();
    }

    private void explain(StringBuilder out, String pk, String which) {
        NavigableMap<Long, Row> rows = oracle.rowsOf.getOrDefault(pk, new TreeMap<>());
        SoakSubscription.Order now = oracle.orders.get(pk);
        out.append(HEAD).append("pk ").append(pk).append(" (").append(which).append("), now ")
                .append(now == null ? "gone" : now.owner() + "/" + now.status())
                .append("; its rows since the run began (")
                .append(Math.min(TRUTH, rows.size())).append(" of ").append(rows.size()).append(", the last):");
        rows.values().stream().skip(Math.max(0, rows.size() - TRUTH))
                .forEach(row -> out.append(LINE).append(row(pk, row)));
        Long decisive = decisive(pk, rows);
        story(out, pk, decisive);
    }

    private String row(String pk, Row row) {
        StringBuilder text = new StringBuilder(time(row.at())).append(" cursor ").append(row.cursor()).append(' ')
                .append(row.op()).append(' ').append(row.changedFields()).append(" tx ").append(row.transaction())
                .append(" -> ").append(state(row.after()))
                .append(SoakOracle.matches(subscription, pk, row.after()) ? ", in scope" : ", out of scope");
        oracle.batches.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(server -> {
            Map.Entry<Long, Long> batch = server.getValue().floorEntry(row.cursor());
            if (batch != null && batch.getValue() >= row.cursor()) {
                text.append("; ").append(server.getKey()).append(" batch ").append(batch.getKey()).append("..")
                        .append(batch.getValue());
            }
        });
        return text.toString();
    }

    /**
     * The cursor of the last row that moved the pk into or out of the subscription's scope (a creation in scope
     * counts), else of its last row; {@code null} when it has none since the run began.
     */
    private Long decisive(String pk, NavigableMap<Long, Row> rows) {
        Long decisive = null;
        Boolean before = null;
        for (Row row : rows.values()) {
            boolean in = SoakOracle.matches(subscription, pk, row.after());
            if (before == null ? in && row.op().equals("created") : before != in) {
                decisive = row.cursor();
            }
            before = in;
        }
        return decisive == null && !rows.isEmpty() ? rows.lastKey() : decisive;
    }

    /** The subscription's side: entries about the pk, the lifecycle around {@code decisive}, its enclosing events. */
    private void story(StringBuilder out, String pk, Long decisive) {
        Set<Integer> aboutPk = aboutPk(pk);
        int owing = owing(decisive);
        List<Integer> lifecycle = new ArrayList<>();
        for (int i = windowFrom(owing); i < story.size(); i++) {
            if (!story.get(i).is(Seen.EVENT) && !story.get(i).is(Seen.UNREADABLE)) {
                lifecycle.add(i);
            }
        }
        Set<Integer> shown = new TreeSet<>(aboutPk.stream().skip(Math.max(0, aboutPk.size() - ABOUT_PK)).toList());
        Integer gap = null;
        if (lifecycle.size() > AROUND) {
            shown.addAll(lifecycle.subList(0, AROUND - TAIL));
            shown.addAll(lifecycle.subList(lifecycle.size() - TAIL, lifecycle.size()));
            gap = lifecycle.get(AROUND - TAIL);
        } else {
            shown.addAll(lifecycle);
        }
        shown.addAll(enclosing(owing, decisive));
        out.append(HEAD).append("what ").append(subscription).append(" saw: ")
                .append(Math.min(ABOUT_PK, aboutPk.size()))
                .append(" of ").append(aboutPk.size()).append(" entries about ").append(pk).append(" (the last); ")
                .append(Math.min(AROUND, lifecycle.size())).append(" of ").append(lifecycle.size())
                .append(" starts, subscribed, resyncs, refetches and connections")
                .append(decisive == null ? " since it began"
                        : " from the episode before the last that owed cursor " + decisive)
                .append(":");
        for (int i : shown) {
            if (gap != null && i >= gap) {
                out.append(LINE).append("... ").append(lifecycle.size() - AROUND).append(" of those not shown ...");
                gap = null;
            }
            out.append(LINE).append(describe(story.get(i), pk, aboutPk.contains(i)));
        }
    }

    /**
     * The entries about the pk: the events and unreadable answers naming it, and the refetches that changed whether
     * the client held it (the view as {@link SoakSubscription} keeps it, replayed over the log).
     */
    private Set<Integer> aboutPk(String pk) {
        Set<Integer> about = new TreeSet<>();
        boolean held = false;
        for (int i = 0; i < story.size(); i++) {
            Seen seen = story.get(i).seen();
            if (seen == null) {
                continue;
            }
            boolean names = pk.equals(seen.pk()) && (seen.type() == Seen.EVENT || seen.type() == Seen.UNREADABLE);
            boolean holds = names ? holds(seen) : seen.type() == Seen.REFETCH ? seen.set().contains(pk) : held;
            if (names || holds != held) {
                about.add(i);
            }
            held = holds;
        }
        return about;
    }

    private static boolean holds(Seen event) {
        return event.type() == Seen.EVENT && List.of("added", "changed").contains(event.listAction());
    }

    /** The last start from a cursor before {@code decisive}: the last episode that owed that row; -1 when none. */
    private int owing(Long decisive) {
        int owing = -1;
        for (int i = 0; decisive != null && i < story.size(); i++) {
            if (story.get(i).is(Seen.START) && story.get(i).cursor() < decisive) {
                owing = i;
            }
        }
        return owing;
    }

    /**
     * Where the lifecycle shown begins: at the start before {@code owing}, for context, with up to three journal
     * entries just before it (a WebSocket opens before its subscribes start); from the beginning when nothing owed
     * the row.
     */
    private int windowFrom(int owing) {
        if (owing < 0) {
            return 0;
        }
        int from = owing;
        for (int i = owing - 1; i >= 0; i--) {
            if (story.get(i).is(Seen.START)) {
                from = i;
                break;
            }
        }
        for (int k = 0; k < 3 && from > 0 && story.get(from - 1).noted() != null; k++) {
            from--;
        }
        return from;
    }

    /** In the episode that owed {@code decisive}: the last event below it before the first above it, and that one. */
    private List<Integer> enclosing(int owing, Long decisive) {
        List<Integer> found = new ArrayList<>();
        if (owing < 0) {
            return found;
        }
        Integer below = null;
        for (int i = owing + 1; i < story.size() && !story.get(i).is(Seen.START); i++) {
            if (story.get(i).is(Seen.EVENT) && story.get(i).cursor() < decisive) {
                below = i;
            } else if (story.get(i).is(Seen.EVENT) && story.get(i).cursor() > decisive) {
                found.add(i);
                break;
            }
        }
        if (below != null) {
            found.add(below);
        }
        return found;
    }

    private String describe(Item item, String pk, boolean aboutPk) {
        if (item.noted() != null) {
            SoakJournal.Entry e = item.noted();
            return time(e.at()) + " " + e.what().name().toLowerCase(Locale.ROOT) + " " + e.server() + ": " + e.detail();
        }
        Seen s = item.seen();
        String text = switch (s.type()) {
            case Seen.EVENT -> "event cursor " + s.cursor() + " " + s.pk() + " " + s.op() + "/" + s.listAction() + " "
                    + s.changedFields();
            case Seen.UNREADABLE -> "unreadable answer at cursor " + s.cursor() + " " + s.pk() + " " + s.listAction();
            case Seen.START -> "start from cursor " + s.cursor() + " on " + s.extra() + ", members "
                    + (s.set() == null ? "none"
                            : s.set().size() + (s.set().contains(pk) ? " with " : " without ") + pk);
            case Seen.SUBSCRIBED -> "subscribed at cursor " + s.cursor()
                    + (s.extra() == null ? "" : ", id: " + s.extra());
            case Seen.RESYNC -> "resync_required at cursor " + s.cursor() + ": " + s.reason();
            case Seen.REFETCH -> "refetch as of cursor " + s.cursor() + ": " + s.set().size() + " orders, "
                    + (s.set().contains(pk) ? "with " : "without ") + pk;
            default -> s.toString();
        };
        if (aboutPk) {
            boolean holds = s.type() == Seen.REFETCH ? s.set().contains(pk) : holds(s);
            text += holds ? " -> holds " + pk : " -> does not hold " + pk;
        }
        return time(s.received()) + " " + text;
    }

    private static String state(State state) {
        if (state == null) {
            return "state unknown";
        }
        String owned = state.owner() + "/" + state.status();
        return state.deleted() ? "deleted (was " + owned + ")" : owned;
    }

    private static String time(long micros) {
        return micros == Long.MIN_VALUE ? "(time unknown)" : TIME.format(Instant.EPOCH.plus(micros, ChronoUnit.MICROS));
    }
}
