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
 * A document with an owner, a tenant, a status, an amount and a folder, all of which may be null, and any number of
 * readers (a key reached through a join): the world of the
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

    /** May be null: a policy keyed by {@code folder.tenant} must still show such a document to who sees all. */
    @ManyToOne
    @JoinColumn(name = "folder_id")
    private ItFolder folder;

    @ElementCollection
    @CollectionTable(name = "it_doc_reader", joinColumns = @JoinColumn(name = "doc_id"))
    @Column(name = "reader")
    private Set<String> readers;
}
