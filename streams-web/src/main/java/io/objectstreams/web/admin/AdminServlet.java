package io.objectstreams.web.admin;

import io.objectstreams.feed.CursorState;
import io.objectstreams.feed.PruneOutcome;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.internal.health.CaptureReport;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.feed.CaptureControl;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.web.subscription.Messages;
import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.web.subscription.ConnectionRegistry;
import jakarta.annotation.security.DeclareRoles;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The operator endpoints at {@code <context root>/streams/admin/}: {@code GET status}, {@code GET capture.sql}
 * (the capture triggers' SQL, G3), {@code GET numbering.sql} (the script that takes numbering back below schema V7,
 * for a rollback to an earlier release) and {@code POST prune} (G11, G13), for callers in the role {@value #ROLE}
 * only. Every answer but the SQL, refusals included, is JSON with a named
 * code on failure: 401 {@code authentication_required} for anonymous callers, 403 {@code forbidden} for others,
 * 403 {@code origin_not_allowed} for a prune posted from another site's page (it would ride on an operator's
 * browser credentials).
 */
@WebServlet(urlPatterns = "/streams/admin/*")
@DeclareRoles(AdminServlet.ROLE)
public class AdminServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = Logger.getLogger(AdminServlet.class.getName());

    /** The role that may call these endpoints. */
    public static final String ROLE = "streams-admin";

    @Inject
    transient StreamsFeed feed;

    @Inject
    transient ConnectionRegistry engine;

    @Inject
    transient CaptureControl triggers;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Script script = switch (String.valueOf(request.getPathInfo())) {
            case "/capture.sql" -> triggers::script;
            case "/numbering.sql" -> feed::numberingRollbackScript;
            default -> null;
        };
        if (script != null && request.isUserInRole(ROLE)) {
            script(response, script);
            return;
        }
        answer(response, () -> {
            authorize(request);
            if (!"/status".equals(request.getPathInfo())) {
                throw notFound(request);
            }
            return status();
        });
    }

    /** SQL written for the database as it stands now, for a DBA to review and run. */
    @FunctionalInterface
    private interface Script {
        String get() throws SQLException;
    }

    /** A script as plain text: the capture triggers as this deployment maps its tables, or the numbering rollback. */
    private static void script(HttpServletResponse response, Script source) throws IOException {
        String script;
        try {
            script = source.get();
        } catch (SQLException e) {
            answer(response, () -> {
                throw unavailable(e);
            });
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/plain");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(script);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(response, () -> {
            authorize(request);
            if (!"/prune".equals(request.getPathInfo())) {
                throw notFound(request);
            }
            sameOrigin(request);
            return prune(request);
        });
    }

    @FunctionalInterface
    private interface Answer {
        JsonObject get() throws ProtocolError;
    }

    private static void answer(HttpServletResponse response, Answer answer) throws IOException {
        JsonObject body;
        try {
            body = answer.get();
            response.setStatus(HttpServletResponse.SC_OK);
        } catch (ProtocolError refusal) {
            body = Messages.JSON.createObjectBuilder().add("code", refusal.code().wireName())
                    .add("message", refusal.getMessage()).build();
            response.setStatus(refusal.httpStatus());
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(body.toString());
    }

    private static void authorize(HttpServletRequest request) throws ProtocolError {
        if (request.getUserPrincipal() == null) {
            throw new ProtocolError(ErrorCode.AUTHENTICATION_REQUIRED, "The Object Streams admin endpoints need an"
                    + " authenticated caller in the role " + ROLE);
        }
        if (!request.isUserInRole(ROLE)) {
            throw new ProtocolError(ErrorCode.FORBIDDEN,
                    request.getUserPrincipal().getName() + " is not in the role " + ROLE);
        }
    }

    /** A state-changing call from a page of another site is refused; tools that send no Origin are not browsers. */
    private static void sameOrigin(HttpServletRequest request) throws ProtocolError {
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return;
        }
        Optional<String> own = StreamsFeed.normalizeOrigin(request.getScheme() + "://" + request.getHeader("Host"));
        if (own.isEmpty() || !own.equals(StreamsFeed.normalizeOrigin(origin))) {
            throw new ProtocolError(ErrorCode.ORIGIN_NOT_ALLOWED, "A prune may not be posted from a page of "
                    + ProtocolError.quoted(origin));
        }
    }

    private static ProtocolError notFound(HttpServletRequest request) {
        return new ProtocolError(ErrorCode.NOT_FOUND, "No admin endpoint " + request.getMethod() + " streams/admin"
                + (request.getPathInfo() == null ? "" : request.getPathInfo())
                + "; there are GET status, GET capture.sql, GET numbering.sql and POST prune");
    }

    private JsonObject status() throws ProtocolError {
        CursorState state;
        try {
            state = feed.cursorState();
        } catch (SQLException e) {
            throw unavailable(e);
        }
        JsonObjectBuilder body = Messages.JSON.createObjectBuilder()
                .add("cursor", state.lastCursor())
                .add("watermark", state.prunedThrough())
                .add("lastPrune", state.prunedAt() == null ? "never" : state.prunedAt().toString());
        StatusFigures.write(body, state, HealthRegistry.application().report(HealthRegistry.LISTENER), engine.report(),
                engine.transportCounts());
        CaptureReport capture = triggers.report();
        body.add("capture", Messages.JSON.createObjectBuilder().add("triggerCapturedTables", capture.tables())
                .add("problems", Messages.JSON.createArrayBuilder(capture.problems())));
        StreamsFeed.RetentionStatus retention = feed.retention();
        JsonObjectBuilder policy = Messages.JSON.createObjectBuilder();
        optional(policy, "maxAge", retention.maxAge());
        if (retention.maxRows() > 0) {
            policy.add("maxRows", retention.maxRows());
        } else {
            policy.addNull("maxRows");
        }
        policy.add("enabled", retention.maxAge() != null || retention.maxRows() > 0)
                .add("interval", retention.interval().toString())
                .add("batchSize", retention.batchSize());
        optional(policy, "lastRunHere", retention.lastRun());
        if (retention.lastOutcome() != null) {
            policy.add("lastOutcomeHere", outcome(retention.lastOutcome()));
        }
        optional(policy, "lastError", retention.lastError());
        return body.add("retention", policy).build();
    }

    private JsonObject prune(HttpServletRequest request) throws ProtocolError {
        PruneRequest asked = PruneRequest.read(request, feed.retention());
        PruneOutcome outcome;
        try {
            outcome = feed.prune(asked.maxAge(), asked.maxRows(), asked.dryRun());
        } catch (StreamsFeed.PruneBusy busy) {
            throw new ProtocolError(ErrorCode.PRUNE_IN_PROGRESS, busy.getMessage());
        } catch (SQLException e) {
            throw unavailable(e);
        }
        LOG.info(() -> (asked.dryRun() ? "Dry-run prune" : "Prune") + " by " + request.getUserPrincipal().getName()
                + ": " + outcome);
        JsonObjectBuilder body = Messages.JSON.createObjectBuilder(outcome(outcome));
        optional(body, "maxAge", asked.maxAge());
        return body.add("maxRows", asked.maxRows()).build();
    }

    private static JsonObject outcome(PruneOutcome outcome) {
        JsonObjectBuilder body = Messages.JSON.createObjectBuilder()
                .add("dryRun", outcome.dryRun())
                .add(outcome.dryRun() ? "wouldDelete" : "deleted", outcome.rows())
                .add("lastCursor", outcome.lastCursor())
                .add("watermarkBefore", outcome.watermarkBefore())
                .add("watermarkAfter", outcome.watermarkAfter())
                .add("batches", outcome.batches())
                .add("tookMs", outcome.took().toMillis());
        optional(body, "stoppedEarly", outcome.stoppedEarly());
        return body.build();
    }

    private static void optional(JsonObjectBuilder body, String name, Object value) {
        if (value == null) {
            body.addNull(name);
        } else {
            body.add(name, value.toString());
        }
    }

    private static ProtocolError unavailable(SQLException e) {
        LOG.log(Level.WARNING, "An Object Streams admin request could not read the database", e);
        return new ProtocolError(ErrorCode.UNAVAILABLE, "The database could not be reached: " + e.getMessage());
    }
}
