package io.objectstreams.internal.schema;

/** One versioned schema change, read from a SQL resource beside this class. */
record Migration(int version, String description, String resource) {

    static Migration of(int version, String description) {
        return new Migration(version, description, "V" + version + "__" + description + ".sql");
    }
}
