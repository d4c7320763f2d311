// A seat: the board, plus this player's hand (tapped or typed, read by the referee as it
// is typed), "I went out", and the referee on the phone. The cards a button types, how
// a hand reads and what it counts all come from the server.
import { call, live, onGone, onOnline, Refused } from "./net.js";
import { waiting, writes } from "./outbox.js";
import { $, ask, away, clear, el, failure, fill, renderPending, renderSession, say, T, WAITING } from "./render.js";

const me = document.body.dataset.player || null;
let suit = null;
let readingAsked = 0;
let readingTimer = null;
let roundsSeen = null;
let said = null; // what the message under the hand says, while it still holds: {path, points}
let state = null;
let post = null;
// What was asked while the server was away, asked again as soon as it is back (its answer
// then replaces the sentence saying it cannot be reached): the reading of the typed hand,
// the referee's question.
let readingAway = false;
let refereeAway = null;

const handInput = () => $("hand-text");

/** The message under the hand: of this phone's last write, until the round says otherwise. */
function tell(text, error = false, about = null) {
  said = about;
  say("myhand-msg", text, error);
}

function renderMine(s) {
  if (roundsSeen !== null && roundsSeen !== s.rounds_played) {
    // a round was saved (or undone): the next hand starts afresh
    handInput().value = "";
    clear($("reading"));
    $("hand-romme").checked = false;
    if (!waiting("hand") && !waiting("out")) tell("");
  }
  roundsSeen = s.rounds_played;
  const hand = s.pending.hands[me];
  if (said?.path === "hand" && hand?.points !== said.points) tell(""); // changed since: the status line says how
  if (said?.path === "out" && s.pending.winner !== me) tell(""); // another went out, or it was taken back
  $("myhand-status").textContent = s.shown.mine;
  const out = s.pending.winner === me;
  $("went-out").setAttribute("aria-pressed", String(out));
  const over = Boolean(s.shown.finished);
  // the service says whether this phone may send a hand now: not while its claim to have
  // gone out stands (until the scorekeeper saves the round or changes who went out)
  const closed = !over && (s.pending.closed || []).includes(me);
  $("hand-fields").disabled = closed;
  $("hand-closed").hidden = !closed;
  $("picker").hidden = over;
  $("entry").hidden = over;
  $("out-entry").hidden = over;
  if (over && said === null) say("myhand-msg", "");
  document.body.classList.toggle("seat-out", out);
}

function render(s) {
  state = s;
  renderSession(s, me);
  renderPending(s);
  renderMine(s);
}

// --- the writes: kept in the phone until the server has them (net.js) ---------------------

const handlers = {
  sending: () => tell(T.sending),
  queued: () => tell(T.queued, WAITING),
  dropped: () => tell(T.not_sent, true), // the link is no longer valid: what waited was never sent
  arrived(entry, answer) {
    if (entry.path === "hand") {
      if (typeof answer.points === "number")
        tell(fill(T.hand_arrived, { points: answer.points }), false, { path: "hand", points: answer.points });
      else tell(T.arrived, false, { path: "hand", points: state?.pending.hands[me]?.points });
    } else {
      tell(T.out_arrived, false, { path: "out" });
    }
  },
  async refused(entry, error) {
    if (error instanceof Refused && error.data.code === "unlikely_points" && !entry.body.confirm) {
      tell("");
      if (await ask(error.data.question || error.message)) post(entry.path, { ...entry.body, confirm: true });
      else handInput().focus();
      return;
    }
    if (error instanceof Refused && error.data.code === "unreadable-hand") {
      tell(""); // the reading under the hand says it already, once
      readSoon(0);
      return;
    }
    tell(failure(error), true);
  },
};

function addCard(token) {
  const input = handInput();
  input.value = `${input.value.trim()} ${token}`.trim();
  readSoon(0);
}

function chooseSuit(letter) {
  suit = letter;
  for (const button of $("suits").children) button.setAttribute("aria-pressed", String(button.dataset.suit === letter));
  for (const button of $("ranks").children) button.disabled = false;
}

function readSoon(delay) {
  clearTimeout(readingTimer);
  readingTimer = setTimeout(readHand, delay);
}

