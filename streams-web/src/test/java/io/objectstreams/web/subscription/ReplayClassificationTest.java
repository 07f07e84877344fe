package io.objectstreams.web.subscription;

import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.protocol.ErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.feed.CursorState;
import io.objectstreams.protocol.ListAction;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.web.filter.Filter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every cell of docs/protocol.md's "Reconnecting" table and of its replay classification, with and without the
 * client's {@code members}, and with subjects the viewer can no longer read (G8, G9, G10). Each case starts a
 * subscription from what the classification returns and replays it, as the session does, so the assertions are
 * on the {@code list_action}s a client would receive.
 */
class ReplayClassificationTest {

    private static final int LIMIT = 3;
    private static final long FROM = 100;
    private static final long CURSOR = 120;
    /** What decides membership in these tests, as a keyed policy on {@code owner} under a status filter would. */
    private static final Set<String> DECIDING = Set.of("owner", "status");

    private static StreamEvent row(long cursor, String pk, EventOperation op, String... fields) {
        return new StreamEvent(cursor, "m", pk, "object", op, List.of(fields), cursor, "alice", null, Instant.EPOCH);
    }

    /** Which of the given pks the viewer may read now, whatever the filter. */
    private static Function<Set<String>, Set<String>> readable(String... pks) {
        Set<String> visible = Set.of(pks);
        return asked -> {
            Set<String> answer = new HashSet<>(asked);
            answer.retainAll(visible);
            return answer;
        };
    }

    private static final Function<Set<String>, Set<String>> NOTHING_ASKED = asked -> {
        throw new AssertionError("visibility must not be asked: " + asked);
    };

