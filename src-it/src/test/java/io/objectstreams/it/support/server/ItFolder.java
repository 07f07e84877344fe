package io.objectstreams.it.support.server;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A folder of {@link ItDoc} documents with a tenant that may be null: the to-one link through which some keyed
 * policies of the visibility equivalence test read their keys ({@link RandomKeyedDocs}). Not streamed.
 */
@Entity(name = "ItFolder")
@Table(name = "it_folder")
public class ItFolder {

    @Id
    private Long id;

    private Long tenant;
}
