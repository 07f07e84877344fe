package io.objectstreams.it.support.server;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.util.Set;

/**
 * A document with an owner, a tenant, a status and an amount, all of which may be null, any number of readers
 * (a key reached through a join) and maybe a folder (a key reached through a to-one link that may be null): the
 * world of the visibility equivalence test ({@link VisibilityEquivalenceResource}). Not streamed.
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

    /** Null for a document in no folder: a key read through it is NULL, and the document must not vanish (G8). */
    @ManyToOne
    @JoinColumn(name = "folder_id")
    private ItFolder folder;

    @ElementCollection
    @CollectionTable(name = "it_doc_reader", joinColumns = @JoinColumn(name = "doc_id"))
    @Column(name = "reader")
    private Set<String> readers;
}