    /** What the client receives when the subscription starts from {@code start}: pk to list_action, in order. */
    private static Map<String, ListAction> received(SubscriptionStart start) {
        Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null, "s", FROM,
                null, null), Filter.NONE, Viewer.anonymous());
        subscription.start(start.members(), start.replayFrom());
        Map<String, ListAction> received = new LinkedHashMap<>();
        for (Delivery delivery : start.replay()) {
            ListAction action = subscription.effect(delivery.event(), delivery.matches());
            if (action != null) {
                received.put(delivery.event().pk(), action);
            }
        }
        return received;
    }

    @Nested
    class Cursors {

        @Test
        void aCursorNewerThanTheOutboxIsRefusedAsInvalid() {
            assertThatThrownBy(() -> ReplayClassification.checkNotAhead(121, new CursorState(120, 0, null)))
                    .isInstanceOfSatisfying(ProtocolError.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CURSOR));
        }

        @Test
        void theNewestCursorAndOlderOnesAreAccepted() throws ProtocolError {
            ReplayClassification.checkNotAhead(120, new CursorState(120, 0, null));
            ReplayClassification.checkNotAhead(0, new CursorState(120, 0, null));
        }

        @Test
        void aCursorOlderThanTheRetentionWatermarkIsPruned() {
            assertThat(ReplayClassification.pruned(49, new CursorState(120, 50, null))).isTrue();
            assertThat(ReplayClassification.pruned(50, new CursorState(120, 50, null)))
                    .as("the watermark itself was not deleted past").isFalse();
        }

        @Test
        void aSetReplayReadsAtMostTenTimesTheLimitOfRowsOfAnyModel() {
            assertThat(ReplayClassification.spanTooLong(FROM, FROM + 10L * LIMIT, LIMIT)).isFalse();
            assertThat(ReplayClassification.spanTooLong(FROM, FROM + 10L * LIMIT + 1, LIMIT)).isTrue();
        }
    }

    @Nested
    class ObjectSubscriptions {

        @Test
        void upToTheLimitTheMissedEventsAreReplayedThenLive() {
            List<StreamEvent> missed = List.of(row(101, "1", EventOperation.UPDATED, "status"),
                    row(105, "1", EventOperation.UPDATED, "total"), row(110, "1", EventOperation.UPDATED, "note"));
            SubscriptionStart start = ReplayClassification.object(Set.of("1"), missed, FROM, CURSOR, LIMIT);
            assertThat(start.resyncReason()).isNull();
            assertThat(start.replayFrom()).isEqualTo(FROM);
            assertThat(start.replay()).extracting(d -> d.event().cursor()).containsExactly(101L, 105L, 110L);
            assertThat(start.replay()).allMatch(Delivery::matches);
        }

        @Test
        void moreThanTheLimitResyncsWithObjectReplayLimitExceeded() {
            List<StreamEvent> missed = new ArrayList<>();
            for (int i = 1; i <= LIMIT + 1; i++) {
                missed.add(row(FROM + i, "1", EventOperation.UPDATED, "status"));
            }
            SubscriptionStart start = ReplayClassification.object(Set.of("1"), missed, FROM, CURSOR, LIMIT);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.OBJECT_REPLAY_LIMIT_EXCEEDED);
            assertThat(start.replayFrom()).as("live from the registration cursor").isEqualTo(CURSOR);
            assertThat(start.replay()).isEmpty();
        }
    }

    @Nested
    class WithMembers {

        private final Set<String> clientHeld = Set.of("kept", "left", "hidden", "gone");

        @Test
        void everyCellOfTheTable() {
            List<StreamEvent> rows = List.of(
                    row(101, "kept", EventOperation.UPDATED, "status"),
                    row(102, "left", EventOperation.UPDATED, "status"),
                    row(103, "hidden", EventOperation.UPDATED, "owner"),
                    row(104, "gone", EventOperation.DELETED),
                    row(105, "joined", EventOperation.UPDATED, "status"),
                    row(106, "outside", EventOperation.UPDATED, "status"),
                    row(107, "neverHeld", EventOperation.DELETED));
            // Now visible and matching: kept and joined. left is visible but no longer matches; hidden is no longer
            // visible, gone no longer exists.
            Set<String> current = Set.of("kept", "joined", "unchanged");
            SubscriptionStart start = ReplayClassification.set(rows, current, clientHeld, readable("left"), DECIDING, FROM,
                    CURSOR, 10);

            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).containsExactly(
                    Map.entry("kept", ListAction.CHANGED),
                    Map.entry("left", ListAction.REMOVED),
                    Map.entry("joined", ListAction.ADDED));
            assertThat(start.unreadable()).as("answered removed, and nothing else").containsExactly("gone", "hidden");
            assertThat(start.members()).as("held at the client's cursor; the replay adds joined")
                    .containsExactlyInAnyOrder("kept", "left");
        }

        /** Issue 26, item 1: what a client names must not let it follow an object it cannot read (G8). */
        @Test
        void aNamedPkTheViewerCannotReadIsAnsweredAlikeWhetherItChangedWasDeletedOrNeverExisted() {
            List<StreamEvent> rows = List.of(row(101, "alicesChanged", EventOperation.UPDATED, "note"),
                    row(102, "alicesDeleted", EventOperation.DELETED));
            Set<String> named = Set.of("alicesChanged", "alicesQuiet", "alicesDeleted", "never", "mine");
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("mine"), named, readable(), DECIDING, FROM, CURSOR, 10);
            assertThat(start.unreadable()).containsExactly("alicesChanged", "alicesDeleted", "alicesQuiet", "never");
            assertThat(start.replay()).as("no replayed row of an unreadable object").isEmpty();
            assertThat(start.members()).containsExactly("mine");

            SubscriptionStart quietWorld = ReplayClassification.set(List.of(), Set.of("mine"), named, readable(), DECIDING, FROM,
                    FROM, 10);
            assertThat(quietWorld.unreadable()).as("the same answer when nothing changed")
                    .isEqualTo(start.unreadable());

            Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null,
                    null, "s", FROM, null, null), Filter.NONE, Viewer.anonymous());
            subscription.start(start.members(), start.replayFrom());
            assertThat(subscription.effect(row(130, "alicesChanged", EventOperation.UPDATED, "note"), false))
                    .as("and nothing live").isNull();
            assertThat(subscription.effect(row(131, "alicesQuiet", EventOperation.DELETED), false)).isNull();
        }

        /**
         * Found by the soak (2026-12-05), restoring orders under their old ids: a named member deleted in the span and
         * created again after it (readable now, and matching, as the new object) was answered with the span's
         * {@code deleted}, its coalesced fields and the deleting transaction, which a client that lost sight of the
         * object before the delete could not see. The object the client held is gone: answered like any deleted
         * member, the detail-free {@code removed}, and the new object arrives live.
         */
        @Test
        void aNamedMemberDeletedInTheSpanIsAnsweredAsUnreadableEvenIfItsPkExistsAgainNow() {
            List<StreamEvent> rows = List.of(row(101, "x", EventOperation.UPDATED, "owner"),
                    row(102, "x", EventOperation.DELETED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("x"), Set.of("x"), readable("x"), DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.unreadable()).containsExactly("x");
            assertThat(start.replay()).as("nothing of the delete").isEmpty();
            assertThat(start.members()).as("the client no longer holds it; the new object is added live").isEmpty();
        }

        @Test
        void theSubscriptionHoldsWhatTheClientHoldsUpdatedByTheReplay() {
            List<StreamEvent> rows = List.of(row(101, "left", EventOperation.UPDATED, "status"),
                    row(102, "joined", EventOperation.UPDATED, "status"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("joined"), Set.of("left", "quiet"),
                    readable("left", "quiet"), DECIDING, FROM, CURSOR, 10);
            Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null, "s", FROM,
                    null, null), Filter.NONE, Viewer.anonymous());
            subscription.start(start.members(), start.replayFrom());
            start.replay().forEach(d -> subscription.effect(d.event(), d.matches()));
            assertThat(subscription.memberCount()).as("quiet and joined").isEqualTo(2);
            assertThat(subscription.effect(row(130, "quiet", EventOperation.DELETED), false))
                    .as("a member the client named and nothing changed").isEqualTo(ListAction.DELETED);
        }

        @Test
        void eachSubjectComesOnceAtItsLatestCursorInCursorOrder() {
            List<StreamEvent> rows = List.of(row(101, "a", EventOperation.UPDATED, "status"),
                    row(102, "b", EventOperation.UPDATED, "total"), row(103, "a", EventOperation.UPDATED, "note"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("a", "b"), Set.of("a", "b"), NOTHING_ASKED, DECIDING,
                    FROM, CURSOR, 10);
            assertThat(start.replay()).extracting(d -> d.event().pk()).containsExactly("b", "a");
            assertThat(start.replay().get(1).event().changedFields()).containsExactly("status", "note");
        }

        @Test
        void moreChangedSubjectsThanTheLimitResync() {
            List<StreamEvent> rows = List.of(row(101, "a", EventOperation.UPDATED), row(102, "b", EventOperation.UPDATED),
                    row(103, "c", EventOperation.UPDATED), row(104, "d", EventOperation.UPDATED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("a"), Set.of("a"), NOTHING_ASKED, DECIDING, FROM,
                    CURSOR, LIMIT);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            assertThat(start.replayFrom()).isEqualTo(CURSOR);
            assertThat(start.replay()).isEmpty();
        }

        @Test
        void aCursorAtTheRegistrationCursorIsLiveWithTheClientsMembers() {
            SubscriptionStart start = ReplayClassification.set(List.of(), Set.of("now"), Set.of("held"),
                    readable("held"), DECIDING, CURSOR, CURSOR, LIMIT);
            assertThat(start.members()).containsExactly("held");
            assertThat(start.replayFrom()).isEqualTo(CURSOR);
            assertThat(start.replay()).isEmpty();
            assertThat(start.resyncReason()).isNull();
        }
    }

    @Nested
    class WithoutMembers {

        @Test
        void aVisibleMatchingSubjectIsAddedWhenCreatedSinceElseChanged() {
            List<StreamEvent> rows = List.of(row(101, "new", EventOperation.CREATED, "status"),
                    row(102, "old", EventOperation.UPDATED, "status"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("new", "old"), null, NOTHING_ASKED, DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).containsExactly(Map.entry("new", ListAction.ADDED),
                    Map.entry("old", ListAction.CHANGED));
        }

        @Test
        void aVisibleSubjectThatNoLongerMatchesIsRemoved() {
            List<StreamEvent> rows = List.of(row(101, "unmatched", EventOperation.UPDATED, "status"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of(), null, readable("unmatched"), DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).containsExactly(Map.entry("unmatched", ListAction.REMOVED));
        }

        @Test
        void aSubjectCreatedSinceAsItIsNowAndNotMatchingIsNeverMentioned() {
            // Created unreadable, then changed only where membership is not decided: it never matched.
            List<StreamEvent> rows = List.of(row(101, "createdHidden", EventOperation.CREATED, "status"),
                    row(102, "createdHidden", EventOperation.UPDATED, "total"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of(), null, readable(), DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).isEmpty();
            assertThat(start.members()).isEmpty();
        }

        @Test
        void aSubjectCreatedSinceAndDeletedResyncsForAListsCursorLagsWhatTheListSaw() {
            // The client resumes from a Streams-Cursor, taken before its list was read: the list may hold the subject.
            List<StreamEvent> rows = List.of(row(101, "createdThenDeleted", EventOperation.CREATED),
                    row(102, "createdThenDeleted", EventOperation.DELETED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of(), null, readable(), DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            assertThat(start.replay()).as("names nothing").isEmpty();
        }

        @Test
        void aSubjectCreatedSinceWhoseDecidingAttributesChangedAndNoLongerMatchesResyncs() {
            List<StreamEvent> rows = List.of(row(101, "movedAway", EventOperation.CREATED),
                    row(102, "movedAway", EventOperation.UPDATED, "owner"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of(), null, readable(), DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            assertThat(start.replay()).isEmpty();
        }

        @Test
        void rowsOfTheCreatesOwnTransactionCountAsTheCreate() {
            // A trigger's insert and update in one transaction: no read saw the order between them.
            StreamEvent create = row(101, "x", EventOperation.CREATED);
            StreamEvent sameTransaction = new StreamEvent(102, "m", "x", "object", EventOperation.UPDATED,
                    List.of("owner"), create.transactionId(), "alice", null, Instant.EPOCH);
            SubscriptionStart start = ReplayClassification.set(List.of(create, sameTransaction), Set.of(), null,
                    readable(), DECIDING, FROM, CURSOR, 10);
            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).isEmpty();
        }

        @Test
        void underAPolicyWhoseDecidingAttributesCannotBeToldAnyLaterChangeCounts() {
            List<StreamEvent> changedLater = List.of(row(101, "x", EventOperation.CREATED),
                    row(102, "x", EventOperation.UPDATED, "total"));
            assertThat(ReplayClassification.set(changedLater, Set.of(), null, readable(), null, FROM, CURSOR, 10)
                    .resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            List<StreamEvent> createdOnly = List.of(row(101, "x", EventOperation.CREATED));
            SubscriptionStart start = ReplayClassification.set(createdOnly, Set.of(), null, readable(), null, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).isEmpty();
        }

        @Test
        void aSubjectDeletedThenCreatedAgainUnderItsPkForSomeoneElseResyncs() {
            // A natural key that came back: the client may hold the old one, which is gone (issue 40 item 3).
            List<StreamEvent> rows = List.of(row(101, "x", EventOperation.DELETED), row(102, "x", EventOperation.CREATED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of(), null, readable(), DECIDING, FROM, CURSOR, 10);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            assertThat(start.replay()).isEmpty();
        }

        @Test
        void aSubjectDeletedThenCreatedAgainForTheViewerIsChangedNotAdded() {
            List<StreamEvent> rows = List.of(row(101, "x", EventOperation.DELETED), row(102, "x", EventOperation.CREATED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("x"), null, readable("x"), DECIDING, FROM, CURSOR, 10);
            assertThat(start.resyncReason()).isNull();
            assertThat(received(start)).containsExactly(Map.entry("x", ListAction.CHANGED));
        }

        @Test
        void aSubjectCreatedDeletedAndCreatedAgainSinceTheCursorIsStillNew() {
            List<StreamEvent> rows = List.of(row(101, "x", EventOperation.CREATED), row(102, "x", EventOperation.DELETED),
                    row(103, "x", EventOperation.CREATED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("x"), null, NOTHING_ASKED, DECIDING, FROM, CURSOR, 10);
            assertThat(received(start)).containsExactly(Map.entry("x", ListAction.ADDED));
        }

        @Test
        void anOlderSubjectThatWasDeletedResyncs() {
            List<StreamEvent> rows = List.of(row(101, "visible", EventOperation.UPDATED),
                    row(102, "deleted", EventOperation.DELETED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("visible"), null, readable(), DECIDING, FROM,
                    CURSOR, 10);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            assertThat(start.replay()).as("names nothing").isEmpty();
            assertThat(start.replayFrom()).isEqualTo(CURSOR);
        }

        @Test
        void anOlderSubjectTheViewerCanNoLongerReadResyncsWithoutNamingIt() {
            List<StreamEvent> rows = List.of(row(101, "hiddenNow", EventOperation.UPDATED, "owner"));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("other"), null, readable(), DECIDING, FROM, CURSOR, 10);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            assertThat(start.replay()).isEmpty();
            assertThat(start.members()).containsExactly("other");
        }

        @Test
        void visibilityIsAskedOnlyAboutSubjectsOutsideTheCurrentSet() {
            Set<Set<String>> asked = new HashSet<>();
            List<StreamEvent> rows = List.of(row(101, "member", EventOperation.UPDATED),
                    row(102, "outside", EventOperation.UPDATED), row(103, "deleted", EventOperation.DELETED));
            ReplayClassification.set(rows, Set.of("member"), null, pks -> {
                asked.add(pks);
                return Set.of();
            }, DECIDING, FROM, CURSOR, 10);
            assertThat(asked).containsExactly(Set.of("outside"));
        }

        @Test
        void moreChangedSubjectsThanTheLimitResync() {
            List<StreamEvent> rows = List.of(row(101, "a", EventOperation.UPDATED), row(102, "b", EventOperation.UPDATED),
                    row(103, "c", EventOperation.UPDATED), row(104, "d", EventOperation.UPDATED));
            SubscriptionStart start = ReplayClassification.set(rows, Set.of("a", "b", "c", "d"), null, NOTHING_ASKED, DECIDING,
                    FROM, CURSOR, LIMIT);
            assertThat(start.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
        }

        @Test
        void aCursorAtTheRegistrationCursorIsLiveWithTheCurrentMembers() {
            SubscriptionStart start = ReplayClassification.set(List.of(), Set.of("now"), null, NOTHING_ASKED, DECIDING, CURSOR,
                    CURSOR, LIMIT);
            assertThat(start.members()).containsExactly("now");
            assertThat(start.replay()).isEmpty();
            assertThat(start.resyncReason()).isNull();
        }
    }
}
