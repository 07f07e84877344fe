package io.objectstreams.it.support.badkey;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * A streamed entity keyed by a decimal, a key no capture path spells alike: only the deployment that must refuse it
 * carries this class ({@code MissingMappingFileIT}), never the shared test archive.
 */
@Entity(name = "ItPriced")
@Table(name = "it_priced")
@Streamed(model = "it.ItPriced")
public class ItPriced {

    @Id
    private BigDecimal price;
}
