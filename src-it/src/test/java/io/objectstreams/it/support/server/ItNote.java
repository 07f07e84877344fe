package io.objectstreams.it.support.server;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A test entity without {@code @Streamed}: writing it must leave the outbox untouched. */
@Entity(name = "ItNote")
@Table(name = "it_note")
public class ItNote {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String text;

    public Long getId() {
        return id;
    }

    public void setText(String text) {
        this.text = text;
    }
}
