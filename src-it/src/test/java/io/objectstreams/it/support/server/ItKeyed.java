package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A trigger-captured entity with a composite key: its subject pk is a JSON array of the key in declared order. */
@Entity(name = "ItKeyed")
@Table(name = "it_keyed")
@Streamed(model = "it.ItKeyed", capture = Streamed.Capture.TRIGGER)
public class ItKeyed {

    @EmbeddedId
    private ItKeyedId id;

    private String note;
}
