/**
 * Visibility (G8): the application's policies by model, and the batched query deciding which subjects a
 * viewer may read. Read-only; it never changes the application's data.
 */
package io.objectstreams.web.visibility;
