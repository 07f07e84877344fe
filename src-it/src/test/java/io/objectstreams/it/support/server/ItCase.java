package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/**
 * A case, visible by the UUID of its desk's tenant ({@link ItCaseVisibility}): a key of type UUID read through a
 * nullable link, so the key query reads NULL UUIDs for cases on no desk. Captured by trigger: tests write it by SQL.
 */
@Entity(name = "ItCase")
@Table(name = "it_case")
@Streamed(model = "it.ItCase", capture = Streamed.Capture.TRIGGER)
public class ItCase {

    @Id
    private Long id;

    @ManyToOne
    @JoinColumn(name = "desk_id")
    private ItDesk desk;

    private String note;
}
