package io.objectstreams.demo.store;

import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import io.objectstreams.StreamsCursor;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;

/** The store's REST API: orders as JSON under {@code /store/api/orders}. */
@Path("orders")
@StreamsCursor
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OrdersResource {

    /** Looked up once: {@code Json.createX} looks the JSON-P provider up again on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    OrderService orders;

    @Context
    SecurityContext security;

    @GET
    public JsonArray list() {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        orders.list(caller()).forEach(o -> array.add(json(o)));
        return array.build();
    }

    @POST
    public Response create(JsonValue body, @Context UriInfo uri) {
        CustomerOrder order = orders.create(caller(), OrderInput.parse(requireBody(body)));
        return Response.created(uri.getAbsolutePathBuilder().path(order.getId().toString()).build())
                .entity(json(order).build()).build();
    }

    @GET
    @Path("{id}")
    public JsonObject get(@PathParam("id") String id) {
        return json(orders.get(caller(), id(id))).build();
    }

    @PUT
    @Path("{id}")
    public JsonObject replace(@PathParam("id") String id, JsonValue body) {
        return json(orders.replace(caller(), id(id), OrderInput.parse(requireBody(body)))).build();
    }

    @PATCH
    @Path("{id}")
    public JsonObject patch(@PathParam("id") String id, JsonValue body) {
        return json(orders.patch(caller(), id(id), OrderInput.parse(requireBody(body)))).build();
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) {
        orders.delete(caller(), id(id));
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/restore")
    public JsonObject restore(@PathParam("id") String id, JsonValue body) {
        return json(orders.restore(caller(), id(id), OrderInput.parse(requireBody(body)))).build();
    }

    @DELETE
    @Path("{id}/lines/{line}")
    public JsonObject removeLine(@PathParam("id") String id, @PathParam("line") String line) {
        return json(orders.removeLine(caller(), id(id), id(line))).build();
    }

    @POST
    @Path("bulk-status")
    public JsonObject bulkStatus(JsonValue body) {
        JsonObject request = requireBody(body);
        for (String name : request.keySet()) {
            if (!List.of("from", "to").contains(name)) {
                throw new InvalidInput(name, "Unknown field '" + name + "'; accepted: [from, to]");
            }
        }
        String from = OrderInput.status(text(request, "from"));
        String to = OrderInput.status(text(request, "to"));
        return JSON.createObjectBuilder().add("updated", orders.bulkStatus(caller(), from, to)).build();
    }

    private Caller caller() {
        return new Caller(security.getUserPrincipal().getName(), security.isUserInRole("staff"));
    }

    private static JsonObject requireBody(JsonValue body) {
        if (!(body instanceof JsonObject object)) {
            throw new InvalidInput("body", "A JSON object body is required");
        }
        return object;
    }

    private static String text(JsonObject body, String field) {
        if (!(body.get(field) instanceof JsonString value)) {
            throw new InvalidInput(field, field + " is required and must be a string");
        }
        return value.getString();
    }

    private static long id(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidInput("id", "id must be a whole number");
        }
    }

    static JsonObjectBuilder json(CustomerOrder order) {
        JsonArrayBuilder lines = JSON.createArrayBuilder();
        for (OrderLine line : order.getLines()) {
            lines.add(JSON.createObjectBuilder()
                    .add("id", line.getId() == null ? 0 : line.getId())
                    .add("product", line.getProduct())
                    .add("quantity", line.getQuantity())
                    .add("unitPrice", line.getUnitPrice()));
        }
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("id", order.getId())
                .add("owner", order.getOwner())
                .add("status", order.getStatus())
                .add("total", order.getTotal())
                .add("lines", lines);
        if (order.getNote() == null) {
            json.addNull("note");
        } else {
            json.add("note", order.getNote());
        }
        return json;
    }
}
