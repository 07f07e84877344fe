package io.objectstreams.demo.store;

import io.objectstreams.Filterable;
import io.objectstreams.Lookup;
import io.objectstreams.Streamed;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * An order of the demo store; streamed as {@code store.CustomerOrder}. Filter subscriptions may constrain its
 * status, owner and total.
 */
@Entity(name = "CustomerOrder")
@Table(name = "store_order")
@Streamed(model = "store.CustomerOrder")
public class CustomerOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Filterable({Lookup.EXACT, Lookup.IN})
    @Column(nullable = false, length = 64)
    private String owner;

    @Filterable({Lookup.EXACT, Lookup.IN})
    @Column(nullable = false, length = 16)
    private String status;

    @Filterable({Lookup.EXACT, Lookup.GT, Lookup.GTE, Lookup.LT, Lookup.LTE})
    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal total;

    @Column(length = 1000)
    private String note;

    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("id")
    private List<OrderLine> lines = new ArrayList<>();

    public Long getId() {
        return id;
    }

    public String getOwner() {
        return owner;
    }

    public void setOwner(String owner) {
        this.owner = owner;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public BigDecimal getTotal() {
        return total;
    }

    public void setTotal(BigDecimal total) {
        this.total = total;
    }

    public String getNote() {
        return note;
    }

    public void setNote(String note) {
        this.note = note;
    }

    public List<OrderLine> getLines() {
        return lines;
    }

    public void addLine(OrderLine line) {
        line.setOrder(this);
        lines.add(line);
    }

    /**
     * Takes a line off the order: orphan removal deletes it, and its change is reported on this order. The line keeps
     * its order, unlike the helper most JPA guides teach ({@code line.setOrder(null)} as well): a line's
     * {@code order_id} is NOT NULL, and EclipseLink writes the null before the orphan's delete, which PostgreSQL
     * refuses (Hibernate deletes the orphan without it). Object Streams reports either form on the order the line left.
     */
    public void removeLine(OrderLine line) {
        lines.remove(line);
    }
}
