package io.objectstreams.internal.trigger;

import java.sql.SQLException;

/** Quoting for the generated SQL, and how a failed statement is named where its text must not go. */
final class Sql {

    private Sql() {
    }

    /** A quoted identifier: the name exactly as the catalog holds it. */
    static String identifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * A failure as a log line or health may name it: the SQLState, or the exception's kind. Never the message, which
     * can name hosts and SQL, and health is public.
     */
    static String failure(Exception e) {
        return e instanceof SQLException sql && sql.getSQLState() != null ? "SQLState " + sql.getSQLState()
                : e.getClass().getSimpleName();
    }

    /** A string literal. */
    static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }
}
