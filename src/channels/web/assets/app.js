// Mneme's page: the web chat and the memory console. Plain JavaScript, no build step.
// Model text is never put into the page as HTML: while it streams it is set as text, and the
// final reply goes through renderMarkdown, which escapes everything before adding the few
// tags it knows.
'use strict';

const $ = (id) => document.getElementById(id);
const state = {
  token: sessionStorage.getItem('mneme-token') || '',
  info: null,
  conversation: null,
  chats: [],
  sending: false,
  nextOffset: null,
};

// ---- API ----

class NeedsToken extends Error {}

async function api(path, options = {}) {
  const headers = {};
  if (state.token) headers['Authorization'] = 'Bearer ' + state.token;
  let body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const resp = await fetch(path, { method: options.method || 'GET', headers, body });
  if (resp.status === 401) {
    showTokenForm(state.token ? 'That token was not accepted.' : '');
    throw new NeedsToken('the server needs its access token');
  }
  return resp;
}

async function apiJson(path, options) {
  const resp = await api(path, options);
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(body.error || 'HTTP ' + resp.status);
  return body;
}

function showTokenForm(message) {
  $('token-view').hidden = false;
  $('token-error').textContent = message || '';
  $('token-input').focus();
}

// ---- Markdown, safely ----

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// Bold, italic and http(s) links in text that is escaped first.
function formatText(raw) {
  const kept = [];
  const hold = (html) => '\u0000' + (kept.push(html) - 1) + '\u0000';
  let s = escapeHtml(raw.replace(/\u0000/g, ''));
  s = s.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g,
    (_, text, url) => hold('<a href="' + url + '" target="_blank" rel="noopener noreferrer">' + text + '</a>'));
  s = s.replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>');
  s = s.replace(/(^|[^*\w])\*([^*\n]+)\*(?!\w)/g, '$1<em>$2</em>');
  s = s.replace(/(^|[^_\w])_([^_\n]+)_(?!\w)/g, '$1<em>$2</em>');
  s = s.replace(/\n/g, '<br>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => kept[Number(i)]);
}

function formatInline(raw) {
  const out = [];
  const code = /`([^`\n]+)`/g;
  let last = 0;
  let m;
  while ((m = code.exec(raw))) {
    out.push(formatText(raw.slice(last, m.index)));
    out.push('<code>' + escapeHtml(m[1]) + '</code>');
    last = code.lastIndex;
  }
  out.push(formatText(raw.slice(last)));
  return out.join('');
}

function renderMarkdown(src) {
  const out = [];
  const fence = /```[^\n`]*\n([\s\S]*?)(?:```|$)/g;
  let last = 0;
  let m;
  while ((m = fence.exec(src))) {
    out.push(formatInline(src.slice(last, m.index)));
    out.push('<pre><code>' + escapeHtml(m[1].replace(/\n$/, '')) + '</code></pre>');
    last = fence.lastIndex;
  }
  out.push(formatInline(src.slice(last)));
  return out.join('');
}

// ---- Server-sent events from a fetch response ----

function parseEvent(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, data: data.join('\n') } : null;
}

async function* events(resp) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const ev = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (ev) yield ev;
    }
  }
}

// ---- Chat ----

function newConversationId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return 'c-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function addBubble(role, text) {
  const div = document.createElement('div');
  div.className = 'msg ' + (role === 'user' ? 'user' : 'bot');
  if (role === 'user') div.textContent = text;
  else {
    div.innerHTML = renderMarkdown(text);
    div.dataset.state = 'done';
  }
  $('messages').appendChild(div);
  div.scrollIntoView({ block: 'end' });
  return div;
}

async function openConversation(id) {
  state.conversation = id;
  localStorage.setItem('mneme-conversation', id);
  if (location.hash !== '#' + id) history.replaceState(null, '', '#' + id);
  $('chat-title').textContent = 'web:' + id;
  $('messages').replaceChildren();
  renderConversationList();
  const history_ = await apiJson('/api/chats/' + encodeURIComponent(id) + '/messages');
  if (state.conversation !== id) return;
  for (const m of history_.messages) addBubble(m.role, m.text);
}

