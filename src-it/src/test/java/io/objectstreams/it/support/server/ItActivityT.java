package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A trigger-captured entity on a partitioned table ({@code it_activity_t}, by range of id), written in SQL to the
 * parent and to each partition, including one attached while the application runs ({@code TriggerCaptureIT}).
 */
@Entity(name = "ItActivityT")
@Table(name = "it_activity_t")
@Streamed(model = "it.ItActivityT", capture = Streamed.Capture.TRIGGER)
public class ItActivityT {

    @Id
    private Long id;

    private String note;
}
