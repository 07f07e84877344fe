package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/**
 * A listener-captured entity with a composite key through an {@code @IdClass}: its pk is the JSON array a trigger
 * writes for the same key ({@link ItKeyed}, an {@code @EmbeddedId}).
 */
@Entity(name = "ItKeyedL")
@Table(name = "it_keyed_l")
@IdClass(ItKeyedL.Key.class)
@Streamed(model = "it.ItKeyedL")
public class ItKeyedL {

    @Id
    private String region;

    @Id
    private Integer number;

    private String note;

    public ItKeyedL() {
    }

    public ItKeyedL(String region, Integer number, String note) {
        this.region = region;
        this.number = number;
        this.note = note;
    }

    public void setNote(String note) {
        this.note = note;
    }

    /** The key: region, then number. */
    public static class Key implements Serializable {

        private static final long serialVersionUID = 1L;

        private String region;

        private Integer number;

        public Key() {
        }

        public Key(String region, Integer number) {
            this.region = region;
            this.number = number;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key that && Objects.equals(region, that.region) && Objects.equals(number, that.number);
        }

        @Override
        public int hashCode() {
            return Objects.hash(region, number);
        }
    }
}
