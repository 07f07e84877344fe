package io.objectstreams.it.support.server;

import io.objectstreams.StreamsException;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;

/** Exposes {@link ScenarioBean} over HTTP for the client-side tests; deployed only in test archives. */
@Path("it/capture")
@Produces(MediaType.APPLICATION_JSON)
public class CaptureScenarioResource {

    /**
     * Looked up once: {@code Json.createObjectBuilder()} looks the provider up through a {@code ServiceLoader} on
     * every call, which on Payara scans the application's jars. In the capture-overhead benchmark that took about
     * 15% of each request's CPU in both arms, padding the plain write the streamed one is compared with.
     */
    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    ScenarioBean scenarios;

    @Inject
    ExtendedPartEditor extendedEditor;

    @POST
    @Path("{scenario}")
    public Response run(@PathParam("scenario") String scenario, @QueryParam("id") Long id,
                        @QueryParam("count") Integer count, @QueryParam("to") Long to,
                        @QueryParam("owner") String owner, @QueryParam("pk") String pk) {
        try {
            Object result = switch (scenario) {
                case "create-then-fail" -> scenarios.createThenFailAfterFlush();
                case "create-then-update" -> scenarios.createThenUpdate();
                case "update-twice" -> run(() -> scenarios.updateTwice(id));
                case "update-then-delete" -> run(() -> scenarios.updateThenDelete(id));
                case "create-then-delete" -> run(scenarios::createThenDelete);
                case "update-at-commit" -> run(() -> scenarios.updateFlushedAtCommit(id));
                case "rewrite-same" -> run(() -> scenarios.rewriteSameValues(id));
                case "create-many" -> ids(scenarios.createMany(count));
                case "update-many" -> run(() -> scenarios.updateMany(scenarios.createMany(count)));
                case "add-line" -> run(() -> scenarios.addLine(id));
                case "remove-line" -> run(() -> scenarios.removeFirstLine(id));
                case "remove-part-with-helper" -> run(() -> scenarios.removePartWithHelper(id));
                case "twins-with-part" -> scenarios.createTwinsWithPart();
                case "publish-order-as" -> run(() -> scenarios.publishOrderAs(id, pk));
                case "recreate-order" -> run(() -> scenarios.recreateOrder(id, owner));
                case "detach-part" -> run(() -> scenarios.detachPart(id));
                case "move-part-then-remove" -> run(() -> scenarios.movePartThenRemove(id, to));
                case "move-part-extended" -> run(() -> {
                    extendedEditor.load(id);
                    extendedEditor.moveTo(to);
                });
                case "non-streamed" -> scenarios.writeNonStreamed();
                case "touch-streamed" -> run(() -> scenarios.touchOrder(id, true));
                case "touch-plain" -> run(() -> scenarios.touchOrder(id, false));
                case "publish-note-change" -> run(() -> scenarios.publishNoteChange(id));
                case "publish-after-native-update" -> run(() -> scenarios.publishAfterNativeUpdate(id));
                case "publish-then-update" -> run(() -> scenarios.publishThenUpdate(id));
                case "publish-after-jdbc-write" -> scenarios.publishAfterJdbcWrite();
                case "publish-without-transaction" -> run(scenarios::publishWithoutTransaction);
                default -> throw new IllegalArgumentException("unknown scenario " + scenario);
            };
            return Response.ok(JSON.createObjectBuilder().add("result", String.valueOf(result)).build()).build();
        } catch (EJBException | StreamsException | ScenarioFailure e) {
            Throwable cause = streamsCause(e).orElse(e instanceof EJBException && e.getCause() != null ? e.getCause() : e);
            JsonObject body = JSON.createObjectBuilder()
                    .add("failed", cause.getClass().getSimpleName())
                    .add("code", cause instanceof StreamsException s ? s.code() : "")
                    .add("message", String.valueOf(cause.getMessage()))
                    .build();
            return Response.status(409).entity(body).build();
        }
    }

    /** A failure at commit reaches here wrapped by the container: the named error is deeper in the chain. */
    private static Optional<Throwable> streamsCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StreamsException) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private static String run(Runnable scenario) {
        scenario.run();
        return "ok";
    }

    private static JsonArray ids(List<Long> ids) {
        return JSON.createArrayBuilder(ids).build();
    }
}
