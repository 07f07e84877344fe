/**
 * The demo store: orders with lines, a REST API and per-user visibility. It shows what an application does
 * to stream its changes (annotate entities, list one mapping file) and nothing more.
 */
package io.objectstreams.demo.store;
