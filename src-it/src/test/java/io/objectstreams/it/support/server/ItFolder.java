package io.objectstreams.it.support.server;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A folder of {@link ItDoc}s with a tenant that may be null: a key reached through a nullable to-one path. */
@Entity(name = "ItFolder")
@Table(name = "it_folder")
public class ItFolder {

    @Id
    private Long id;

    private Long tenant;
}
