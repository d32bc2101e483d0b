/**
 * Kept-alive connections between the product's processes. A server closes a connection that has been idle for its
 * keep-alive timeout (Node a second later still); a client that sends on it at that moment gets a reset ("socket
 * hang up"), and a body streamed once cannot be sent again. The client learns of the close, or drops the connection
 * itself, only when its event loop gets round to it, which at a peak can be seconds late. So every pool of ours drops
 * a free connection long before any server of ours closes it, and the gap is what a late loop may eat.
 */

/** How long a server keeps an idle kept-alive connection open (`Keep-Alive: timeout=65` in its answers). */
export const SERVER_KEEP_ALIVE_MS = 65_000;

/**
 * How long a client's pool keeps a free connection before closing it itself (an http.Agent's `timeout`): well below
 * the shortest keep-alive of a server we call, ours (65 s) or MinIO's (30 s since minio/minio#6924).
 */
export const POOLED_CONNECTION_IDLE_MS = 15_000;
