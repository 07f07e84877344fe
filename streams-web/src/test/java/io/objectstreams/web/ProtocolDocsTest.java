package io.objectstreams.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.protocol.ListAction;
import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.protocol.SubscriptionKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every word the server can put on the wire is documented for clients (protocol.md) or operators (operations.md). */
class ProtocolDocsTest {

    @Test
    void everyWireWordIsDocumented() throws IOException {
        String docs = Files.readString(Path.of("../docs/protocol.md")) + Files.readString(Path.of("../docs/operations.md"));
        List<String> words = new ArrayList<>();
        Stream.of(ErrorCode.values()).map(ErrorCode::wireName).forEach(words::add);
        Stream.of(ResyncReason.values()).map(ResyncReason::wireName).forEach(words::add);
        Stream.of(ListAction.values()).map(ListAction::wireName).forEach(words::add);
        Stream.of(SubscriptionKind.values()).map(SubscriptionKind::wireName).forEach(words::add);
        Stream.of(MessageType.values()).map(MessageType::wireName).forEach(words::add);
        assertThat(words).hasSize(ErrorCode.values().length + 6 + 4 + 3 + 5)
                .allSatisfy(word -> assertThat(docs).as(word).contains("`" + word + "`"));
    }
}
