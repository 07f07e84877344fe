package io.objectstreams.web.sse;

import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.protocol.SubscriptionKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SSE route's query: defaults, durations, cursors and named refusals; nothing clamped or ignored. */
class SseRequestTest {

    private static SseRequest parse(String query, String lastEventId) throws ProtocolError {
        return parse(query, lastEventId, Duration.ofSeconds(25), Duration.ofMinutes(30));
    }

    private static SseRequest parse(String query, String lastEventId, Duration heartbeat, Duration lifetime)
            throws ProtocolError {
        Map<String, String[]> parameters = new LinkedHashMap<>();
        if (!query.isEmpty()) {
            for (String pair : query.split("&")) {
                String[] kv = pair.split("=", 2);
                parameters.merge(kv[0], new String[] {kv[1]}, (a, b) -> new String[] {a[0], b[0]});
            }
        }
        return SseRequest.parse("m", parameters, lastEventId, heartbeat, lifetime);
    }

    private static void refused(String query, String lastEventId, String code) {
        assertThatThrownBy(() -> parse(query, lastEventId)).isInstanceOfSatisfying(ProtocolError.class, r -> {
            assertThat(r.code().wireName()).as(query).isEqualTo(code);
            assertThat(r.httpStatus()).isEqualTo(400);
        });
    }

    @Test
    void theKindFollowsFromPkAndDurationsHaveDefaults() throws ProtocolError {
        SseRequest object = parse("pk=5", null);
        assertThat(object.request().kind()).isEqualTo(SubscriptionKind.OBJECT);
        assertThat(object.heartbeat()).isEqualTo(Duration.ofSeconds(25));
        assertThat(object.lifetime()).isEqualTo(Duration.ofMinutes(30));
        assertThat(parse("", null).request().kind()).isEqualTo(SubscriptionKind.MODEL);
        SseRequest filter = parse("kind=filter&filter.status__in=open,paid&heartbeat=90&lifetime=4h", null);
        assertThat(filter.request().filter().getString("status__in")).isEqualTo("open,paid");
        assertThat(filter.heartbeat()).isEqualTo(Duration.ofSeconds(90));
        assertThat(filter.lifetime()).isEqualTo(Duration.ofHours(4));
    }

    @Test
    void theConfiguredDefaultsApplyOnlyWhereTheRequestNamesNone() throws ProtocolError {
        SseRequest configured = parse("pk=5", null, Duration.ofSeconds(3), Duration.ofMinutes(2));
        assertThat(configured.heartbeat()).isEqualTo(Duration.ofSeconds(3));
        assertThat(configured.lifetime()).isEqualTo(Duration.ofMinutes(2));
        SseRequest named = parse("pk=5&heartbeat=40s&lifetime=1h", null, Duration.ofSeconds(3), Duration.ofMinutes(2));
        assertThat(named.heartbeat()).isEqualTo(Duration.ofSeconds(40));
        assertThat(named.lifetime()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void durationsTakeConfigurationsGrammarAndPlainSecondsWithinTheSettingsBounds() throws ProtocolError {
        SseRequest request = parse("pk=5&heartbeat=PT10S&lifetime=2H", null);
        assertThat(request.heartbeat()).isEqualTo(Duration.ofSeconds(10));
        assertThat(request.lifetime()).isEqualTo(Duration.ofHours(2));
        assertThat(parse("pk=5&heartbeat=1&lifetime=1s", null).heartbeat()).isEqualTo(Duration.ofSeconds(1));
        assertThat(parse("pk=5&heartbeat=5m&lifetime=4h", null).lifetime()).isEqualTo(Duration.ofHours(4));
        refused("pk=5&heartbeat=999ms", null, "invalid_heartbeat");
        refused("pk=5&lifetime=1d", null, "invalid_lifetime");
        refused("pk=5&lifetime=99999999999999999999", null, "invalid_lifetime");
        assertThatThrownBy(() -> parse("pk=5&heartbeat=6m", null)).isInstanceOfSatisfying(ProtocolError.class,
                r -> assertThat(r.body()).contains("heartbeat must be a duration from 1s to 5m"));
    }

    @Test
    void lastEventIdOverridesTheCursorParameter() throws ProtocolError {
        assertThat(parse("pk=5&cursor=3", null).request().cursor()).isEqualTo(3L);
        assertThat(parse("pk=5&cursor=3", "9").request().cursor()).isEqualTo(9L);
        assertThat(parse("pk=5", " 12 ").request().cursor()).isEqualTo(12L);
    }

    @Test
    void everyBadParameterIsRefusedWithItsOwnCode() {
        refused("pk=5&colour=red", null, "unknown_parameter");
        refused("pk=5&filter.=x", null, "unknown_parameter");
        refused("kind=set", null, "invalid_kind");
        refused("kind=object", null, "invalid_kind");
        refused("kind=model&pk=1", null, "invalid_kind");
        refused("filter.status=open", null, "invalid_kind");
        refused("pk=5&heartbeat=0", null, "invalid_heartbeat");
        refused("pk=5&heartbeat=301", null, "invalid_heartbeat");
        refused("pk=5&heartbeat=1.5s", null, "invalid_heartbeat");
        refused("pk=5&heartbeat=1s&heartbeat=2s", null, "invalid_heartbeat");
        refused("pk=5&lifetime=241m", null, "invalid_lifetime");
        refused("pk=5&lifetime=0s", null, "invalid_lifetime");
        refused("pk=5&cursor=-1", null, "invalid_cursor");
        refused("pk=5&cursor=1e3", null, "invalid_cursor");
        refused("pk=5&cursor=9223372036854775808", null, "invalid_cursor");
        refused("pk=5", "abc", "invalid_cursor");
    }

    @Test
    void membersAreRepeatedOrCommaSeparatedAndReadOnlyWhenResuming() throws ProtocolError {
        assertThat(parse("kind=model&cursor=7&members=1,2&members=3", null).request().members()).containsExactly("1", "2", "3");
        assertThat(parse("kind=model&cursor=7&members=", "7").request().members()).isEmpty();
        assertThat(parse("kind=model&members=1,2", null).request().members()).as("not resuming").isNull();
        // Issue 26, item 7: the URL's members are those held at the URL's cursor, not at a newer Last-Event-ID.
        assertThat(parse("kind=model&cursor=5&members=1,2", "7").request().members()).as("held at 5, not 7").isNull();
        assertThat(parse("kind=model&members=1,2", "7").request().members()).as("held at no known cursor").isNull();
        assertThat(parse("kind=model&cursor=5&members=1,2", "7").request().cursor()).isEqualTo(7L);
        refused("pk=5&members=1", "7", "invalid_kind");
        refused("kind=model&members=1,,2", "7", "invalid_members");
    }
}
