package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A trigger-captured table for the drift test to break and repair: nothing else writes it. */
@Entity(name = "ItDrift")
@Table(name = "it_drift")
@Streamed(model = "it.ItDrift", capture = Streamed.Capture.TRIGGER)
public class ItDrift {

    @Id
    private Long id;

    private String note;
}
