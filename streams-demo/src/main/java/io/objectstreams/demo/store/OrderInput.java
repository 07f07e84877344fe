package io.objectstreams.demo.store;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A validated order body. Every field is optional here; {@link #requireComplete()} enforces what a create
 * or a full replacement needs. Unknown fields are refused rather than ignored, so a misspelled field is an
 * error, not a silent no-op.
 */
record OrderInput(Optional<String> owner, Optional<String> status, Optional<BigDecimal> total,
                  Optional<Optional<String>> note, Optional<List<LineInput>> lines) {

    static final Set<String> STATUSES = Set.of("draft", "open", "paid", "shipped", "cancelled");
    private static final Set<String> FIELDS = Set.of("owner", "status", "total", "note", "lines");
    private static final Set<String> LINE_FIELDS = Set.of("product", "quantity", "unitPrice");

    record LineInput(String product, int quantity, BigDecimal unitPrice) {
    }

    static OrderInput parse(JsonObject body) {
        for (String name : body.keySet()) {
            if (!FIELDS.contains(name)) {
                throw new InvalidInput(name, "Unknown field '" + name + "'; accepted: " + FIELDS);
            }
        }
        return new OrderInput(
                optionalString(body, "owner", 64),
                optionalString(body, "status", 16).map(OrderInput::status),
                body.containsKey("total") ? Optional.of(amount(body.get("total"), "total")) : Optional.empty(),
                body.containsKey("note") ? Optional.of(nullableString(body.get("note"), "note", 1000))
                        : Optional.empty(),
                body.containsKey("lines") ? Optional.of(lines(body.get("lines"))) : Optional.empty());
    }

    OrderInput requireComplete() {
        if (status.isEmpty()) {
            throw new InvalidInput("status", "status is required");
        }
        if (total.isEmpty()) {
            throw new InvalidInput("total", "total is required");
        }
        return this;
    }

    static String status(String value) {
        if (!STATUSES.contains(value)) {
            throw new InvalidInput("status", "status must be one of draft, open, paid, shipped, cancelled");
        }
        return value;
    }

    private static Optional<String> optionalString(JsonObject body, String field, int maxLength) {
        if (!body.containsKey(field)) {
            return Optional.empty();
        }
        return Optional.of(nullableString(body.get(field), field, maxLength)
                .orElseThrow(() -> new InvalidInput(field, field + " must not be null")));
    }

    private static Optional<String> nullableString(JsonValue value, String field, int maxLength) {
        if (value.getValueType() == JsonValue.ValueType.NULL) {
            return Optional.empty();
        }
        if (!(value instanceof JsonString text)) {
            throw new InvalidInput(field, field + " must be a string");
        }
        if (text.getString().isBlank() && !field.equals("note")) {
            throw new InvalidInput(field, field + " must not be blank");
        }
        if (text.getString().length() > maxLength) {
            throw new InvalidInput(field, field + " must be at most " + maxLength + " characters");
        }
        return Optional.of(text.getString());
    }

    private static BigDecimal amount(JsonValue value, String field) {
        if (!(value instanceof JsonNumber number)) {
            throw new InvalidInput(field, field + " must be a number");
        }
        BigDecimal amount = number.bigDecimalValue();
        if (amount.signum() < 0 || amount.scale() > 2 || amount.precision() - amount.scale() > 10) {
            throw new InvalidInput(field, field + " must be between 0 and 9999999999.99 with at most 2 decimals");
        }
        return amount;
    }

    private static List<LineInput> lines(JsonValue value) {
        if (!(value instanceof JsonArray array)) {
            throw new InvalidInput("lines", "lines must be an array");
        }
        List<LineInput> lines = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String prefix = "lines[" + i + "]";
            if (!(array.get(i) instanceof JsonObject line)) {
                throw new InvalidInput(prefix, prefix + " must be an object");
            }
            for (String name : line.keySet()) {
                if (!LINE_FIELDS.contains(name)) {
                    throw new InvalidInput(prefix + "." + name,
                            "Unknown field '" + name + "'; accepted: " + LINE_FIELDS);
                }
            }
            String product = optionalString(line, "product", 200)
                    .orElseThrow(() -> new InvalidInput(prefix + ".product", "product is required"));
            if (!(line.get("quantity") instanceof JsonNumber quantity) || !quantity.isIntegral()
                    || quantity.bigDecimalValue().compareTo(BigDecimal.ONE) < 0
                    || quantity.bigDecimalValue().compareTo(BigDecimal.valueOf(1_000_000)) > 0) {
                throw new InvalidInput(prefix + ".quantity", "quantity must be a whole number from 1 to 1000000");
            }
            if (!line.containsKey("unitPrice")) {
                throw new InvalidInput(prefix + ".unitPrice", "unitPrice is required");
            }
            lines.add(new LineInput(product, quantity.intValue(),
                    amount(line.get("unitPrice"), prefix + ".unitPrice")));
        }
        return lines;
    }
}