async function readHand() {
  const text = handInput().value.trim();
  const box = $("reading");
  const asked = ++readingAsked;
  if (!text) {
    readingAway = false;
    clear(box);
    box.classList.remove("error", WAITING);
    return;
  }
  try {
    // the last reading stays until the new one is there: no blank between the two
    const reading = await call("GET", "read", null, { cards: text });
    if (asked !== readingAsked) return;
    readingAway = false;
    box.classList.remove("error", WAITING);
    showReading(box, reading);
  } catch (error) {
    if (asked !== readingAsked) return;
    readingAway = away(error);
    box.classList.toggle("error", !readingAway);
    box.classList.toggle(WAITING, readingAway);
    box.textContent = failure(error);
  }
}

function showReading(box, reading) {
  clear(box);
  if (reading.cards.length) {
    const chip = (card, i) => {
      const parts = [el("b", { text: card }), el("small", { text: reading.values[i] })];
      return el("li", { class: reading.red[i] ? "red" : null }, ...parts);
    };
    const chips = el("ul", { class: "chips" }, ...reading.cards.map(chip));
    box.append(el("span", { class: "label", text: T.reading }), chips);
  }
  box.append(el("p", { class: "sum", text: reading.sum }));
}

function sendHand() {
  if (state?.shown.finished || $("hand-fields").disabled) return;
  post("hand", { cards: handInput().value.trim() });
}

function wentOut() {
  if (state?.shown.finished) return;
  post("out", { hand_romme: $("hand-romme").checked });
}

function buildPicker() {
  for (const button of $("suits").children) button.addEventListener("click", () => chooseSuit(button.dataset.suit));
  for (const button of $("ranks").children) {
    button.addEventListener("click", () => {
      if (suit) addCard(JSON.parse(button.dataset.cards)[suit]);
    });
  }
  $("pick-joker").addEventListener("click", (event) => addCard(event.currentTarget.dataset.card));
  $("pick-back").addEventListener("click", () => {
    const input = handInput();
    input.value = input.value
      .trim()
      .split(/[\s,]+/)
      .slice(0, -1)
      .join(" ");
    readSoon(0);
  });
  $("pick-clear").addEventListener("click", () => {
    handInput().value = "";
    readSoon(0);
  });
  handInput().addEventListener("input", () => readSoon(200));
  handInput().addEventListener("keydown", (event) => {
    if (event.key === "Enter") sendHand();
  });
  $("send-hand").addEventListener("click", sendHand);
  $("went-out").addEventListener("click", wentOut);
}

// --- the referee ------------------------------------------------------------------

function refereeLines() {
  return $("ref-text")
    .value.split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

async function referee(question) {
  const lines = refereeLines();
  const out = $("ref-out");
  refereeAway = null;
  out.classList.remove("error", WAITING);
  if (!lines.length) {
    out.textContent = "";
    return;
  }
  // each line a meld for "check"; the lines one hand for "value" and "best"
  const [path, key] = { check: ["check", "meld"], value: ["read", "cards"], best: ["best", "hand"] }[question];
  const params = new URLSearchParams(
    question === "check" ? lines.map((line) => [key, line]) : [[key, lines.join(" ")]],
  );
  try {
    out.textContent = (await call("GET", path, null, params)).text;
  } catch (error) {
    refereeAway = away(error) ? question : null;
    out.classList.add(refereeAway ? WAITING : "error");
    out.textContent = failure(error);
  }
}

/** The server is back: what could not be read while it was away is read now. */
function back(yes) {
  if (!yes) return;
  if (readingAway) readSoon(0);
  if (refereeAway) referee(refereeAway);
}

/** The link is no longer valid: what said the server is away goes (the page says why instead). */
function gone() {
  if (readingAway) clear($("reading")).classList.remove(WAITING);
  if (refereeAway) clear($("ref-out")).classList.remove(WAITING);
  readingAway = false;
  refereeAway = null;
}

export function start() {
  post = writes(handlers);
  buildPicker();
  $("ref-check").addEventListener("click", () => referee("check"));
  $("ref-value").addEventListener("click", () => referee("value"));
  $("ref-best").addEventListener("click", () => referee("best"));
  onOnline(back);
  onGone(gone);
  live(render, T);
}
