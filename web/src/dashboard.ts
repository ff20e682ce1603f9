import { escape, formatMoney, formatPercent, html, Safe } from './html';
import { page } from './pages';
import { createSseDecoder } from '../../src/shared/sse';

/** Pages of the dashboard (search, compare, chat) and sign-in. They need a signed-in analyst. */

export interface Session {
  token: string;
  role: string;
}

export function signInPage(message: string | null, next: string): string {
  return page('Sign in', html`
<h1>Sign in</h1>
<p>Search, comparisons and chat need an API key with the <strong>analyst</strong> role. Ask the service's operator for one
(<code>npm run keys -- create --name you --role analyst</code>); company pages are open to everyone.</p>
${message ? html`<p role="alert" class="error">${message}</p>` : ''}
<form method="post" action="/signin" class="filters">
  <input type="hidden" name="next" value="${next}">
  <label for="api_key">API key <input id="api_key" name="api_key" type="password" autocomplete="off" required size="48"></label>
  <button type="submit">Sign in</button>
</form>`);
}

/** What an anonymous or under-privileged visitor sees instead of a dashboard page. */
export function accessPage(session: Session | null, pathName: string): string {
  return page('Sign in needed', html`
<h1>Analyst access needed</h1>
<p>${session ? html`You are signed in as a <strong>${session.role}</strong>; this page needs the <strong>analyst</strong> role.` : 'This page is for signed-in analysts.'}
Get an API key with the analyst role from the service's operator, then <a href="/signin?next=${encodeURIComponent(pathName)}">sign in</a>.</p>`);
}

export function dashboardPage(session: Session): string {
  return page('Dashboard', html`
<h1>Dashboard</h1>
<p>Signed in as <strong>${session.role}</strong>.</p>
<ul>
  <li><a href="/search">Search company documents</a></li>
  <li><a href="/compare">Compare companies</a> with an AI comparison</li>
  <li><a href="/chat">Chat</a> about the companies' figures and documents</li>
</ul>
<form method="post" action="/signout"><button type="submit">Sign out</button></form>`);
}

/** The query's words marked in a snippet (escaped first, so nothing of the document becomes markup). */
export function highlight(text: string, query: string): Safe {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const escaped = escape(text);
  if (words.length === 0) return new Safe(escaped);
  return new Safe(escaped.replace(new RegExp(`\\b(${words.join('|')})\\w*`, 'giu'), '<mark>$&</mark>'));
}

