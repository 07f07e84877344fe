package io.objectstreams.demo.store;

import io.objectstreams.StreamsException;
import jakarta.ejb.EJBException;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Turns the store's failures into JSON bodies: {@code {"error": code, "field": name, "message": text}}. */
final class ErrorMappers {

    private ErrorMappers() {
    }

    static Response error(Response.Status status, String code, String field, String message) {
        JsonObjectBuilder body = Json.createObjectBuilder().add("error", code).add("message", message);
        if (field != null) {
            body.add("field", field);
        }
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body.build()).build();
    }

    @Provider
    public static class InvalidInputMapper implements ExceptionMapper<InvalidInput> {
        @Override
        public Response toResponse(InvalidInput e) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", e.field(), e.getMessage());
        }
    }

    @Provider
    public static class NotFoundMapper implements ExceptionMapper<OrderNotFound> {
        @Override
        public Response toResponse(OrderNotFound e) {
            return error(Response.Status.NOT_FOUND, "not_found", "id", e.getMessage());
        }
    }

    /** Business exceptions thrown inside the EJB arrive wrapped; unwrap the ones with a meaning. */
    @Provider
    public static class EjbExceptionMapper implements ExceptionMapper<EJBException> {
        @Override
        public Response toResponse(EJBException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InvalidInput invalid) {
                return new InvalidInputMapper().toResponse(invalid);
            }
            if (cause instanceof OrderNotFound notFound) {
                return new NotFoundMapper().toResponse(notFound);
            }
            // A transaction that failed at commit: Object Streams' named errors come wrapped several times.
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof StreamsException streams) {
                    return error(Response.Status.INTERNAL_SERVER_ERROR, streams.code(), null, streams.getMessage());
                }
            }
            // The container has logged the failure with its cause already.
            return error(Response.Status.INTERNAL_SERVER_ERROR, "server_error", null,
                    "The change was not made: " + e.getMessage());
        }
    }

    /** A body that is not JSON, or not a JSON object, is a bad request, not a server error. */
    @Provider
    public static class UnreadableBodyMapper implements ExceptionMapper<ProcessingException> {
        @Override
        public Response toResponse(ProcessingException e) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "body", "The body is not a valid JSON object");
        }
    }

    /** Malformed JSON surfaces from the JSON-P reader on some servers. */
    @Provider
    public static class MalformedJsonMapper implements ExceptionMapper<JsonException> {
        @Override
        public Response toResponse(JsonException e) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "body",
                    "The body is not valid JSON: " + e.getMessage());
        }
    }

    /** Keeps the JSON shape for the framework's own errors (unknown route, wrong method, unreadable body). */
    @Provider
    public static class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            Response.StatusType status = e.getResponse().getStatusInfo();
            String code = status.getStatusCode() == 400 ? "invalid_request"
                    : status.getStatusCode() == 404 ? "not_found" : "http_" + status.getStatusCode();
            String message = status.getStatusCode() == 400 ? "The body is not a valid JSON object"
                    : status.getReasonPhrase();
            return Response.status(status).type(MediaType.APPLICATION_JSON)
                    .entity(Json.createObjectBuilder().add("error", code).add("message", message).build()).build();
        }
    }
}
