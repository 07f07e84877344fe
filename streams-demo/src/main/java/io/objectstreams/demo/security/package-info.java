/** The demo's fixed users and HTTP Basic authentication; a real application brings its own. */
package io.objectstreams.demo.security;
