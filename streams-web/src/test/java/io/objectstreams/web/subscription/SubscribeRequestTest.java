package io.objectstreams.web.subscription;

import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.protocol.ErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** Request parsing: every field checked, nothing unknown ignored (G12). */
class SubscribeRequestTest {

    private static SubscribeRequest parse(String json) throws ProtocolError {
        JsonObject message = Json.createReader(new StringReader(json)).readObject();
        return SubscribeRequest.parse(message);
    }

    private static void refused(String json, ErrorCode code, String inMessage) {
        assertThatThrownBy(() -> parse(json)).isInstanceOf(ProtocolError.class)
                .satisfies(e -> assertThat(((ProtocolError) e).code()).isEqualTo(code))
                .hasMessageContaining(inMessage);
    }

    @Test
    void objectIsTheDefaultKindAndAnIntegerPkIsText() throws ProtocolError {
        SubscribeRequest request = parse("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":12,\"cursor\":5}");
        assertThat(request.kind()).isEqualTo(SubscriptionKind.OBJECT);
        assertThat(request.pk()).isEqualTo("12");
        assertThat(request.cursor()).isEqualTo(5L);
        assertThat(request.isObject()).isTrue();
    }

    @Test
    void filtersComeAsFilterOrItsAliasButNotBoth() throws ProtocolError {
        assertThat(parse("{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"m\",\"filters\":{\"status\":\"open\"}}")
                .filter().getString("status")).isEqualTo("open");
        assertThat(parse("{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"m\"}").filter()).isEmpty();
        refused("{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"m\",\"filter\":{},\"filters\":{}}",
                ErrorCode.INVALID_REQUEST, "not both");
        refused("{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"m\",\"filter\":[1]}",
                ErrorCode.INVALID_REQUEST, "JSON object");
    }

    @Test
    void badFieldsGetNamedErrors() {
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"colour\":1}", ErrorCode.INVALID_REQUEST, "colour");
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"search\":\"x\"}", ErrorCode.UNSUPPORTED_SEARCH, "filter");
        refused("{\"op\":\"subscribe\",\"kind\":\"set\",\"model\":\"m\"}", ErrorCode.INVALID_REQUEST, "kind");
        refused("{\"op\":\"subscribe\",\"pk\":\"1\"}", ErrorCode.INVALID_REQUEST, "model");
        refused("{\"op\":\"subscribe\",\"model\":\"m\"}", ErrorCode.INVALID_REQUEST, "pk");
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":1.5}", ErrorCode.INVALID_REQUEST, "pk");
        refused("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"pk\":\"1\"}", ErrorCode.INVALID_REQUEST, "pk");
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"cursor\":-1}", ErrorCode.INVALID_REQUEST, "cursor");
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"cursor\":\"7\"}", ErrorCode.INVALID_REQUEST, "cursor");
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"cursor\":1e30}", ErrorCode.INVALID_REQUEST, "cursor");
        refused("{\"op\":\"subscribe\",\"model\":7,\"pk\":\"1\"}", ErrorCode.INVALID_REQUEST, "model");
    }

    @Test
    void aCursorAboveTheLargestLongIsAnInvalidCursorNotAFailure() throws ProtocolError {
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"cursor\":9223372036854775808}",
                ErrorCode.INVALID_CURSOR, "out of range");
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"cursor\":" + "9".repeat(400) + "}",
                ErrorCode.INVALID_CURSOR, "out of range");
        assertThat(parse("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":\"1\",\"cursor\":9223372036854775807}").cursor())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void membersArePksHeldAtTheCursorOfASetSubscription() throws ProtocolError {
        SubscribeRequest request = parse("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"cursor\":9,"
                + "\"members\":[\"a\",12,\"a\"]}");
        assertThat(request.members()).containsExactly("a", "12");
        assertThat(parse("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"cursor\":9,\"members\":[]}")
                .members()).isEmpty();
        assertThat(parse("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"cursor\":9}").members()).isNull();
        refused("{\"op\":\"subscribe\",\"model\":\"m\",\"pk\":1,\"cursor\":9,\"members\":[\"1\"]}",
                ErrorCode.INVALID_REQUEST, "object subscription");
        refused("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"members\":[\"1\"]}",
                ErrorCode.INVALID_REQUEST, "only with a cursor");
        refused("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"cursor\":9,\"members\":\"1,2\"}",
                ErrorCode.INVALID_REQUEST, "array");
        refused("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"cursor\":9,\"members\":[1.5]}",
                ErrorCode.INVALID_REQUEST, "pks");
        refused("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"m\",\"cursor\":9,\"members\":[\" \"]}",
                ErrorCode.INVALID_REQUEST, "pks");
    }
}
