package io.objectstreams.it.support.server;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** A desk of a tenant named by a UUID; a case may have none ({@link ItCase}). Not streamed. */
@Entity(name = "ItDesk")
@Table(name = "it_desk")
public class ItDesk {

    @Id
    private Long id;

    private UUID tenant;
}
