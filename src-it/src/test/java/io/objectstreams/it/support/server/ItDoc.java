package io.objectstreams.it.support.server;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A document with an owner, a tenant, a status and an amount, all of which may be null: the world of the
 * visibility equivalence test ({@link VisibilityEquivalenceResource}). Not streamed; nothing subscribes to it.
 */
@Entity(name = "ItDoc")
@Table(name = "it_doc")
public class ItDoc {

    @Id
    private Long id;

    private String owner;

    private Long tenant;

    private String status;

    private Integer amount;
}
