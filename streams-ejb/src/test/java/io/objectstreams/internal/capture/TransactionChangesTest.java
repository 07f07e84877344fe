package io.objectstreams.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.EventOperation;
import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsException;
import io.objectstreams.Streamed;
import io.objectstreams.internal.outbox.OutboxRow;
import io.objectstreams.internal.outbox.OutboxWriter;
import io.objectstreams.internal.outbox.WakeupNotifier;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.persistence.internal.weaving.PersistenceWeaved;
import org.junit.jupiter.api.Test;

/** Which connection a transaction's rows go through; the SQL itself is covered by the integration tests. */
class TransactionChangesTest {

    @Entity
    @Streamed(model = "test.Plain")
    static class Plain {
        @Id
        Long id;
        String name;
    }

    /** What EclipseLink's weaving makes of an entity class: it implements EclipseLink's own interfaces. */
    @Entity
    @Streamed(model = "test.Woven")
    static class Woven implements PersistenceWeaved {
        @Id
        Long id;
        String name;
    }

    /** Records each write and the connection it went through ({@code null}: the completion path). */
    static class RecordingWriter extends OutboxWriter {
        final List<List<OutboxRow>> batches = new ArrayList<>();
        final List<Connection> connections = new ArrayList<>();

        @Override
        public void insert(List<OutboxRow> rows, Connection connection) {
            batches.add(rows);
            connections.add(connection);
        }

        /** Each completion of the trigger rows: the connection, and the subjects whose parts' rows are dropped. */
        final List<String> completions = new ArrayList<>();
        boolean autocommitAtCompletion;

        @Override
        public void completeTriggerRows(Connection connection, String actor, String correlationId,
                                        java.util.Collection<Subject> bornOrGone) {
            completions.add(connection + " " + actor + " " + bornOrGone.stream().map(Subject::pk).toList());
        }

        @Override
        public boolean completeTriggerRowsAtCompletion(String actor, String correlationId,
                                                       java.util.Collection<Subject> bornOrGone) {
            if (autocommitAtCompletion) {
                return false;
            }
            completeTriggerRows(null, actor, correlationId, bornOrGone);
            return true;
        }

        @Override
        public void insertAtCompletion(List<OutboxRow> rows) {
            insert(rows, null);
        }
    }

    /** A part of {@link Plain}, reported on it as facet {@code parts}. */
    @Entity
    @Streamed(subject = "holder", facet = "parts")
    static class Part {
        @Id
        Long id;
        @jakarta.persistence.ManyToOne
        Plain holder;
    }

