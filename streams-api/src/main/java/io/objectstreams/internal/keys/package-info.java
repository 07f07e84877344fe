/**
 * The one spelling of a key as text, not for applications: which Java types a key may have, the canonical text of a
 * value ({@link io.objectstreams.internal.keys.KeySpelling}) and of a subject's pk of one or more parts
 * ({@link io.objectstreams.internal.keys.PkText}), and how text spelled another way is read back. Capture, the
 * publisher, subscriptions, visibility and filters all read and write keys here, so that one key has one text on
 * every path (G8, G16). Nothing here touches a database, a mapping or state: it only converts values and text.
 */
package io.objectstreams.internal.keys;
