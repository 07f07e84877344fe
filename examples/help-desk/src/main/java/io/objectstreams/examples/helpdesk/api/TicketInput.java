package io.objectstreams.examples.helpdesk.api;

/**
 * What a client may send to create or edit a ticket. On an edit, a field left out (null) keeps its value; a
 * {@code team} of {@code ""} takes the ticket off its team.
 */
public record TicketInput(String title, String team, String status, String requesterEmail) {
}
