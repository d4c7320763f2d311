// The scorekeeper: the round in progress as rows to set (who went out, each hand), a
// stalemate, a Hand-Rommé, save, discard, undo; and the links for the phones.
import { base, call, live, Refused } from "./net.js";
import { writes } from "./outbox.js";
import { $, ask, clear, el, failure, fill, renderSession, say, T, WAITING } from "./render.js";

const rows = new Map();
let state = null;
let undoArmed = null;
let post = null;
let heldRounds = null; // the rounds played the message under the buttons is about

/** The message under the buttons, while the rounds played are still `rounds`. */
function tell(text, error = false, rounds = state?.rounds_played ?? null) {
  heldRounds = text ? rounds : null;
  say("keeper-msg", text, error);
}

const handlers = {
  sending: () => tell(T.sending),
  queued: () => tell(T.queued, WAITING),
  dropped: () => tell(T.not_sent, true), // the link is no longer valid: what waited was never sent
  arrived(entry, answer) {
    if (entry.path === "save") {
      cleanRows();
      tell(answer.message || T.arrived, false, answer.round?.number ?? null);
    } else if (entry.path === "undo") {
      tell(answer.message || T.arrived, false, typeof answer.undone === "number" ? answer.undone - 1 : null);
    } else if (entry.path === "discard") {
      cleanRows();
      tell(answer.message || T.arrived);
    } else {
      for (const name of Object.keys(entry.body.hands || {})) {
        const parts = rows.get(name);
        if (parts) delete parts.input.dataset.dirty;
      }
      tell(entry.tries ? T.arrived : "");
    }
  },
  async refused(entry, error) {
    if (error instanceof Refused && error.data.code === "unlikely_points" && !entry.body.confirm) {
      tell("");
      if (await ask(error.data.question || error.message)) post(entry.path, { ...entry.body, confirm: true });
      return;
    }
    tell(failure(error), true);
  },
};

const pending = (data) => post("pending", data);

function buildRows(s) {
  const list = $("pending-hands");
  for (const p of s.players) {
    const name = p.name;
    const input = el("input", {
      type: "text",
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      "aria-label": fill(T.hand_of, { player: name }),
    });
    const status = el("span", { class: "what" });
    const out = el("button", { type: "button", class: "toggle small", "aria-pressed": "false", text: T.went_out });
    const set = el("button", { type: "button", class: "small", text: T.set_hand });
    const sendRow = () => {
      const text = input.value.trim();
      pending({ hands: { [name]: text === "" ? null : text } });
    };
    input.addEventListener("input", () => {
      input.dataset.dirty = "1";
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") sendRow();
    });
    set.addEventListener("click", sendRow);
    out.addEventListener("click", () => pending({ winner: state.pending.winner === name ? null : name }));
    const row = el(
      "li",
      { "data-player": name },
      el("div", { class: "row-head" }, el("span", { class: "name", text: name }), status, out),
      el("div", { class: "row-edit" }, input, set),
    );
    rows.set(name, { row, input, status, out });
    list.append(row);
  }
}

function renderKeeper(s) {
  if (!rows.size) buildRows(s);
  const p = s.pending;
  for (const [name, parts] of rows) {
    const shown = s.shown.pending[name];
    parts.row.className = shown.state;
    parts.status.textContent = shown.state === "out" ? (p.hand_romme ? T.hand_romme : "") : shown.text;
    parts.out.setAttribute("aria-pressed", String(p.winner === name));
    const hand = p.hands[name];
    if (document.activeElement !== parts.input && !parts.input.dataset.dirty) {
      parts.input.value = hand ? (hand.cards.length ? hand.cards.join(" ") : String(hand.counted)) : "";
    }
  }
  $("stalemate").setAttribute("aria-pressed", String(p.stalemate));
  $("keeper-hr").setAttribute("aria-pressed", String(p.hand_romme));
  $("save").disabled = !p.complete;
  $("undo").disabled = !s.rounds_played;
}

function render(s) {
  state = s;
  if (heldRounds !== null && s.rounds_played !== heldRounds) tell(""); // saved or undone elsewhere since
  renderSession(s, null);
  renderKeeper(s);
}

function cleanRows() {
  for (const r of rows.values()) delete r.input.dataset.dirty;
}

function buildButtons() {
  $("stalemate").addEventListener("click", () => pending({ stalemate: !state.pending.stalemate }));
  $("keeper-hr").addEventListener("click", () => pending({ hand_romme: !state.pending.hand_romme }));
  $("save").addEventListener("click", () => post("save", {}));
  $("discard").addEventListener("click", () => post("discard", {}));
  const undo = $("undo");
  const disarm = () => {
    clearTimeout(undoArmed);
    undoArmed = null;
    undo.textContent = T.undo;
    undo.classList.remove("armed");
  };
  undo.addEventListener("click", () => {
    if (undoArmed === null) {
      undoArmed = setTimeout(disarm, 5000);
      undo.textContent = fill(T.undo_confirm, { number: state.rounds_played });
      undo.classList.add("armed");
      return;
    }
    disarm();
    post("undo", {});
  });
}

async function loadLinks() {
  try {
    const answer = await call("GET", "links.json");
    const list = clear($("link-list"));
    for (const link of answer.links) {
      list.append(
        el(
          "li",
          {},
          el("span", { class: "label", text: link.label }),
          el("img", { class: "qr", src: `${base}/${link.qr}`, alt: link.label, width: 200, height: 200 }),
          el("span", { class: "url", text: link.url }),
        ),
      );
    }
  } catch (error) {
    // asked again (the server away, busy), but never of a link no longer valid
    if (!(error instanceof Refused && error.status === 404)) setTimeout(loadLinks, 3000);
  }
}

export function start() {
  post = writes(handlers);
  buildButtons();
  loadLinks();
  live(render, T);
}
