// Object Streams browser client: a dependency-free ES module, served by streams-web at
// <context root>/streams/client/object-streams.js and usable from a bundler. See docs/client.md.

/**
 * A message from the server: `subscribed`, `event`, `resync_required`, `unsubscribed` or `error`.
 * @typedef {Object} StreamMessage
 * @property {string} type
 * @property {string} [subscription_id]
 * @property {number} [cursor]
 * @property {string} [list_action] `added`, `changed`, `removed` or `deleted` (events)
 * @property {string} [op] `created`, `updated` or `deleted` (events)
 * @property {{model: string, pk: string}} [subject] (events)
 * @property {string[]} [changed_fields] (events)
 * @property {string} [reason] (resync_required)
 * @property {string} [code] (error)
 * @property {string} [message] (error)
 */

/**
 * @typedef {Object} SubscribeOptions
 * @property {'object'|'filter'|'model'} [kind] default `object` when `pk` is given, else `model`
 * @property {string} model the model label, e.g. `store.CustomerOrder`
 * @property {string|number} [pk] for `object`
 * @property {Object<string, string|number|boolean>} [filter] for `filter`, e.g. `{status: 'open'}`
 * @property {number} [cursor] resume after this cursor (e.g. a `Streams-Cursor` header)
 * @property {Iterable<string|number>} [members] the pks held at `cursor` (filter and model subscriptions)
 * @property {(event: StreamMessage, subscription: Subscription) => void} [onEvent]
 * @property {(resync: StreamMessage, subscription: Subscription) => void} [onResync] reload; then, for a filter or
 *   model subscription, unsubscribe and subscribe again from the reload (`subscribeAfterLoad`), or call
 *   `subscription.reset(members)` to carry on live (see docs/client.md for the race that leaves)
 * @property {(subscribed: StreamMessage, subscription: Subscription) => void} [onSubscribed]
 * @property {(error: StreamMessage, subscription: Subscription) => void} [onError] a refusal; the subscription ends
 */

/**
 * @typedef {Object} ClientOptions
 * @property {'auto'|'websocket'|'sse'} [transport] default `auto`: WebSocket, falling back to SSE
 * @property {(state: {state: 'connecting'|'open'|'reconnecting'|'closed', transport: string, attempt: number}) => void} [onState]
 * @property {number} [initialDelayMs] first reconnect delay, default 500
 * @property {number} [maxDelayMs] reconnect delay cap, default 15000
 * @property {number} [heartbeatSeconds] SSE heartbeat, default 25
 * @property {(error: StreamMessage) => void} [onError] an `error` about no subscription (a malformed request, a
 *   refused connection); an error about a subscription goes to that subscription's `onError`
 */

let nextId = 1;

/** Error codes that say "not now" rather than "never": the subscription is retried, not ended. */
const RETRIED = new Set(['unavailable', 'connection_limit_exceeded']);

/** One subscription; survives reconnects, resuming from the last cursor it processed. */
export class Subscription {
  /** @param {StreamsClient} client @param {SubscribeOptions} options */
  constructor(client, options) {
    this.client = client;
    this.options = options;
    /** The id the server knows it by. */
    this.id = `s${nextId++}`;
    /** The cursor of the last message processed, or null before the first. */
    this.cursor = options.cursor ?? null;
    /** @type {Set<string>|null} the pks held, for filter and model subscriptions */
    this.members = options.members == null ? null : new Set([...options.members].map(String));
    this.kind = options.kind ?? (options.pk != null ? 'object' : 'model');
    this.active = true;
    /** @type {EventSource|null} */
    this.source = null;
  }

  /** Ends the subscription. */
  unsubscribe() {
    if (!this.active) return;
    this.active = false;
    this.client._remove(this);
  }

  /** After reloading the data a resync asked for: the pks now held (the cursor is the resync's). */
  reset(members) {
    this.members = members == null ? null : new Set([...members].map(String));
  }

  /** The subscribe message, from the last processed cursor. */
  _message() {
    const message = {op: 'subscribe', kind: this.kind, model: this.options.model, subscription_id: this.id};
    if (this.kind === 'object') message.pk = String(this.options.pk);
    if (this.kind === 'filter') message.filter = this.options.filter ?? {};
    if (this.cursor != null) {
      message.cursor = this.cursor;
      if (this.kind !== 'object' && this.members) message.members = [...this.members];
    }
    return message;
  }

