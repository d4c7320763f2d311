// The organiser's page of `romme serve --all`: tonight's games, tournaments and leagues,
// each with its board's and scorekeeper's QR codes (drawn by the server, each link's own
// qr.svg), a seat's code on demand. Nothing is decided here: what is finished, which
// series is drawn, how many a tournament has, comes in state.json; a draw's answer, or its
// refusal, is the server's sentence (with a capital letter and a full stop). What the page
// said after a tap belongs to that moment: it goes when that tournament's series move on
// (issue 36 item 3).
import { call, live, online, Refused } from "./net.js";
import { $, ask, el, failure, fill, say, sentence, T } from "./render.js";

let notice = null; // the tournament's series the sentence under the heading is about
let shown = null; // the state shown

const QR_TRIES_MS = [1000, 2000, 4000];

/** A link's QR code, large enough to scan from a projector, with its label. The links of a
 *  series just drawn are served a moment after the draw (the night looks again): a code
 *  not there yet is asked again, a few times, rather than left broken. */
function code(link, label) {
  const path = `${new URL(link, location.href).pathname}/qr.svg`;
  const img = el("img", { class: "qr big", src: path, alt: label, width: 320, height: 320 });
  let tries = 0;
  img.addEventListener("error", () => {
    if (tries >= QR_TRIES_MS.length) return;
    setTimeout(() => {
      img.src = `${path}?try=${tries}`;
    }, QR_TRIES_MS[tries++]);
  });
  return el("figure", { class: "code" }, img, el("figcaption", { text: label }));
}

function seats(game) {
  const names = Object.keys(game.seats || {});
  if (!names.length) return null;
  const box = el("details", { class: "seats" }, el("summary", { text: T.seats }));
  const list = el("div", { class: "codes" });
  box.addEventListener("toggle", () => {
    if (!box.open || list.childElementCount) return;
    for (const name of names) list.append(code(game.seats[name], name));
  });
  box.append(list);
  return box;
}

function gameItem(game) {
  const where = game.tournament ? fill(T.table || "", { series: game.series, table: game.table }) : "";
  const state = game.finished ? T.finished : T.playing;
  const li = el(
    "li",
    { class: game.finished ? "done" : "playing" },
    el("h3", { text: game.name }),
    el("p", { class: "sub", text: [game.tournament, where, state].filter(Boolean).join(" · ") }),
    el("div", { class: "codes" }, code(game.board, T.board), code(game.scorekeeper, T.scorekeeper)),
    seats(game),
  );
  li.dataset.game = game.name;
  return li;
}

/**
 * The server's words for a refused action: its sentence (also for a name not found, or
 * the database busy for now), else the page's own (the server away, an internal error).
 */
function refusal(error) {
  if (error instanceof Refused && typeof error.data.error === "string" && error.data.code !== "internal") {
    return sentence(error.data.error);
  }
  return sentence(error instanceof Refused && error.status >= 500 ? T.server_error : failure(error));
}

/** A tournament's series as an entry of state.json (or a draw's answer) has them. */
function seriesOf(entry) {
  return entry ? { name: entry.name, drawn: entry.series_drawn, finished: entry.series_finished } : null;
}

/** The sentence under the heading, about the series of a tournament (`about`) as they
 *  stood when it was said. */
function tell(text, error, about) {
  say("said", text, error);
  notice = text ? about : null;
}

/** Whether the sentence still says what is so: while the tournament's series stand as they
 *  stood (not after a later draw, in a terminal too, nor once a series is over). */
function stillSo(state) {
  if (notice === null) return true;
  const now = seriesOf(state.tournaments.find((t) => t.name === notice.name));
  return now !== null && now.drawn === notice.drawn && now.finished === notice.finished;
}

/** A tournament's series as they stand after a refusal (which wrote nothing: a draw made
 *  in a terminal meanwhile belongs to its moment), else as the page shows them. */
async function seriesNow(name) {
  let state = shown;
  try {
    state = await call("GET", "state.json");
  } catch {
    // the server away: the page's own sentence says so, about the series as shown
  }
  return seriesOf(state?.tournaments.find((t) => t.name === name)) || { name };
}

/**
 * Draw the tournament's next series (the name encoded: it may hold "/", "?", "#"). While a
 * table still plays, the server's sentence is asked about, and a yes draws anyway; the
 * answer says which tables were not complete.
 */
async function draw(name, button) {
  const path = `tournaments/${encodeURIComponent(name)}/draw`;
  button.disabled = true;
  try {
    let drawn;
    try {
      drawn = await call("POST", path, {});
    } catch (error) {
      if (!(error instanceof Refused && error.data.code === "series-incomplete")) throw error;
      if (!(await ask(sentence(error.data.error)))) {
        tell("");
        return;
      }
      drawn = await call("POST", path, { force: true });
    }
    tell(drawn.message || fill(T.drawn || "", { series: drawn.series_drawn }), false, seriesOf(drawn));
  } catch (error) {
    tell(refusal(error), true, await seriesNow(name));
  } finally {
    button.disabled = false;
  }
}

/** A tournament's or league's entry: its board's code (a tournament has one from its
 * first draw on: `board` null before), a tournament's button that draws while a series is
 * left to draw (`drawable`). */
function boardItem(entry, line, drawable) {
  const button = drawable ? el("button", { type: "button", class: "draw", text: T.draw }) : null;
  button?.addEventListener("click", () => draw(entry.name, button));
  const li = el(
    "li",
    {},
    el("h3", { text: entry.name }),
    line ? el("p", { class: "sub", text: line }) : null,
    entry.board ? el("div", { class: "codes" }, code(entry.board, T.board)) : null,
    button,
  );
  li.dataset.name = entry.name;
  return li;
}

function fillList(id, items) {
  const list = $(id);
  list.replaceChildren(...items);
  list.closest("section").hidden = items.length === 0;
}

function render(state) {
  shown = state;
  if (!stillSo(state)) tell("");
  fillList("game-list", state.games.map(gameItem));
  const series = (t) => fill(T.series || "", { drawn: t.series_drawn, finished: t.series_finished });
  fillList(
    "tournament-list",
    state.tournaments.map((t) => boardItem(t, series(t), t.series_drawn < t.series)),
  );
  fillList(
    "league-list",
    state.leagues.map((l) => boardItem(l, "", false)),
  );
  $("none").hidden = state.games.length + state.tournaments.length + state.leagues.length > 0;
}

export function start() {
  online(true);
  live(render, T);
}
