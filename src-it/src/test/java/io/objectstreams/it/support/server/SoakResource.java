package io.objectstreams.it.support.server;

import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST it/soak/rollback?action=create|update|delete&id=&owner=&at=flush|commit}: a write that rolls back
 * on purpose ({@link SoakRollbacks}). Answers 409 when it rolled back, 500 if it ever committed.
 */
@Path("it/soak")
@Produces(MediaType.APPLICATION_JSON)
public class SoakResource {

    @Inject
    SoakRollbacks rollbacks;

    @POST
    @Path("rollback")
    public Response rollback(@QueryParam("action") String action, @QueryParam("id") Long id,
                             @QueryParam("owner") String owner, @QueryParam("at") String at) {
        try {
            rollbacks.changeThenFail(action, id, owner, "commit".equals(at));
        } catch (EJBException | ScenarioFailure | jakarta.persistence.PersistenceException e) {
            return Response.status(409).entity(Json.createObjectBuilder()
                    .add("rolledBack", true).add("failure", e.getClass().getSimpleName()).build()).build();
        }
        return Response.serverError().entity(Json.createObjectBuilder().add("rolledBack", false).build()).build();
    }
}