    private final PartSubjects partSubjects = new PartSubjects();
    private final RecordingWriter writer = new RecordingWriter();
    private final TransactionChanges changes = new TransactionChanges(writer, new WakeupNotifier(), refused -> false,
            "test.Woven"::equals, partSubjects);
    /** Stands for EclipseLink's connection: only its identity matters here. */
    private final Connection provider = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> "the provider's connection";
                default -> throw new UnsupportedOperationException(method.getName());
            });

    @Test
    void aPartDeletedAfterTheHelperNulledItsSubjectIsReportedOnTheSubjectItLeft() {
        Part part = part(5, plain(1));
        changes.loaded(part);
        part.holder = null;

        changes.entityChanged(part, EventOperation.DELETED, null, null);
        changes.beforeCompletion();

        assertThat(writer.batches.get(0)).extracting(OutboxRow::model, OutboxRow::pk, OutboxRow::facet)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("test.Plain", "1", "parts"));
    }

    @Test
    void aPartMovedThenDeletedIsReportedOnBothSubjects() {
        Part part = part(5, plain(1));
        changes.loaded(part);
        part.holder = plain(2);

        changes.entityChanged(part, EventOperation.DELETED, null, null);
        changes.beforeCompletion();

        assertThat(writer.batches.get(0)).extracting(OutboxRow::pk).containsExactlyInAnyOrder("1", "2");
    }

    @Test
    void aPartLoadedInAnEarlierTransactionIsReportedOnTheSubjectItLeft() {
        Part part = part(5, plain(1));
        partSubjects.remember(part, new OutboxWriter.Subject("test.Plain", "1"));
        part.holder = plain(2);

        changes.entityChanged(part, EventOperation.UPDATED, null, null);
        changes.beforeCompletion();

        assertThat(writer.batches.get(0)).extracting(OutboxRow::pk).containsExactlyInAnyOrder("1", "2");
        assertThat(partSubjects.lastKnown(part)).isEqualTo(new OutboxWriter.Subject("test.Plain", "2"));
    }

    @Test
    void aPartAttachedToNothingBeforeAndAfterReportsNothingAndFailsNothing() {
        Part part = part(5, null);

        changes.entityChanged(part, EventOperation.CREATED, null, null);
        changes.beforeCompletion();

        assertThat(writer.batches).isEmpty();
    }

    @Test
    void partSubjectsForgetsAPartOnceNothingElseHoldsIt() throws InterruptedException {
        PartSubjects subjects = new PartSubjects();
        subjects.remember(part(5, null), new OutboxWriter.Subject("test.Plain", "1"));
        for (int i = 0; i < 50 && subjects.size() > 0; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(subjects.size()).isZero();
    }

    @Test
    void rowsGoThroughTheProvidersConnectionWhenItCommitsAndNothingIsLeftForCompletion() {
        changes.entityChanged(woven(1), EventOperation.CREATED, "alice", null);
        changes.published(SourceEvent.updated("test.Other", 7, "x"), "alice", null);

        changes.writeThrough(provider);
        changes.beforeCompletion();

        assertThat(writer.connections).containsExactly(provider);
        assertThat(writer.batches.get(0)).extracting(OutboxRow::pk).containsExactly("1", "7");
    }

    @Test
    void whatIsRecordedAfterTheProviderCommitGoesThroughTheCompletionPath() {
        changes.entityChanged(woven(1), EventOperation.CREATED, null, null);
        changes.writeThrough(provider);
        changes.published(SourceEvent.updated("test.Other", 7, "x"), null, null);

        changes.beforeCompletion();

        assertThat(writer.connections).containsExactly(provider, null);
        assertThat(writer.batches.get(1)).extracting(OutboxRow::pk).containsExactly("7");
    }

    @Test
    void withoutAProviderHookUnwovenEntitiesAndPublishedEventsUseTheCompletionPathInOneBatch() {
        changes.entityChanged(plain(1), EventOperation.CREATED, null, null);
        changes.entityChanged(plain(2), EventOperation.DELETED, null, null);
        changes.published(SourceEvent.updated("test.Other", 7, "x"), null, null);

        changes.beforeCompletion();

        assertThat(writer.connections).containsExactly((Connection) null);
        assertThat(writer.batches.get(0)).extracting(OutboxRow::pk).containsExactly("1", "2", "7");
    }

    @Test
    void aWovenEntityStillPendingAtCompletionMeansTheHookIsMissingAndFailsTheTransaction() {
        changes.entityChanged(woven(1), EventOperation.CREATED, null, null);

        assertThatThrownBy(changes::beforeCompletion)
                .isInstanceOfSatisfying(StreamsException.class, e -> assertThat(e.code()).isEqualTo("capture_not_configured"))
                .hasMessageContaining("eclipselink.session-event-listener")
                .hasMessageContaining("io.objectstreams.capture.EclipseLinkCapture");
        assertThat(writer.batches).isEmpty();
    }

    @Test
    void aChangeRecordedAfterCompletionBeganIsWrittenAtOnceInTheTransaction() {
        // Hibernate flushing from a synchronization registered after ours (a publish came first): G1.
        changes.published(SourceEvent.updated("test.Other", 7, "x"), null, null);
        changes.beforeCompletion();

        changes.entityChanged(plain(1), EventOperation.UPDATED, null, null);
        changes.entityChanged(plain(2), EventOperation.CREATED, null, null);

        assertThat(writer.connections).containsExactly(null, null, null);
        assertThat(writer.batches).extracting(batch -> batch.get(0).pk()).containsExactly("7", "1", "2");
    }

    @Test
    void aLateChangeThatCannotBeWrittenFailsTheFlushThatRecordedIt() {
        RecordingWriter failing = new RecordingWriter() {
            @Override
            public void insertAtCompletion(List<OutboxRow> rows) {
                throw new StreamsException(LibraryErrorCode.OUTBOX_WRITE_FAILED, "refused");
            }
        };
        TransactionChanges late = new TransactionChanges(failing, new WakeupNotifier(), refused -> false, model -> false,
                new PartSubjects());
        late.beforeCompletion();

        assertThatThrownBy(() -> late.entityChanged(plain(1), EventOperation.CREATED, null, null))
                .isInstanceOfSatisfying(StreamsException.class, e -> assertThat(e.code()).isEqualTo("outbox_write_failed"));
    }

    @Test
    void aLateWovenChangeWaitsForTheProvidersCommitInsteadOfASecondConnection() {
        changes.published(SourceEvent.updated("test.Other", 7, "x"), null, null);
        changes.beforeCompletion();
        changes.entityChanged(woven(1), EventOperation.CREATED, null, null);

        changes.writeThrough(provider);

        assertThat(writer.connections).containsExactly(null, provider);
        assertThat(writer.batches.get(1)).extracting(OutboxRow::pk).containsExactly("1");
    }

    @Test
    void completionWritesFromASynchronizationRegisteredBehindTheProviders() {
        List<jakarta.transaction.Synchronization> registered = new ArrayList<>();
        TransactionChanges deferring = new TransactionChanges(writer, new WakeupNotifier(), registered::add, model -> false,
                new PartSubjects());
        deferring.published(SourceEvent.updated("test.Other", 7, "x"), null, null);

        deferring.beforeCompletion();
        assertThat(writer.batches).as("nothing written before the providers' flushes").isEmpty();
        deferring.entityChanged(plain(1), EventOperation.UPDATED, null, null);
        registered.get(0).beforeCompletion();

        assertThat(registered).hasSize(1);
        assertThat(writer.batches).hasSize(1);
        assertThat(writer.batches.get(0)).extracting(OutboxRow::pk).containsExactly("7", "1");
    }

    @Test
    void aProviderCommitWithNothingRecordedWritesNothing() {
        changes.writeThrough(provider);
        changes.beforeCompletion();

        assertThat(writer.batches).isEmpty();
    }

    @Test
    void aSubjectDeletedAfterItsTriggerCapturedPartsDropsTheirRowsThroughTheProvidersConnection() {
        // Payara: our completion runs first and its connection autocommits; EclipseLink then deletes the lines (their
        // trigger writes rows) and the order, whose row is written through its connection, with the drop.
        writer.autocommitAtCompletion = true;
        changes.beforeCompletion();
        changes.triggerCaptured("alice", null);
        changes.entityChanged(woven(1), EventOperation.DELETED, "alice", null);
        changes.writeThrough(provider);

        assertThat(writer.completions).containsExactly("the provider's connection alice [1]");
    }

    @Test
    void aSubjectOfAModelWithNoPartsByTriggerCostsNoStatement() {
        changes.entityChanged(plain(1), EventOperation.CREATED, null, null);
        changes.beforeCompletion();

        assertThat(writer.completions).isEmpty();
    }

    private static Woven woven(long id) {
        Woven entity = new Woven();
        entity.id = id;
        entity.name = "w" + id;
        return entity;
    }

    private static Plain plain(long id) {
        Plain entity = new Plain();
        entity.id = id;
        entity.name = "p" + id;
        return entity;
    }

    private static Part part(long id, Plain holder) {
        Part part = new Part();
        part.id = id;
        part.holder = holder;
        return part;
    }
}