  /** @param {StreamMessage} message */
  _receive(message) {
    const o = this.options;
    switch (message.type) {
      case 'subscribed':
        // A fresh subscription is live from here; a resumed one keeps its cursor until the replay has arrived.
        if (this.cursor == null) this.cursor = message.cursor;
        if (this.kind !== 'object' && this.members == null) this.members = new Set();
        o.onSubscribed?.(message, this);
        break;
      case 'event':
        this.cursor = Math.max(this.cursor ?? 0, message.cursor);
        if (this.members) {
          const pk = String(message.subject.pk);
          if (message.list_action === 'removed' || message.list_action === 'deleted') this.members.delete(pk);
          else this.members.add(pk);
        }
        o.onEvent?.(message, this);
        break;
      case 'resync_required':
        this.cursor = message.cursor;
        o.onResync?.(message, this);
        break;
      case 'error':
        if (RETRIED.has(message.code)) {
          // Not a refusal: the server cannot start it now. It stays, and is sent again after a backoff.
          this.client._retry(this);
          break;
        }
        this.active = false;
        this.client._forget(this);
        o.onError?.(message, this);
        break;
      default:
        break;
    }
  }
}

/** A connection to one application's streams, over WebSocket or SSE, that reconnects by itself. */
export class StreamsClient {
  /**
   * @param {string|URL} base the application's root, e.g. `http://localhost:8080/store/`
   * @param {ClientOptions} [options]
   */
  constructor(base, options = {}) {
    this.base = new URL(base, globalThis.location?.href);
    if (!this.base.pathname.endsWith('/')) this.base.pathname += '/';
    this.options = options;
    this.transport = options.transport === 'sse' || typeof globalThis.WebSocket !== 'function' ? 'sse' : 'websocket';
    /** @type {Map<string, Subscription>} */
    this.subscriptions = new Map();
    this.socket = null;
    this.attempt = 0;
    this.closed = false;
    this.state = 'closed';
    this.timer = null;
    this.everOpened = false;
  }

  /**
   * Subscribes; returns at once. Messages arrive through the options' callbacks.
   * @param {SubscribeOptions} options
   * @returns {Subscription}
   */
  subscribe(options) {
    const subscription = new Subscription(this, options);
    this.subscriptions.set(subscription.id, subscription);
    if (this.transport === 'sse') this._openSse(subscription);
    else if (this.socket?.readyState === 1) this._send(subscription._message());
    else this._connect();
    return subscription;
  }

  /** Closes every subscription and the connection. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    for (const subscription of this.subscriptions.values()) subscription.source?.close();
    this.subscriptions.clear();
    this.socket?.close(1000);
    this._setState('closed');
  }

  _remove(subscription) {
    this._forget(subscription);
    if (this.transport === 'websocket' && this.socket?.readyState === 1) {
      this._send({op: 'unsubscribe', subscription_id: subscription.id});
    }
  }

  /** Sends a subscription again after a backoff, on whatever transport is up then. */
  _retry(subscription) {
    this.attempt++;
    setTimeout(() => {
      if (this.closed || !subscription.active) return;
      if (this.transport === 'sse') {
        if (!subscription.source) this._openSse(subscription, this.attempt);
      } else if (this.socket?.readyState === 1) {
        this._send(subscription._message());
      }
    }, this._delay());
  }

  _forget(subscription) {
    this.subscriptions.delete(subscription.id);
    subscription.source?.close();
    subscription.source = null;
  }

  _setState(state) {
    this.state = state;
    this.options.onState?.({state, transport: this.transport, attempt: this.attempt});
  }

  _send(message) {
    this.socket.send(JSON.stringify(message));
  }

  _delay() {
    const initial = this.options.initialDelayMs ?? 500;
    const max = this.options.maxDelayMs ?? 15000;
    const capped = Math.min(max, initial * 2 ** Math.min(this.attempt, 16));
    return capped / 2 + Math.random() * capped / 2; // jitter: a crowd of clients does not come back at once
  }