function renderConversationList() {
  const list = $('conversation-list');
  const ids = state.chats.filter((c) => c.chat.startsWith('web:')).map((c) => c.chat.slice(4));
  if (state.conversation && !ids.includes(state.conversation)) ids.unshift(state.conversation);
  list.replaceChildren(...ids.map((id) => {
    const li = document.createElement('li');
    li.textContent = id;
    li.dataset.id = id;
    if (id === state.conversation) li.className = 'current';
    li.addEventListener('click', () => openConversation(id).catch(report));
    return li;
  }));
}

async function send(text) {
  state.sending = true;
  $('send').disabled = true;
  addBubble('user', text);
  const bubble = document.createElement('div');
  bubble.className = 'msg bot';
  bubble.dataset.state = 'streaming';
  bubble.dataset.deltas = '0';
  $('messages').appendChild(bubble);
  let streamed = '';
  try {
    const resp = await api('/api/chats/' + encodeURIComponent(state.conversation) + '/messages',
      { method: 'POST', json: { text } });
    if (!resp.ok) {
      const body = await resp.json().catch(() => ({}));
      throw new Error(body.error || 'HTTP ' + resp.status);
    }
    let finished = false;
    for await (const ev of events(resp)) {
      const data = JSON.parse(ev.data);
      if (ev.event === 'delta') {
        streamed += data.text;
        bubble.textContent = streamed;
        bubble.dataset.deltas = String(Number(bubble.dataset.deltas) + 1);
      } else if (ev.event === 'reply') {
        bubble.innerHTML = renderMarkdown(data.text);
        bubble.dataset.kind = data.kind;
        if (data.kind === 'error') bubble.classList.add('error');
        finished = true;
      } else if (ev.event === 'error') {
        bubble.textContent = data.error;
        bubble.classList.add('error');
        finished = true;
      }
      bubble.scrollIntoView({ block: 'end' });
    }
    if (!finished) throw new Error('the connection closed before the reply was complete');
  } catch (e) {
    bubble.textContent = (streamed ? streamed + '\n\n' : '') + 'Error: ' + e.message;
    bubble.classList.add('error');
  } finally {
    bubble.dataset.state = 'done';
    state.sending = false;
    $('send').disabled = false;
    loadChats().catch(() => {});
  }
}

// ---- Memory console ----

function scopeValue() {
  return $('scope').value;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== undefined && v !== null) q.set(k, v);
  const s = q.toString();
  return s ? '?' + s : '';
}

function note(message, isError) {
  $('memory-note').textContent = message || '';
  $('memory-note').className = isError ? 'error' : '';
}

async function loadChats() {
  const body = await apiJson('/api/chats');
  state.chats = body.chats;
  renderConversationList();
  const select = $('scope');
  const current = select.value;
  const fixed = Array.from(select.options).slice(0, 2);
  const options = state.chats.map((c) => {
    const o = document.createElement('option');
    o.value = c.chat;
    o.textContent = c.chat + (c.title ? ' — ' + c.title : '') + ' (' + c.memories + ')';
    return o;
  });
  select.replaceChildren(...fixed, ...options);
  select.value = Array.from(select.options).some((o) => o.value === current) ? current : '';
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function button(label, className, onClick, disabledReason) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = className;
  if (disabledReason) {
    b.disabled = true;
    b.title = disabledReason;
  }
  b.addEventListener('click', onClick);
  return b;
}

