package io.objectstreams.it.support.server;

import jakarta.persistence.Embeddable;
import java.io.Serializable;
import java.util.Objects;

/** The composite key of {@link ItKeyed}: region, then number. */
@Embeddable
public class ItKeyedId implements Serializable {

    private static final long serialVersionUID = 1L;

    private String region;

    private Integer number;

    @Override
    public boolean equals(Object other) {
        return other instanceof ItKeyedId that && Objects.equals(region, that.region) && Objects.equals(number, that.number);
    }

    @Override
    public int hashCode() {
        return Objects.hash(region, number);
    }
}
