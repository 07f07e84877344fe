package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A label, keyed by its name: a natural key that an administrator may delete and later create again, so one pk
 * names two objects in turn.
 */
@Entity(name = "Tag")
@Table(name = "hd_tag")
@Streamed(model = "helpdesk.Tag")
public class Tag {

    @Id
    private String name;

    private String color;

    protected Tag() {
    }

    public Tag(String name, String color) {
        this.name = name;
        this.color = color;
    }

    public String getName() {
        return name;
    }

    public String getColor() {
        return color;
    }

    public void setColor(String color) {
        this.color = color;
    }
}
