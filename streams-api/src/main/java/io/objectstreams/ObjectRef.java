package io.objectstreams;

import java.util.Objects;

/** A subject: a model label and a primary key as text, as the protocol names it. */
public record ObjectRef(String model, String pk) {

    public ObjectRef {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(pk, "pk");
    }
}
