package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.Viewer;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.filter.Filter;
import org.junit.jupiter.api.Test;

/** The reads of members the fan-out owes after a resync (G10): none is lost to a read that fails. */
class FanOutLedgerTest {

    /** Issue 26, item 10: the owed reads were taken out of the ledger before they were made. */
    @Test
    void aSubscriptionStaysOwedItsReadUntilTheReadIsSettled() {
        FanOutLedger ledger = new FanOutLedger();
        Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null,
                "s", null, null, null), Filter.NONE, Viewer.anonymous());
        ledger.rereadLater(null, subscription);
        FanOutLedger.Owed owed = ledger.stale().get(0);

        assertThat(ledger.stale()).as("a read that threw before it was settled is owed again").containsExactly(owed);
        ledger.settled(owed);
        assertThat(ledger.stale()).isEmpty();
    }
}