function memoryRow(m) {
  const tr = document.createElement('tr');
  tr.className = 'memory-row' + (m.archived ? ' archived' : '');
  tr.dataset.id = String(m.id);
  const locked = m.chat === 'global' && !state.info.global_editable
    ? state.info.global_locked_reason : '';
  const content = cell(m.content, 'content');
  if (m.archived) content.append(' [archived]');
  if (m.stages) {
    // What each ranking stage made of a search hit, as `mneme memory search` prints it.
    const st = m.stages;
    const parts = ['score ' + Number(m.score).toFixed(2)];
    parts.push(st.bm25_rank ? 'bm25 #' + st.bm25_rank : 'bm25 —');
    if (st.cosine !== null && st.cosine !== undefined) {
      parts.push((st.vector_rank ? 'vector #' + st.vector_rank : 'vector —')
        + ' (cos ' + Number(st.cosine).toFixed(2) + ')');
    }
    parts.push('decay ' + Number(st.decay).toFixed(2));
    const small = document.createElement('div');
    small.className = 'stages';
    small.textContent = parts.join(' · ');
    content.append(small);
  }
  const seen = m.last_seen_at ? m.last_seen_at.slice(0, 10) : '';
  const actions = document.createElement('td');
  actions.className = 'actions';
  actions.append(
    button('History', 'history', () => showHistory(tr, m).catch(report)),
    ' ',
    button('Edit', 'edit', () => editRow(tr, m), locked),
    ' ',
    button('Forget', 'forget', () => forget(m), locked),
  );
  tr.append(cell('#' + m.id), cell(m.chat), cell(m.category), content,
    cell(Number(m.confidence).toFixed(2)), cell(m.source), cell(seen), actions);
  return tr;
}

function editRow(tr, m) {
  const td = tr.querySelector('td.content');
  const area = document.createElement('textarea');
  area.className = 'edit-content';
  area.value = m.content;
  area.rows = 3;
  const cat = document.createElement('select');
  cat.className = 'edit-category';
  for (const c of ['PROFILE', 'KNOWLEDGE', 'EVENT']) {
    const o = document.createElement('option');
    o.textContent = c;
    cat.appendChild(o);
  }
  cat.value = m.category;
  const save = button('Save', 'save', async () => {
    try {
      await apiJson('/api/memories/' + m.id, {
        method: 'PATCH', json: { content: area.value, category: cat.value },
      });
      note('Saved memory #' + m.id + '.');
      await refreshMemory();
    } catch (e) { note('Not saved: ' + e.message, true); }
  });
  const cancel = button('Cancel', 'cancel', () => refreshMemory().catch(report));
  td.replaceChildren(area, cat, ' ', save, ' ', cancel);
  area.focus();
}

// A memory's history and sources, under its row (as `mneme memory show ID` prints them).
async function showHistory(tr, m) {
  const next = tr.nextElementSibling;
  if (next && next.classList.contains('history-row')) { next.remove(); return; }
  const e = await apiJson('/api/memories/' + m.id);
  const row = document.createElement('tr');
  row.className = 'history-row';
  const td = document.createElement('td');
  td.colSpan = 8;
  const list = document.createElement('ul');
  for (const h of e.history) {
    let text = h.at + ' ' + h.kind;
    if (h.other_id) text += (h.kind === 'superseded' ? ' by #' : ' #') + h.other_id;
    if (h.content) text += (h.kind === 'reworded' ? ' (was "' : ' (as "') + h.content + '")';
    if (h.note) text += ' — ' + h.note;
    if (h.source_message_ids && h.source_message_ids.length) text += '; messages #' + h.source_message_ids.join(', #');
    const li = document.createElement('li');
    li.textContent = text;
    list.appendChild(li);
  }
  const sources = document.createElement('ul');
  for (const s of e.sources) {
    const li = document.createElement('li');
    li.textContent = '#' + s.id + ' ' + s.at + ' ' + s.sender + ': ' + s.text;
    sources.appendChild(li);
  }
  const h1 = document.createElement('strong');
  h1.textContent = 'History';
  const h2 = document.createElement('strong');
  h2.textContent = e.sources.length ? 'Came from' : 'Came from: no stored messages';
  td.append(h1, list, h2, sources);
  row.appendChild(td);
  tr.after(row);
}

async function forget(m) {
  if (!window.confirm('Forget memory #' + m.id + '?\n\n' + m.content)) return;
  try {
    await apiJson('/api/memories/' + m.id, { method: 'DELETE' });
    note('Forgot memory #' + m.id + '.');
    await refreshMemory();
  } catch (e) { note('Not forgotten: ' + e.message, true); }
}

