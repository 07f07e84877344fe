package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A trigger-captured entity whose columns have an equality that is not identity: {@code citext}, {@code interval},
 * and text under a nondeterministic (case-insensitive) collation. A case-only edit, or {@code '1 day'} made
 * {@code '24 hours'}, is a change the application can see, so it is one the trigger reports ({@code TriggerCaptureIT}).
 * Written in SQL only.
 */
@Entity(name = "ItLabelT")
@Table(name = "it_label_t")
@Streamed(model = "it.ItLabelT", capture = Streamed.Capture.TRIGGER)
public class ItLabelT {

    @Id
    private Long id;

    @Column(name = "name")
    private String name;

    @Column(name = "span")
    private String span;

    @Column(name = "title")
    private String title;
}
