package io.objectstreams.examples.helpdesk.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** A customer of the help desk; every team belongs to one. Not streamed: tenants are fixed by the schema script. */
@Entity(name = "Tenant")
@Table(name = "hd_tenant")
public class Tenant {

    @Id
    private UUID id;

    private String name;

    public UUID getId() {
        return id;
    }

    public String getName() {
        return name;
    }
}