// The list comes a page at a time, oldest first; `more` adds the next page to it.
async function loadMemories(more) {
  const q = $('search-input').value.trim();
  const chat = scopeValue();
  const offset = more ? state.nextOffset : 0;
  const body = q
    ? await apiJson('/api/memories/search' + query({ q, chat, limit: 50 }))
    : await apiJson('/api/memories' + query({
      chat, category: $('category').value, archived: $('archived').checked ? 'true' : '',
      offset: offset ? String(offset) : '',
    }));
  const rows = body.memories.map(memoryRow);
  if (more) $('memory-rows').append(...rows);
  else $('memory-rows').replaceChildren(...rows);
  if (body.note) note(body.note, true);
  const shown = $('memory-rows').children.length;
  $('memory-empty').hidden = shown > 0;
  state.nextOffset = body.next_offset ?? null;
  $('memory-page').hidden = state.nextOffset === null;
  $('memory-count').textContent = body.total !== undefined
    ? shown + ' of ' + body.total + ' shown (oldest first).' : '';
}

function card(title, build) {
  const div = document.createElement('div');
  div.className = 'card';
  const h = document.createElement('h3');
  h.textContent = title;
  div.appendChild(h);
  build(div);
  return div;
}

function line(parent, text, className) {
  const p = document.createElement('div');
  p.textContent = text;
  if (className) p.className = className;
  parent.appendChild(p);
}

