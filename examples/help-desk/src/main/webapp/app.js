// The help desk's page: loads the tickets the signed-in user may see, then follows them live with object-streams.js.
import {StreamsClient, subscribeAfterLoad} from './streams/client/object-streams.js';

const rows = new Map();                       // ticket id -> its row, as last fetched
const tbody = document.getElementById('tickets');
const log = document.getElementById('log');
const state = document.getElementById('state');

function render() {
  tbody.replaceChildren(...[...rows.values()].sort((a, b) => a.title.localeCompare(b.title)).map((ticket) => {
    const tr = document.createElement('tr');
    tr.dataset.id = ticket.id;
    for (const value of [ticket.title, ticket.status, ticket.requesterEmail, ticket.comments.length,
                         ticket.tags.join(', '), ticket.activity]) {
      const td = document.createElement('td');
      td.textContent = value;
      tr.append(td);
    }
    return tr;
  }));
}

async function refetch(id) {
  const response = await fetch(`api/tickets/${id}`);
  if (response.ok) {
    rows.set(id, await response.json());
  } else {
    rows.delete(id);                          // gone, or no longer ours to see
  }
  render();
}

function note(event) {
  const line = `${event.list_action} ${event.subject.pk} ${(event.changed_fields || []).join(',')}`;
  log.textContent = `${line}\n${log.textContent}`.slice(0, 4000);
}

let client = null;

async function loadAndSubscribe() {
  const response = await fetch('api/tickets');
  if (response.status === 401) {                // not signed in: the streams need the session too
    document.getElementById('signin').hidden = false;
    state.textContent = 'signed out';
    return;
  }
  client ??= new StreamsClient('./', {onState: ({state: s, transport}) => { state.textContent = `${s} (${transport})`; }});
  rows.clear();
  const {data} = await subscribeAfterLoad(client, response, {
    kind: 'model', model: 'helpdesk.Ticket',
    onEvent: (event) => {
      note(event);
      if (event.list_action === 'removed' || event.list_action === 'deleted') {
        rows.delete(event.subject.pk);
        render();
      } else {
        refetch(event.subject.pk);
      }
    },
    onResync: async (resync, subscription) => { subscription.unsubscribe(); await loadAndSubscribe(); },
  });
  for (const ticket of data) {
    rows.set(ticket.id, ticket);
  }
  render();
  document.body.dataset.loaded = 'true';
}

document.getElementById('signin').addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch('login', {method: 'POST', body: new URLSearchParams(new FormData(event.target))});
  if (response.ok) {
    document.getElementById('signin').hidden = true;
    await loadAndSubscribe();
  } else {
    document.getElementById('signin-error').textContent = 'wrong user or password';
  }
});

loadAndSubscribe();
