package io.objectstreams.it.support.badkey;

import io.objectstreams.Streamed;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A streamed entity keyed by a {@code character(8)} column: JDBC reads its values padded, a trigger's {@code ::text}
 * trims them, and a new entity holds what the application set, so no two paths spell a key alike. Only the
 * deployment that must refuse it carries this class ({@code MissingMappingFileIT}), never the shared test archive.
 */
@Entity(name = "ItPadded")
@Table(name = "it_padded")
@Streamed(model = "it.ItPadded")
public class ItPadded {

    @Id
    @Column(columnDefinition = "char(8)")
    private String code;
}
