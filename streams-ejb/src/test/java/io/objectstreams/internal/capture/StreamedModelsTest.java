package io.objectstreams.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsException;
import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import java.io.Serializable;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A published pk is spelled as capture spells it, or refused (issue 40 item 4, G16). */
class StreamedModelsTest {

    @Entity
    @Streamed(model = "test.Numbered")
    static class Numbered {
        @Id
        Long id;
    }

    @Entity
    @Streamed(model = "test.Ticket")
    static class Ticket {
        @Id
        UUID id;
    }

    record RegionKey(String region, Integer number) implements Serializable {
    }

    @Entity
    @IdClass(RegionKey.class)
    @Streamed(model = "test.Regional")
    static class Regional {
        @Id
        String region;
        @Id
        Integer number;
    }

    private final StreamedModels models = new StreamedModels();

    {
        models.register(List.of(Numbered.class, Ticket.class, Regional.class));
    }

    @Test
    void aKeySpelledAnotherWayIsSpelledAsCaptureSpellsIt() {
        assertThat(models.canonical(SourceEvent.updated("test.Numbered", "007", "x")).pk()).isEqualTo("7");
        assertThat(models.canonical(SourceEvent.updated("test.Numbered", "+7", "x")).pk()).isEqualTo("7");
        UUID id = UUID.randomUUID();
        assertThat(models.canonical(SourceEvent.created("test.Ticket", id.toString().toUpperCase())).pk())
                .isEqualTo(id.toString());
        assertThat(models.canonical(SourceEvent.deleted("test.Regional", "[\"eu\",7]")).pk()).isEqualTo("[\"eu\", 7]");
    }

    @Test
    void aPkThatCanBeNoKeyOfAKnownModelIsRefusedAndAnotherModelIsLeftAlone() {
        assertThatThrownBy(() -> models.canonical(SourceEvent.updated("test.Numbered", "x7", "x")))
                .isInstanceOfSatisfying(StreamsException.class, e -> assertThat(e.code()).isEqualTo("invalid_pk"))
                .hasMessageContaining("x7");
        SourceEvent other = SourceEvent.updated("ItNote", "007", "text");
        assertThat(models.canonical(other)).isSameAs(other);
    }
}
