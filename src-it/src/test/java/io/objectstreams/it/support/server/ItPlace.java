package io.objectstreams.it.support.server;

import jakarta.persistence.Embeddable;

/** Where a twin is: two columns, one attribute of {@code changed_fields}. */
@Embeddable
public class ItPlace {

    private String street;

    private String city;

    public ItPlace() {
    }

    public ItPlace(String street, String city) {
        this.street = street;
        this.city = city;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ItPlace that && java.util.Objects.equals(street, that.street)
                && java.util.Objects.equals(city, that.city);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(street, city);
    }
}
