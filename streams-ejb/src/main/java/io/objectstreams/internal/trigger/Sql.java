package io.objectstreams.internal.trigger;

/** Quoting for the generated SQL. */
final class Sql {

    private Sql() {
    }

    /** A quoted identifier: the name exactly as the catalog holds it. */
    static String identifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A string literal. */
    static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }
}
