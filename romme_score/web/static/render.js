// Building the pages from state.json: every text that counts, marks or words a number
// comes ready from the server (state.json's "shown" and "view", the page's words in
// data-texts); this only puts it in place. Names are always written as text, never as HTML.
import { AGAIN, Refused, Unreachable, url } from "./net.js";

export const T = JSON.parse(document.body.dataset.texts || "{}");
export const $ = (id) => document.getElementById(id);

/** A page's sentence with its {name} fields filled. */
export function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A table cell of ``tag`` (td, th) with ``text`` (nothing for null) and a class. */
export function cell(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

/** A table row of ``cells`` ([text, class] each), of headings where ``head``. */
export function row(cells, head) {
  const tr = document.createElement("tr");
  for (const [text, cls] of cells) tr.appendChild(cell(head ? "th" : "td", text, cls));
  return tr;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

export const WAITING = "waiting"; // a message's tone: it waits for the server (the banner's colour)

/**
 * A message under a form: the server's sentence as it is (once), red when an error
 * (`tone` true), in the colour of waiting when it waits for the server (`tone` WAITING).
 */
export function say(id, text, tone) {
  const node = $(id);
  if (!node) return;
  node.textContent = text || "";
  node.classList.toggle("error", tone === true);
  node.classList.toggle(WAITING, tone === WAITING);
}

/**
 * A sentence of the server as a page shows it: the command line's clause ("all 3 series of
 * tournament 'Cup' are drawn", said there after "Error: ") with a capital letter and a
 * full stop; a sentence that has them already stays as it is.
 */
export function sentence(text) {
  const said = String(text ?? "").trim();
  if (!said) return "";
  const first = said.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined);
  return `${first}${said.slice(1)}${/[.!?…]$/.test(said) ? "" : "."}`;
}

/** Whether a request failed because the server is away (not reached, or busy for now). */
export function away(error) {
  return error instanceof Unreachable || (error instanceof Refused && AGAIN.has(error.status));
}

/**
 * The words for a failed request, always a sentence of the page's language: the server's
 * own (a refusal), that the link is not valid (404), that the server could not do it (an
 * answer without a sentence of ours, a 500), or that it cannot be reached.
 */
export function failure(error) {
  if (error instanceof Refused) {
    if (error.status === 404) return T.link_gone;
    if (error.status < 500 && typeof error.data.error === "string" && error.data.code !== "internal") {
      return error.data.error;
    }
    return [502, 503, 504].includes(error.status) ? T.queued : T.server_error;
  }
  return T.offline;
}

/** Put the server's question to the player in the page's dialog: true for yes. */
export function ask(question) {
  const dialog = $("confirm");
  if (!dialog || typeof dialog.showModal !== "function") return Promise.resolve(false);
  $("confirm-question").textContent = question;
  return new Promise((resolve) => {
    const done = (yes) => {
      $("confirm-yes").onclick = null;
      $("confirm-no").onclick = null;
      dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(yes);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.oncancel = () => done(false); // Escape
    dialog.showModal();
    $("confirm-no").focus(); // the safe answer first
  });
}

const names = (s) => s.players.map((p) => p.name);
const colour = (s, name) => `c${names(s).indexOf(name) % 6}`;

function renderPlayers(s, me) {
  const list = clear($("players"));
  for (const p of s.players) {
    const leaderboard = s.shown.leaderboard?.[p.name];
    list.append(
      el(
        "li",
        { class: `player ${colour(s, p.name)}${p.name === me ? " me" : ""}`, "data-player": p.name },
        el("span", { class: "name", text: p.name }),
        el("span", { class: "total", text: p.total }),
        el("span", { class: "place", text: `${T.place} ${s.places[p.name]}` }),
        leaderboard ? el("span", { class: "place", text: `${T.leaderboard} ${leaderboard}` }) : null,
        s.next_dealer === p.name && !s.finished ? el("span", { class: "badge", text: T.deals }) : null,
      ),
    );
  }
  $("state").textContent = s.view.state;
}

/** The round in progress, a line per player (the scorekeeper's page has its own rows). */
export function renderPending(s) {
  const list = clear($("pending-hands"));
  for (const player of names(s)) {
    const shown = s.shown.pending[player];
    list.append(
      el(
        "li",
        { class: shown.state, "data-player": player },
        el("span", { class: "name", text: player }),
        el("span", { class: "what", text: shown.text }),
      ),
    );
  }
}

function renderLast(s) {
  $("last-line").textContent = s.view.last_round;
  const list = clear($("last-hands"));
  const last = s.last_round;
  if (!last) return;
  for (const player of names(s)) {
    const hand = last.hands[player];
    if (!hand) continue;
    list.append(
      el(
        "li",
        { "data-player": player },
        el("span", { class: "name", text: player }),
        el("span", { class: "what", text: s.shown.last_round[player] }),
        el("span", { class: "pts", text: hand.points }),
      ),
    );
  }
}

function renderRounds(s) {
  const table = $("rounds");
  const players = names(s);
  clear(table.tHead).append(el("tr", {}, el("th", { text: T.round }), ...players.map((n) => el("th", { text: n }))));
  const rows = clear(table.tBodies[0]);
  for (const round of s.shown.recent) {
    rows.append(
      el(
        "tr",
        {},
        el("td", { text: round.number }),
        ...players.map((n) => el("td", { class: round.winner === n ? "out" : null, text: round.marks[n] })),
      ),
    );
  }
  clear(table.tFoot).append(
    el("tr", {}, el("td", { text: T.total }), ...s.players.map((p) => el("td", { text: p.total }))),
  );
}

function renderSettlement(s) {
  const list = clear($("transfers"));
  const settled = s.settlement;
  if (!settled) {
    $("settle-line").textContent = s.view.last_round;
    return;
  }
  $("settle-line").textContent = settled.line;
  if (!settled.transfers.length) list.append(el("li", { text: settled.nobody }));
  for (const t of settled.transfers) list.append(el("li", { text: t.text }));
}

let chartShown = null;

async function renderChart(s) {
  const legend = clear($("legend"));
  for (const p of s.players) {
    legend.append(el("li", { class: colour(s, p.name) }, el("span", { class: "swatch" }), `${p.name} ${p.total}`));
  }
  const figure = $("chart-figure");
  if (!s.rounds_played) {
    clear(figure);
    chartShown = null;
    return;
  }
  if (chartShown === s.version) return;
  chartShown = s.version;
  try {
    const response = await fetch(url("chart.svg"), { cache: "no-cache" }); // 304 while unchanged
    if (!response.ok) return;
    const parsed = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
    const svg = parsed.documentElement;
    if (svg && svg.nodeName === "svg" && chartShown === s.version) clear(figure).append(document.importNode(svg, true));
  } catch {
    chartShown = null;
  }
}

/** What every page of a session shows (the seat's and the scorekeeper's parts aside). */
export function renderSession(s, me) {
  $("heading").textContent = s.view.heading;
  $("distance").textContent = (me ? `${fill(T.seat, { player: me })} · ` : "") + s.view.distance;
  $("pending-line").textContent = s.view.pending;
  renderPlayers(s, me);
  renderLast(s);
  renderRounds(s);
  renderSettlement(s);
  renderChart(s);
}
