// The scorekeeper: the round in progress as rows to set (who went out, each hand), a
// stalemate, a Hand-Rommé, save, discard, undo; and the links for the phones.
import { base, call, live, send } from "./net.js";
import { $, ask, clear, el, failure, fill, renderSession, say, T } from "./render.js";

const rows = new Map();
let state = null;
let undoArmed = null;

/** A write of the scorekeeper's; `again` for those that set a value (sent again while the server is away). */
async function keep(path, data, { again = false, done = null } = {}) {
  try {
    const answer = await send(path, data, { again, ask, waiting: () => say("keeper-msg", T.sending) });
    say("keeper-msg", answer?.message || "");
    if (answer !== null && done) done(answer);
  } catch (error) {
    say("keeper-msg", failure(error), true);
  }
}

const pending = (data, done) => keep("pending", data, { again: true, done });

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
      pending({ hands: { [name]: text === "" ? null : text } }, () => delete input.dataset.dirty);
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
  renderSession(s, null);
  renderKeeper(s);
}

function cleanRows() {
  for (const r of rows.values()) delete r.input.dataset.dirty;
}

function buildButtons() {
  $("stalemate").addEventListener("click", () => pending({ stalemate: !state.pending.stalemate }));
  $("keeper-hr").addEventListener("click", () => pending({ hand_romme: !state.pending.hand_romme }));
  $("save").addEventListener("click", () => keep("save", {}, { done: cleanRows }));
  $("discard").addEventListener("click", () => keep("discard", {}, { done: cleanRows }));
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
    keep("undo", {});
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
  } catch {
    setTimeout(loadLinks, 3000);
  }
}

export function start() {
  buildButtons();
  loadLinks();
  live(render);
}
