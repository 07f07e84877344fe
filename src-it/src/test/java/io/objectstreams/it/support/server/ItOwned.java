package io.objectstreams.it.support.server;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A test entity whose owner may be null, for an owner-only policy that never mentions anonymous viewers. */
@Entity(name = "ItOwned")
@Table(name = "it_owned")
public class ItOwned {

    @Id
    private Long id;

    private String owner;

    public Long getId() {
        return id;
    }

    public String getOwner() {
        return owner;
    }
}