  _connect() {
    if (this.closed || this.socket) return;
    this._setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    const url = new URL('streams/ws', this.base);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.everOpened = true;
      this._setState('open');
      for (const subscription of this.subscriptions.values()) this._send(subscription._message());
    };
    socket.onmessage = (frame) => {
      let message;
      try {
        message = JSON.parse(frame.data);
      } catch {
        return;
      }
      const subscription = this.subscriptions.get(message.subscription_id);
      if (subscription) subscription._receive(message);
      else if (message.type === 'error') this.options.onError?.(message); // never dropped silently
    };
    socket.onclose = () => {
      this.socket = null;
      if (this.closed) return;
      if (!this.everOpened && this.options.transport !== 'websocket') {
        // Refused or unavailable before it ever opened (a proxy, a policy): carry on over SSE.
        this.transport = 'sse';
        this.attempt = 0;
        for (const subscription of this.subscriptions.values()) this._openSse(subscription);
        return;
      }
      this.attempt++;
      this._setState('reconnecting');
      this.timer = setTimeout(() => this._connect(), this._delay());
    };
  }

  /** One EventSource per subscription; reopened by this client (never by the browser) with fresh members. */
  _openSse(subscription, attempt = 0) {
    if (this.closed || !subscription.active) return;
    const m = subscription._message();
    const url = new URL(`streams/subscribe/${encodeURIComponent(m.model)}`, this.base);
    url.searchParams.set('kind', m.kind);
    if (m.pk != null) url.searchParams.set('pk', m.pk);
    for (const [key, value] of Object.entries(m.filter ?? {})) url.searchParams.set(`filter.${key}`, String(value));
    if (m.cursor != null) url.searchParams.set('cursor', String(m.cursor));
    if (m.members) url.searchParams.set('members', m.members.join(','));
    url.searchParams.set('heartbeat', `${this.options.heartbeatSeconds ?? 25}s`);
    this._setState(attempt === 0 && this.state !== 'open' ? 'connecting' : this.state);
    const source = new EventSource(url, {withCredentials: true});
    subscription.source = source;
    const receive = (frame) => {
      try {
        subscription._receive(JSON.parse(frame.data));
      } catch {
        // a frame that is not JSON is not ours
      }
    };
    for (const type of ['subscribed', 'event', 'resync_required', 'error']) source.addEventListener(type, receive);
    source.onopen = () => {
      attempt = 0;
      this.attempt = 0;
      this._setState('open');
    };
    let opened = false;
    source.addEventListener('open', () => { opened = true; });
    source.onerror = async () => {
      // The stream ended (its lifetime, a slow client, a restart) or could not open: reopen it ourselves, from
      // the last processed cursor and the members held now. EventSource hides why a stream could not open, so
      // ask once: a refusal (4xx but 429) ends the subscription through onError instead of retrying for ever.
      source.close();
      if (subscription.source !== source || !subscription.active || this.closed) return;
      subscription.source = null;
      if (!opened) {
        const refusal = await this._refusal(url);
        if (!subscription.active || this.closed || subscription.source) return;
        if (refusal) {
          subscription._receive({type: 'error', subscription_id: subscription.id, ...refusal});
          return;
        }
      }
      this.attempt = attempt + 1;
      this._setState('reconnecting');
      setTimeout(() => this._openSse(subscription, attempt + 1), this._delay());
    };
  }

  /**
   * Why the server refuses a stream for good, or null to retry. Asks with fetch (dropping a stream that does open
   * at once). Only the server's own answer ends a subscription: a 4xx whose JSON body carries a code that is not
   * "not now". A 404 page of a server being redeployed, a proxy's 403, a 429, a 5xx or no answer are retried.
   */
  async _refusal(url) {
    const abort = new AbortController();
    try {
      const response = await fetch(url, {credentials: 'include', signal: abort.signal});
      if (response.status < 400 || response.status >= 500) return null;
      const body = await response.json();
      if (typeof body?.code !== 'string' || RETRIED.has(body.code)) return null;
      return {code: body.code, message: body.message, status: response.status};
    } catch {
      return null; // no answer, or not the server's JSON
    } finally {
      abort.abort();
    }
  }
}

/**
 * The snapshot-then-live pattern: reads a JSON array from a fetch `Response`, and subscribes from the cursor in
 * its `Streams-Cursor` header, naming the pks it holds, so nothing committed between the load and the subscribe
 * is missed.
 * @param {StreamsClient} client
 * @param {Response} response a response of a resource marked `@StreamsCursor`
 * @param {SubscribeOptions & {pkOf?: (row: any) => string|number, keep?: (row: any) => boolean}} options
 *   `pkOf` defaults to `row => row.id`; `keep` picks the rows the subscription holds (default: all), e.g. those
 *   matching its filter when the response holds more
 * @returns {Promise<{data: any[], subscription: Subscription}>} `data`: the rows kept
 */
export async function subscribeAfterLoad(client, response, options) {
  const header = response.headers.get('Streams-Cursor');
  if (header == null) throw new Error('The response has no Streams-Cursor header; mark its resource @StreamsCursor');
  const keep = options.keep ?? (() => true);
  const data = (await response.json()).filter(keep);
  const pkOf = options.pkOf ?? ((row) => row.id);
  const {pkOf: _pk, keep: _keep, ...rest} = options;
  const subscription = client.subscribe({...rest, cursor: Number(header), members: data.map(pkOf)});
  return {data, subscription};
}
