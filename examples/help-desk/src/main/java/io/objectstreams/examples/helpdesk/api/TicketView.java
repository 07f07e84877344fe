package io.objectstreams.examples.helpdesk.api;

import io.objectstreams.examples.helpdesk.model.Comment;
import io.objectstreams.examples.helpdesk.model.Ticket;
import java.util.List;

/** A ticket as the API shows it: its team by id, its comments and tags in full, and how much activity it has. */
public record TicketView(String id, String team, String title, String status, String requesterEmail,
                         List<CommentView> comments, List<String> tags, long activity) {

    /** A comment as the API shows it. */
    public record CommentView(String id, String body) {

        static CommentView of(Comment comment) {
            return new CommentView(comment.getId().toString(), comment.getBody());
        }
    }

    static TicketView of(Ticket ticket, List<String> tags, long activity) {
        return new TicketView(ticket.getId().toString(),
                ticket.getTeam() == null ? null : ticket.getTeam().getId().toString(),
                ticket.getTitle(), ticket.getStatus(), ticket.getRequesterEmail(),
                ticket.getComments().stream().map(CommentView::of).toList(), tags, activity);
    }
}
