package io.objectstreams.it.support.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The random world of the visibility equivalence test ({@link VisibilityEquivalenceResource}), written with plain
 * SQL: {@link ItDoc} documents with owners, tenants, readers and folders ({@link ItFolder}), any of which may be
 * missing; the writes of a batch that move some of them; and the world as it is now, read back for the rule's own
 * answer.
 */
final class DocWorld {

    static final List<String> NAMES = List.of("u1", "u2", "u3", "u4", "u5", "u6", "alice", "bob");
    static final List<String> STATUSES = List.of("open", "shipped", "draft");
    static final int DOCUMENTS = 60;
    private static final int FOLDERS = 5;

    /** A document as it is now: {@code folderTenant} is null when it is in no folder, or its folder has no tenant. */
    record Doc(String owner, Long tenant, Long folderTenant, Set<String> readers) {
    }

    private DocWorld() {
    }

    static void write(DataSource dataSource, Random random) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM it_doc_reader");
                s.execute("DELETE FROM it_doc");
                s.execute("DELETE FROM it_folder");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO it_folder (id, tenant) VALUES (?, ?)")) {
                for (int id = 1; id <= FOLDERS; id++) {
                    insert.setLong(1, id);
                    setOrNull(insert, 2, random.nextInt(5) == 0 ? null : Long.valueOf(1 + random.nextInt(4)));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO it_doc (id, owner, tenant, status, amount,"
                    + " folder_id) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (int id = 1; id <= DOCUMENTS; id++) {
                    insert.setLong(1, id);
                    setOrNull(insert, 2, random.nextInt(8) == 0 ? null : NAMES.get(random.nextInt(NAMES.size())));
                    setOrNull(insert, 3, random.nextInt(6) == 0 ? null : Long.valueOf(1 + random.nextInt(4)));
                    boolean noStatus = random.nextInt(10) == 0;
                    setOrNull(insert, 4, noStatus ? null : STATUSES.get(random.nextInt(STATUSES.size())));
                    insert.setInt(5, random.nextInt(100));
                    // A quarter of the documents are in no folder: the NULL link keyed policies must read through.
                    setOrNull(insert, 6, random.nextInt(4) == 0 ? null : Long.valueOf(1 + random.nextInt(FOLDERS)));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            writeReaders(c, random);
        }
    }

    private static void writeReaders(Connection c, Random random) throws SQLException {
        String sql = "INSERT INTO it_doc_reader (doc_id, reader) VALUES (?, ?)";
        try (PreparedStatement insert = c.prepareStatement(sql)) {
            for (int id = 1; id <= DOCUMENTS; id++) {
                for (String reader : randomReaders(random)) {
                    insert.setLong(1, id);
                    insert.setString(2, reader);
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
    }

    /** None to three readers, most often none or one. */
    private static Set<String> randomReaders(Random random) {
        Set<String> readers = new HashSet<>();
        for (int n = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : random.nextInt(2); n > 0; n--) {
            readers.add(NAMES.get(random.nextInt(NAMES.size())));
        }
        return readers;
    }

    /** The writes of the batch: documents that move to another owner, tenant or folder, or go away, after the draw. */
    static void move(DataSource dataSource, Random random) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            for (int i = 0; i < 5; i++) {
                long id = 1 + random.nextInt(DOCUMENTS);
                switch (random.nextInt(7)) {
                    case 0 -> s.executeUpdate("UPDATE it_doc SET owner = '" + NAMES.get(random.nextInt(NAMES.size()))
                            + "' WHERE id = " + id);
                    case 1 -> s.executeUpdate("UPDATE it_doc SET tenant = " + (1 + random.nextInt(4))
                            + " WHERE id = " + id);
                    // A reader given or taken away: the document moves between viewers through the join.
                    case 2 -> s.executeUpdate("INSERT INTO it_doc_reader (doc_id, reader) SELECT " + id + ", '"
                            + NAMES.get(random.nextInt(NAMES.size())) + "' FROM it_doc WHERE id = " + id);
                    case 3 -> s.executeUpdate("DELETE FROM it_doc_reader WHERE doc_id = " + id);
                    // Into another folder or out of every folder: it moves between tenants through the link.
                    case 4 -> s.executeUpdate("UPDATE it_doc SET folder_id = " + (random.nextBoolean() ? "NULL"
                            : String.valueOf(1 + random.nextInt(FOLDERS))) + " WHERE id = " + id);
                    case 5 -> s.executeUpdate("UPDATE it_folder SET tenant = " + (random.nextInt(3) == 0 ? "NULL"
                            : String.valueOf(1 + random.nextInt(4))) + " WHERE id = " + (1 + random.nextInt(FOLDERS)));
                    default -> {
                        s.executeUpdate("DELETE FROM it_doc_reader WHERE doc_id = " + id);
                        s.executeUpdate("DELETE FROM it_doc WHERE id = " + id);
                    }
                }
            }
        }
    }

    /** Every document as it is now, by pk. */
    static Map<String, Doc> read(DataSource dataSource) throws SQLException {
        Map<String, Set<String>> readers = new HashMap<>();
        Map<String, Doc> docs = new HashMap<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rows = s.executeQuery("SELECT doc_id, reader FROM it_doc_reader")) {
                while (rows.next()) {
                    readers.computeIfAbsent(rows.getString(1), k -> new HashSet<>()).add(rows.getString(2));
                }
            }
            try (ResultSet rows = s.executeQuery("SELECT d.id, d.owner, d.tenant, f.tenant FROM it_doc d"
                    + " LEFT JOIN it_folder f ON f.id = d.folder_id")) {
                while (rows.next()) {
                    String pk = rows.getString(1);
                    docs.put(pk, new Doc(rows.getString(2), (Long) rows.getObject(3), (Long) rows.getObject(4),
                            readers.getOrDefault(pk, Set.of())));
                }
            }
        }
        return docs;
    }

    private static void setOrNull(PreparedStatement insert, int index, String value) throws SQLException {
        if (value == null) {
            insert.setNull(index, Types.VARCHAR);
        } else {
            insert.setString(index, value);
        }
    }

    private static void setOrNull(PreparedStatement insert, int index, Long value) throws SQLException {
        if (value == null) {
            insert.setNull(index, Types.BIGINT);
        } else {
            insert.setLong(index, value);
        }
    }
}
