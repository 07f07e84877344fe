/**
 * MicroProfile Health checks for the listener and the slot through which the listener reports to them.
 * These types only read a report; the listener in {@code streams-ejb} owns every decision and query.
 */
package io.objectstreams.health;