function snippet(content: string, query: string, size = 320): string {
  const lower = content.toLowerCase();
  const first = (query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map((w) => lower.indexOf(w)).filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? 0;
  const start = Math.max(0, first - 80);
  return `${start > 0 ? '…' : ''}${content.slice(start, start + size).replace(/\s+/g, ' ')}${start + size < content.length ? '…' : ''}`;
}

export function searchPage(query: string, companies: Array<{ id: number; ticker: string; name: string }>, companyId: number | null, hits: Array<{ content: string; ticker: string; title: string; docType: string; period: string | null }> | null): string {
  return page('Search', html`
<h1>Search documents</h1>
<form method="get" action="/search" class="filters" role="search">
  <label for="q">Search for <input id="q" name="q" type="search" value="${query}" required size="40"></label>
  <label for="company">Company
    <select id="company" name="company"><option value="">All companies</option>
      ${companies.map((c) => html`<option value="${c.id}"${new Safe(c.id === companyId ? ' selected' : '')}>${c.ticker} · ${c.name}</option>`)}
    </select>
  </label>
  <button type="submit">Search</button>
</form>
${hits === null ? '' : hits.length === 0 ? html`<p role="status">No passages match.</p>` : html`
<p role="status" class="muted">${hits.length} passages, best first.</p>
<ol class="results">${hits.map((hit) => html`<li><p><a href="/companies/${encodeURIComponent(hit.ticker)}">${hit.ticker}</a> · ${hit.title} <span class="muted">(${hit.docType}${hit.period ? html`, ${hit.period}` : ''})</span></p><p class="snippet">${highlight(snippet(hit.content, query), query)}</p></li>`)}</ol>`}`);
}

export function comparePage(
  companies: Array<{ id: number; ticker: string; name: string }>,
  chosen: number[],
  period: string,
  result: Awaited<ReturnType<import('./service').ServiceClient['compare']>> | null,
  message: string | null,
): string {
  const format = (unit: string, value: number | null, currency: string) =>
    value === null ? '—' : unit === 'fraction' ? formatPercent(value) : unit === 'multiple' ? `${value.toFixed(2)}x` : formatMoney(value, currency);
  const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  return page('Compare', html`
<h1>Compare companies</h1>
<form method="get" action="/compare" class="filters">
  <fieldset><legend>Companies (2 to 5)</legend>
    <div class="choices">${companies.map((c) => html`<label class="choice"><input type="checkbox" name="company" value="${c.id}"${new Safe(chosen.includes(c.id) ? ' checked' : '')}> ${c.ticker}</label>`)}</div>
  </fieldset>
  <label for="period">Period <input id="period" name="period" value="${period}" size="10" placeholder="latest-fy"></label>
  <button type="submit">Compare</button>
</form>
${message ? html`<p role="alert" class="error">${message}</p>` : ''}
${result ? html`
<table><thead><tr><th scope="col">Measure</th>${result.table[0]?.values.map((v) => html`<th scope="col" class="num">${v.ticker} <span class="muted">${v.period}</span></th>`) ?? ''}</tr></thead>
<tbody>${result.table.map((row) => html`<tr><th scope="row">${capitalized(row.label)}</th>${row.values.map((v) => html`<td class="num">${format(row.unit, v.value, v.currency)}</td>`)}</tr>`)}</tbody></table>
<section aria-labelledby="analysis"><h2 id="analysis">Analysis</h2><p data-comparison>${result.comparison}</p>
<p class="muted">Written by ${result.model}; ${result.grounding.numbersChecked} figures checked against the statements, ${result.grounding.numbersUnsupported} unsupported.</p>
<h3>Citations</h3><ul class="citations">${result.citations.map((c) => html`<li><a href="/companies/${encodeURIComponent(c.ticker)}${c.period ? `?period=${encodeURIComponent(c.period)}` : ''}">${c.ticker} ${c.period ?? ''} ${c.field ?? c.title ?? ''}</a></li>`)}</ul></section>` : ''}`);
}

export function chatPage(answer: { text: string; citations: Array<{ ticker: string; period: string | null; field: string | null; title: string | null }> } | null, question: string): string {
  return page('Chat', html`
<h1>Chat</h1>
<form id="chat-form" method="post" action="/chat" class="filters">
  <label for="question">Your question <input id="question" name="question" value="${question}" required size="60" placeholder="How is NWSC doing on cash flow?"></label>
  <button type="submit">Ask</button>
</form>
<section aria-live="polite" aria-labelledby="answer-title"><h2 id="answer-title">Answer</h2>
<p id="answer" data-answer>${answer?.text ?? ''}</p>
<ul id="citations" class="citations">${answer?.citations.map((c) => html`<li><a href="/companies/${encodeURIComponent(c.ticker)}${c.period ? `?period=${encodeURIComponent(c.period)}` : ''}">${c.ticker} ${c.period ?? ''} ${c.field ?? c.title ?? ''}</a></li>`) ?? ''}</ul>
</section>
<script src="/assets/chat.js" defer></script>`);
}

/** Streams the answer into the page as it arrives (without JavaScript the form posts and the whole answer comes back). */
export const CHAT_SCRIPT = `
const form = document.getElementById('chat-form');
const answer = document.getElementById('answer');
const citations = document.getElementById('citations');
let conversationId = null; // follow-up questions continue the conversation
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  answer.textContent = '';
  citations.textContent = '';
  const response = await fetch('/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: form.question.value, ...(conversationId ? { conversation_id: conversationId } : {}) }) });
  if (!response.ok || !response.body) { answer.textContent = 'The answer could not be fetched (' + response.status + ').'; return; }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const decode = (${createSseDecoder.toString()})();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const { event: type, data } of decode(decoder.decode(value, { stream: true }))) {
      if (type === 'token') answer.textContent += data.text;
      if (type === 'error') answer.textContent += ' [' + data.message + ']';
      if (type === 'done') conversationId = data.conversation_id;
      if (type === 'citations') for (const c of data.citations) {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = '/companies/' + encodeURIComponent(c.ticker) + (c.period ? '?period=' + encodeURIComponent(c.period) : '');
        link.textContent = [c.ticker, c.period, c.field || c.title].filter(Boolean).join(' ');
        item.appendChild(link);
        citations.appendChild(item);
      }
    }
  }
});
`;
