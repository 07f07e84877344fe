package io.objectstreams.it.support.server;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * The demo's order table mapped a second time, without {@code @Streamed}: the capture-overhead benchmark updates
 * the same row shape through this entity and through {@code CustomerOrder} to see what capture costs.
 */
@Entity(name = "ItPlainOrder")
@Table(name = "store_order")
public class ItPlainOrder {

    @Id
    private Long id;

    @Column(nullable = false, length = 64)
    private String owner;

    @Column(nullable = false, length = 16)
    private String status;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal total;

    @Column(length = 1000)
    private String note;

    public void setNote(String note) {
        this.note = note;
    }
}
