// The demo's live page: loads the orders the signed-in user may read, then keeps the table live with the
// Object Streams client (snapshot, then live from the Streams-Cursor of that snapshot: no window).
import {StreamsClient, subscribeAfterLoad} from './streams/client/object-streams.js';

const MODEL = 'store.CustomerOrder';
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const page = {'X-Streams-Page': '1'}; // no Basic pop-up when signed out

let client = null;
let subscription = null;
/** @type {Map<string, object>} the rows on screen, by pk */
const rows = new Map();

async function api(path, options = {}) {
  const response = await fetch(path, {credentials: 'same-origin', ...options,
    headers: {...page, 'Accept': 'application/json', ...(options.headers ?? {})}});
  if (response.status === 401) {
    showSignIn();
    throw new Error('signed out');
  }
  return response;
}

function showSignIn() {
  $('signin').hidden = false;
  $('live').hidden = true;
  $('logout').hidden = true;
  $('who').textContent = '';
  client?.close();
  client = null;
}

function render(order, flash) {
  const pk = String(order.id);
  let tr = document.querySelector(`tr[data-pk="${pk}"]`);
  if (!tr) {
    tr = document.createElement('tr');
    tr.dataset.pk = pk;
    const body = $('orders');
    const after = [...body.children].find((row) => Number(row.dataset.pk) < Number(pk));
    body.insertBefore(tr, after ?? null);
  }
  tr.innerHTML = '';
  for (const value of [order.id, order.owner, null, order.total, order.note ?? '', null]) {
    const td = document.createElement('td');
    td.textContent = value ?? '';
    tr.append(td);
  }
  const status = document.createElement('select');
  status.className = 'status';
  for (const s of ['open', 'paid', 'shipped']) status.add(new Option(s, s, false, s === order.status));
  status.onchange = () => change(pk, {status: status.value});
  tr.children[2].append(status);
  const remove = document.createElement('button');
  remove.textContent = 'Delete';
  remove.className = 'delete';
  remove.onclick = () => change(pk, null);
  tr.children[5].append(remove);
  tr.dataset.status = order.status;
  rows.set(pk, order);
  if (flash) {
    tr.classList.remove('flash');
    void tr.offsetWidth; // restart the animation
    tr.classList.add('flash');
  }
}

function drop(pk) {
  rows.delete(pk);
  const tr = document.querySelector(`tr[data-pk="${pk}"]`);
  if (!tr) return;
  tr.classList.add('leaving');
  tr.dataset.leaving = 'true';
  setTimeout(() => tr.remove(), 600);
}

async function change(pk, patch) {
  $('message').textContent = '';
  const response = patch == null
    ? await api(`api/orders/${pk}`, {method: 'DELETE'})
    : await api(`api/orders/${pk}`, {method: 'PATCH', body: JSON.stringify(patch), headers: {'Content-Type': 'application/json'}});
  if (!response.ok) $('message').textContent = `${response.status}: ${await response.text()}`;
}

/** Events of one row are applied one after the other, in cursor order, whatever their fetches take. */
const queues = new Map();
function apply(event) {
  const pk = String(event.subject.pk);
  const next = (queues.get(pk) ?? Promise.resolve()).then(() => applyNow(event)).catch(show);
  queues.set(pk, next);
  next.then(() => { if (queues.get(pk) === next) queues.delete(pk); });
}

/** An event: fetch what changed, or take the row away. */
async function applyNow(event) {
  const pk = String(event.subject.pk);
  if (event.list_action === 'removed' || event.list_action === 'deleted') {
    drop(pk);
    return;
  }
  const response = await api(`api/orders/${pk}`);
  if (response.ok) render(await response.json(), true);
  else if (response.status === 404) drop(pk);
}

/** Loads the table for the chosen status, then streams it from the snapshot's cursor. */
async function load() {
  subscription?.unsubscribe();
  rows.clear();
  $('orders').innerHTML = '';
  const status = $('status-filter').value;
  const response = await api('api/orders');
  const options = {
    kind: status ? 'filter' : 'model',
    model: MODEL,
    filter: status ? {status} : undefined,
    onEvent: (event) => apply(event),
    onResync: async (resync, s) => {
      // The server could not replay what was missed: reload the snapshot and carry on from it.
      s.unsubscribe();
      await load();
    },
    onError: (error) => { $('message').textContent = `${error.code}: ${error.message}`; },
  };
  // Only the rows of the chosen status are on screen, so only those are the subscription's members.
  options.keep = (order) => !status || order.status === status;
  const {data, subscription: live} = await subscribeAfterLoad(client, response, options);
  subscription = live;
  for (const order of data) render(order, false);
  document.body.dataset.loaded = 'true';
}

async function start(me) {
  $('signin').hidden = true;
  $('live').hidden = false;
  $('logout').hidden = false;
  $('who').textContent = `signed in as ${me.user}${me.staff ? ' (staff)' : ''}`;
  client = new StreamsClient(new URL('.', location.href), {
    transport: params.get('transport') ?? 'auto',
    initialDelayMs: Number(params.get('retryMs') ?? 500),
    onState: ({state, transport}) => {
      const indicator = $('connection');
      indicator.className = `connection ${state}`;
      indicator.textContent = state === 'open' ? `live (${transport === 'sse' ? 'SSE' : 'WebSocket'})` : state;
      indicator.dataset.state = state;
    },
  });
  await load().catch(show);
}

function show(error) {
  $('message').textContent = String(error);
  console.error(error);
}

$('signin-form').onsubmit = async (e) => {
  e.preventDefault();
  $('signin-error').textContent = '';
  const form = new URLSearchParams(new FormData(e.target));
  const response = await fetch('login', {method: 'POST', body: form, headers: page, credentials: 'same-origin'});
  if (!response.ok) {
    $('signin-error').textContent = 'Wrong user or password';
    return;
  }
  await start(await response.json());
};
$('username').onchange = () => { $('password').placeholder = `${$('username').value}-pw`; };
$('logout').onclick = async () => {
  await fetch('logout', {method: 'POST', headers: page, credentials: 'same-origin'});
  showSignIn();
};
$('status-filter').onchange = () => load().catch(show);
$('create-form').onsubmit = async (e) => {
  e.preventDefault();
  $('message').textContent = '';
  const body = {status: $('create-status').value, total: Number($('create-total').value)};
  if ($('create-note').value) body.note = $('create-note').value;
  const response = await api('api/orders', {method: 'POST', body: JSON.stringify(body), headers: {'Content-Type': 'application/json'}});
  if (!response.ok) $('message').textContent = `${response.status}: ${await response.text()}`;
  else $('create-note').value = '';
};

const me = await (await fetch('me', {headers: page, credentials: 'same-origin'})).json();
if (me.user) await start(me);