function when(ms) {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

// A job's last run in words: never, running since…, ok at…, failed at… (why).
function lastRun(j) {
  if (!j.last_started_at) return 'never';
  if (j.last_finished_at === null || j.last_finished_at < j.last_started_at) return 'running since ' + when(j.last_started_at);
  const secs = Math.round((j.last_finished_at - j.last_started_at) / 1000);
  return (j.last_ok ? 'ok ' : 'failed ') + when(j.last_started_at) + ' (' + secs + ' s)' +
    (j.last_error ? ': ' + j.last_error : '');
}

async function loadStats() {
  const s = await apiJson('/api/stats' + query({ chat: scopeValue() }));
  const r = s.reflector_24h;
  const inj = s.injection_24h;
  const coverage = inj.candidates > 0 ? Math.round(100 * inj.selected / inj.candidates) + ' %' : 'n/a';
  $('cards').replaceChildren(
    card('Memory pool', (d) => {
      line(d, s.pool.active + ' active', 'big');
      line(d, s.pool.archived + ' archived · ' + s.pool.low_confidence + ' low confidence');
    }),
    card('Reflector, last 24 h', (d) => {
      line(d, r.runs + ' runs' + (r.failures ? ', ' + r.failures + ' failed' : ''), 'big');
      line(d, r.extracted + ' extracted · ' + r.inserted + ' inserted · ' + r.updated + ' updated · ' +
        r.superseded + ' superseded · ' + r.skipped + ' skipped');
      for (const b of s.set_aside || []) {
        line(d, 'Set aside: ' + b.chat + ' messages ' + (b.after_message_id + 1) + '–' + b.last_message_id +
          ' after ' + b.attempts + ' unreadable answers', 'warn');
      }
    }),
    card('Injection coverage, last 24 h', (d) => {
      line(d, coverage, 'big');
      line(d, inj.selected + ' of ' + inj.candidates + ' candidates in ' + inj.prompts + ' prompts');
    }),
    card('Scheduled jobs', (d) => {
      if (!(s.jobs || []).length) { line(d, 'None recorded yet (the daemon records them).'); return; }
      const t = document.createElement('table');
      for (const j of s.jobs) {
        const tr = document.createElement('tr');
        tr.append(cell(j.name), cell(j.schedule), cell('last: ' + lastRun(j)),
          cell('next: ' + (j.next_run_at ? when(j.next_run_at) : '—')));
        if (j.last_ok === false) tr.className = 'warn';
        t.appendChild(tr);
      }
      d.appendChild(t);
    }),
    card('LLM tokens per chat', (d) => {
      if (!s.tokens.length) { line(d, 'No model calls yet.'); return; }
      const t = document.createElement('table');
      for (const u of s.tokens) {
        const tr = document.createElement('tr');
        tr.append(cell(u.chat || '(background)'), cell(u.purpose),
          cell(u.input_tokens + ' in'), cell(u.output_tokens + ' out'));
        t.appendChild(tr);
      }
      d.appendChild(t);
    }),
  );
}

async function loadAgentsMd() {
  const chat = scopeValue() || 'global';
  const f = await apiJson('/api/agents-md' + query({ chat }));
  $('agents-scope').textContent = f.chat;
  $('agents-text').value = f.content;
  $('agents-text').readOnly = !f.editable;
  $('agents-save').disabled = !f.editable;
  $('agents-note').textContent = f.editable
    ? 'Injected into every prompt of ' + (f.chat === 'global' ? 'every chat' : f.chat) + '; at most ' + f.max_bytes + ' bytes.'
    : f.locked_reason;
  $('agents-status').textContent = '';
}

async function saveAgentsMd() {
  const chat = scopeValue() || 'global';
  try {
    await apiJson('/api/agents-md' + query({ chat }), { method: 'PUT', json: { content: $('agents-text').value } });
    $('agents-status').textContent = 'Saved.';
  } catch (e) { $('agents-status').textContent = 'Not saved: ' + e.message; }
}

async function exportMemories() {
  const resp = await api('/api/memories/export' + query({ chat: scopeValue() }));
  if (!resp.ok) throw new Error('export failed: HTTP ' + resp.status);
  const url = URL.createObjectURL(await resp.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = 'mneme-memories.jsonl';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function refreshMemory() {
  await Promise.all([loadMemories(), loadStats()]);
}

async function openMemoryView() {
  await loadChats();
  await Promise.all([refreshMemory(), loadAgentsMd()]);
}

// ---- Wiring ----

function report(e) {
  if (e instanceof NeedsToken) return;
  $('status').textContent = e.message;
}

function showView(id) {
  for (const tab of document.querySelectorAll('.tab')) {
    tab.classList.toggle('active', tab.dataset.view === id);
    $(tab.dataset.view).hidden = tab.dataset.view !== id;
  }
  if (id === 'memory-view') openMemoryView().catch(report);
}

async function start() {
  state.info = await apiJson('/api/info');
  $('token-view').hidden = true;
  $('status').textContent = 'Mneme ' + state.info.version;
  await loadChats();
  const wanted = decodeURIComponent(location.hash.slice(1)) || localStorage.getItem('mneme-conversation');
  await openConversation(/^[A-Za-z0-9._-]{1,64}$/.test(wanted || '') ? wanted : newConversationId());
}

document.addEventListener('DOMContentLoaded', () => {
  for (const tab of document.querySelectorAll('.tab')) {
    tab.addEventListener('click', () => showView(tab.dataset.view));
  }
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    state.token = $('token-input').value.trim();
    sessionStorage.setItem('mneme-token', state.token);
    start().catch(report);
  });
  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('message-input').value;
    if (!text.trim() || state.sending) return;
    $('message-input').value = '';
    send(text);
  });
  $('message-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('composer').requestSubmit();
    }
  });
  $('new-conversation').addEventListener('click', () => openConversation(newConversationId()).catch(report));
  $('scope').addEventListener('change', () => Promise.all([refreshMemory(), loadAgentsMd()]).catch(report));
  $('category').addEventListener('change', () => loadMemories().catch(report));
  $('archived').addEventListener('change', () => loadMemories().catch(report));
  $('memory-more').addEventListener('click', () => loadMemories(true).catch(report));
  $('refresh').addEventListener('click', () => openMemoryView().catch(report));
  $('search-form').addEventListener('submit', (e) => { e.preventDefault(); loadMemories().catch(report); });
  $('export').addEventListener('click', () => exportMemories().catch(report));
  $('agents-save').addEventListener('click', () => saveAgentsMd());
  start().catch(report);
});
