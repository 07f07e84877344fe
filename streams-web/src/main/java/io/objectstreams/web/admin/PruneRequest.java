package io.objectstreams.web.admin;

import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.web.subscription.ProtocolError;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@code POST streams/admin/prune} asks for, read from its parameters: a dry run or not, and the bounds, those
 * configured when it gives none. A parameter it does not take, or a value out of range, is refused with its code.
 *
 * @param dryRun  whether to report what would be deleted, deleting nothing
 * @param maxAge  the age bound, or {@code null}
 * @param maxRows the row bound, or 0
 */
record PruneRequest(boolean dryRun, Duration maxAge, long maxRows) {

    private static final Set<String> PARAMETERS = Set.of("dryRun", "maxAge", "maxRows");

    /** The request's prune, with {@code configured}'s bounds if it gives neither {@code maxAge} nor {@code maxRows}. */
    static PruneRequest read(HttpServletRequest request, StreamsFeed.RetentionStatus configured)
            throws ProtocolError {
        for (String name : request.getParameterMap().keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw new ProtocolError(ErrorCode.UNKNOWN_PARAMETER, "prune takes dryRun, maxAge and maxRows, not "
                        + ProtocolError.quoted(name));
            }
        }
        boolean dryRun = switch (Optional.ofNullable(request.getParameter("dryRun")).orElse("false")) {
            case "true", "" -> true;
            case "false" -> false;
            default -> throw new ProtocolError(ErrorCode.INVALID_PARAMETER, "dryRun must be true or false");
        };
        Duration maxAge = ageBound(request.getParameter("maxAge"));
        long maxRows = rowBound(request.getParameter("maxRows"));
        boolean given = request.getParameter("maxAge") != null || request.getParameter("maxRows") != null;
        if (!given) {
            maxAge = configured.maxAge();
            maxRows = configured.maxRows();
        }
        if (maxAge == null && maxRows == 0) {
            throw new ProtocolError(ErrorCode.NO_RETENTION_BOUND, "Give maxAge or maxRows"
                    + " (retention configures neither, so there is nothing to apply)");
        }
        return new PruneRequest(dryRun, maxAge, maxRows);
    }

    private static Duration ageBound(String text) throws ProtocolError {
        if (text == null) {
            return null;
        }
        Duration age = StreamsFeed.parseDuration(text).orElseThrow(() -> new ProtocolError(ErrorCode.INVALID_PARAMETER,
                "maxAge '" + text + "' is not a duration such as 90m, 12h or 7d"));
        if (age.compareTo(StreamsFeed.MIN_RETENTION_AGE) < 0) {
            throw new ProtocolError(ErrorCode.INVALID_PARAMETER, "maxAge must be at least "
                    + StreamsFeed.MIN_RETENTION_AGE.toMinutes()
                    + " minute: younger rows may still be on their way to clients");
        }
        return age;
    }

    private static long rowBound(String text) throws ProtocolError {
        if (text == null) {
            return 0;
        }
        try {
            if (text.length() <= 19) {
                long rows = Long.parseLong(text.trim());
                if (rows >= 1) {
                    return rows;
                }
            }
        } catch (NumberFormatException ignored) {
            // answered below
        }
        throw new ProtocolError(ErrorCode.INVALID_PARAMETER, "maxRows must be a whole number of at least 1");
    }
}
