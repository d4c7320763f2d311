"use strict";
// The pages of `romme serve`: one script for the board, the seats and the scorekeeper.
// Everything comes from the server: state.json (the game), the event stream (a change,
// whoever made it), and the page's words (data-texts, in the page's language). Names
// are always written as text, never as HTML.
(() => {
  const body = document.body;
  const kind = body.dataset.kind;
  const base = body.dataset.base;
  const me = body.dataset.player || null;
  const langParam = body.dataset.langParam || "";
  const notation = body.dataset.notation || "de";
  const T = JSON.parse(body.dataset.texts || "{}");
  const $ = (id) => document.getElementById(id);

  let state = null;
  let version = null;
  let chartShown = null;
  let source = null;
  let fetching = null;
  let fetchAgain = false;

  // 003's leaderboard points have one decimal (7.7): written as the page's language writes it
  function tenths(value) {
    const text = Number(value).toFixed(1);
    return document.documentElement.lang === "de" ? text.replace(".", ",") : text;
  }

  // --- talking to the server ----------------------------------------------------------

  function url(path, params) {
    const query = params instanceof URLSearchParams ? params : new URLSearchParams(params || {});
    if (langParam) query.set("lang", langParam);
    const text = query.toString();
    return base + "/" + path + (text ? "?" + text : "");
  }

  async function call(method, path, data, params) {
    const init = { method, cache: "no-store", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(data || {});
    }
    let response;
    try {
      response = await fetch(url(path, params), init);
    } catch (error) {
      online(false);
      throw error;
    }
    let json = null;
    try {
      json = await response.json();
    } catch (error) {
      json = null;
    }
    if (!response.ok) {
      const failure = new Error((json && json.error) || response.statusText);
      failure.status = response.status;
      failure.data = json;
      throw failure;
    }
    return json;
  }

  function online(yes) {
    $("offline").hidden = yes;
    body.classList.toggle("is-offline", !yes);
  }

  async function refresh() {
    if (fetching) {
      fetchAgain = true;
      return fetching;
    }
    fetching = (async () => {
      do {
        fetchAgain = false;
        try {
          const next = await call("GET", "state.json");
          online(true);
          state = next;
          version = next.version;
          render();
        } catch (error) {
          // online() has said so where the server is gone
        }
      } while (fetchAgain);
      fetching = null;
    })();
    return fetching;
  }

  function connect() {
    if (source) source.close();
    source = new EventSource(url("events"));
    source.onopen = () => {
      online(true);
      refresh();
    };
    source.onmessage = (event) => {
      if (event.data !== String(version)) refresh();
    };
    source.onerror = () => {
      online(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
    };
  }

  // After the phone slept: a new stream, and whatever changed meanwhile.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      connect();
      refresh();
    }
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      connect();
      refresh();
    }
  });

  // --- building the page --------------------------------------------------------------

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
  }

  function el(tag, props, ...children) {
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

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function names() {
    return state.players.map((p) => p.name);
  }

  function colour(name) {
    return "c" + (names().indexOf(name) % 6);
  }

  function handText(hand) {
    if (hand.cards.length) return hand.points + " · " + hand.cards.join(" ");
    return hand.points + " " + T.counted;
  }

  function say(id, text, error) {
    const node = $(id);
    if (!node) return;
    node.textContent = text || "";
    node.classList.toggle("error", Boolean(error));
  }

  function render() {
    const s = state;
    $("heading").textContent = s.view.heading;
    $("distance").textContent = (me ? fill(T.seat, { player: me }) + " · " : "") + s.view.distance;
    renderPlayers(s);
    renderPending(s);
    renderLast(s);
    renderRounds(s);
    renderSettlement(s);
    renderChart(s);
    if (kind === "seat") renderMine(s);
    if (kind === "scorekeeper") renderKeeper(s);
  }

  function renderPlayers(s) {
    const list = clear($("players"));
    for (const p of s.players) {
      list.append(
        el(
          "li",
          { class: "player " + colour(p.name) + (p.name === me ? " me" : ""), "data-player": p.name },
          el("span", { class: "name", text: p.name }),
          el("span", { class: "total", text: p.total }),
          el("span", { class: "place", text: T.place + " " + s.places[p.name] }),
          p.leaderboard !== null ? el("span", { class: "place", text: T.leaderboard + " " + tenths(p.leaderboard) }) : null,
          s.next_dealer === p.name && !s.finished ? el("span", { class: "badge", text: T.deals }) : null,
        ),
      );
    }
    $("state").textContent = s.view.state;
  }

  function pendingStatus(p, player) {
    const hand = p.hands[player];
    if (p.winner === player) return [T.went_out + (p.hand_romme ? " · " + T.hand_romme : ""), "out"];
    if (hand) return [handText(hand), "in"];
    if (p.missing.includes(player)) return [T.waiting, "waiting"];
    return ["–", "none"];
  }

  function renderPending(s) {
    $("pending-line").textContent = s.view.pending;
    if (kind === "scorekeeper") return;
    const list = clear($("pending-hands"));
    for (const player of names()) {
      const [text, cls] = pendingStatus(s.pending, player);
      list.append(
        el(
          "li",
          { class: cls, "data-player": player },
          el("span", { class: "name", text: player }),
          el("span", { class: "what", text }),
        ),
      );
    }
  }

  function renderLast(s) {
    const last = s.last_round;
    $("last-line").textContent = s.view.last_round;
    const list = clear($("last-hands"));
    if (!last) return;
    for (const player of names()) {
      const hand = last.hands[player];
      if (!hand) continue;
      let what;
      if (last.winner === player) {
        what = T.went_out + (last.hand_romme ? " · " + T.hand_romme : "") + (hand.bonus ? " · −" + hand.bonus : "");
      } else {
        what = hand.cards.length ? hand.cards.join(" ") : (hand.counted !== null ? hand.counted + " " + T.counted : "");
      }
      list.append(
        el(
          "li",
          { "data-player": player },
          el("span", { class: "name", text: player }),
          el("span", { class: "what", text: what }),
          el("span", { class: "pts", text: hand.points }),
        ),
      );
    }
  }

  function mark(round, player) {
    if (round.winner === player) {
      let text = "0 *" + (round.hand_romme ? "H" : "");  // as romme play's panel marks it
      if (round.bonus[player]) text += "-" + round.bonus[player];
      return text;
    }
    return player in round.points ? String(round.points[player]) : "";
  }

  function renderRounds(s) {
    const table = $("rounds");
    const head = clear(table.tHead);
    const rows = clear(table.tBodies[0]);
    const foot = clear(table.tFoot);
    head.append(el("tr", {}, el("th", { text: T.round }), ...names().map((n) => el("th", { text: n }))));
    for (const round of s.rounds.slice(-8)) {
      rows.append(
        el(
          "tr",
          {},
          el("td", { text: round.number + (round.stalemate ? " s" : "") }),
          ...names().map((n) => el("td", { class: round.winner === n ? "out" : null, text: mark(round, n) })),
        ),
      );
    }
    foot.append(el("tr", {}, el("td", { text: T.total }), ...s.players.map((p) => el("td", { text: p.total }))));
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

  async function renderChart(s) {
    const legend = clear($("legend"));
    for (const p of s.players) {
      legend.append(el("li", { class: colour(p.name) }, el("span", { class: "swatch" }), p.name + " " + p.total));
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
      const response = await fetch(url("chart.svg"), { cache: "no-store" });
      if (!response.ok) return;
      const parsed = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
      const svg = parsed.documentElement;
      if (svg && svg.nodeName === "svg" && chartShown === s.version) clear(figure).append(document.importNode(svg, true));
    } catch (error) {
      chartShown = null;
    }
  }

  // --- a seat: my hand ----------------------------------------------------------------

  const SUITS =
    notation === "de"
      ? [["T", "♣"], ["P", "♠"], ["H", "♥"], ["K", "♦"]]
      : [["C", "♣"], ["S", "♠"], ["H", "♥"], ["D", "♦"]];
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"].concat(
    notation === "de" ? ["B", "D", "K"] : ["J", "Q", "K"],
  );
  const JOKER = notation === "de" ? "J" : "JK";
  let suit = null;
  let readingAsked = 0;
  let readingTimer = null;

  let roundsSeen = null;

  function renderMine(s) {
    if (roundsSeen !== null && roundsSeen !== s.rounds_played) {
      // a round was saved (or undone): the next hand starts afresh
      handInput().value = "";
      clear($("reading"));
      $("hand-romme").checked = false;
      say("myhand-msg", "");
    }
    roundsSeen = s.rounds_played;
    const p = s.pending;
    const hand = p.hands[me];
    let text;
    if (p.winner === me) text = T.you_went_out + (p.hand_romme ? " (" + T.hand_romme + ")" : "");
    else if (hand) text = fill(T.hand_in, { points: hand.points }) + (hand.cards.length ? " · " + hand.cards.join(" ") : "");
    else text = T.hand_not_in;
    $("myhand-status").textContent = text;
    $("went-out").setAttribute("aria-pressed", String(p.winner === me));
  }

  function handInput() {
    return $("hand-text");
  }

  function addCard(token) {
    const input = handInput();
    input.value = (input.value.trim() + " " + token).trim();
    readSoon(0);
  }

  function chooseSuit(letter) {
    suit = letter;
    for (const button of $("suits").children) button.setAttribute("aria-pressed", String(button.dataset.suit === letter));
    for (const button of $("ranks").children) button.disabled = false;
  }

  function buildPicker() {
    const suits = $("suits");
    for (const [letter, symbol] of SUITS) {
      suits.append(
        el("button", {
          type: "button",
          class: "suit s-" + letter.toLowerCase() + (symbol === "♥" || symbol === "♦" ? " red" : ""),
          "data-suit": letter,
          "aria-pressed": "false",
          text: symbol,
          onclick: () => chooseSuit(letter),
        }),
      );
    }
    const ranks = $("ranks");
    for (const rank of RANKS) {
      ranks.append(
        el("button", {
          type: "button",
          class: "rank",
          "data-rank": rank,
          disabled: true,
          text: rank,
          onclick: () => {
            if (suit) addCard(notation === "de" ? suit + rank : rank + suit);
          },
        }),
      );
    }
    $("pick-joker").addEventListener("click", () => addCard(JOKER));
    $("pick-back").addEventListener("click", () => {
      const input = handInput();
      input.value = input.value.trim().split(/[\s,]+/).slice(0, -1).join(" ");
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

  function readSoon(delay) {
    clearTimeout(readingTimer);
    readingTimer = setTimeout(readHand, delay);
  }

  async function readHand() {
    const text = handInput().value.trim();
    const box = clear($("reading"));
    box.classList.remove("error");
    if (!text) return;
    const asked = ++readingAsked;
    try {
      const reading = await call("GET", "read", null, { cards: text });
      if (asked !== readingAsked) return;
      showReading(box, reading);
    } catch (error) {
      if (asked !== readingAsked) return;
      box.classList.add("error");
      box.textContent = error.message;
    }
  }

  function showReading(box, reading) {
    clear(box);
    if (reading.cards.length) {
      const chips = el("ul", { class: "chips" });
      reading.cards.forEach((card, i) => {
        const red = card.includes("♥") || card.includes("♦");
        chips.append(el("li", { class: red ? "red" : null }, el("b", { text: card }), el("small", { text: reading.values[i] })));
      });
      box.append(el("span", { class: "label", text: T.reading }), chips);
    }
    box.append(el("p", { class: "sum", text: "= " + reading.points + " " + T.points }));
  }

  async function sendHand() {
    const text = handInput().value.trim();
    try {
      const sent = await call("POST", "hand", { cards: text });
      say("myhand-msg", fill(T.hand_in, { points: sent.points }));
      refresh();
    } catch (error) {
      say("myhand-msg", error.message, true);
    }
  }

  async function wentOut() {
    try {
      await call("POST", "out", { hand_romme: $("hand-romme").checked });
      say("myhand-msg", T.you_went_out);
      refresh();
    } catch (error) {
      say("myhand-msg", error.message, true);
    }
  }

  // --- a seat: the referee --------------------------------------------------------------

  function refereeLines() {
    return $("ref-text")
      .value.split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  }

  async function referee(question) {
    const lines = refereeLines();
    const out = $("ref-out");
    out.classList.remove("error");
    if (!lines.length) {
      out.textContent = "";
      return;
    }
    try {
      if (question === "check") {
        const params = new URLSearchParams();
        for (const line of lines) params.append("meld", line);
        out.textContent = (await call("GET", "check", null, params)).text;
      } else if (question === "value") {
        const reading = await call("GET", "read", null, { cards: lines.join(" ") });
        const parts = reading.cards.map((card, i) => card + " " + reading.values[i]);
        out.textContent = (parts.length ? parts.join(" · ") + " " : "") + "= " + reading.points + " " + T.points;
      } else {
        out.textContent = (await call("GET", "best", null, { hand: lines.join(" ") })).text;
      }
    } catch (error) {
      out.classList.add("error");
      out.textContent = error.message;
    }
  }

  // --- the scorekeeper ------------------------------------------------------------------

  const rows = new Map();
  let undoArmed = null;

  async function keep(path, data, done) {
    try {
      const answer = await call("POST", path, data);
      say("keeper-msg", answer && answer.message ? answer.message : "");
      if (done) done(answer);
      refresh();
    } catch (error) {
      say("keeper-msg", error.message, true);
    }
  }

  function buildRows() {
    const list = $("pending-hands");
    for (const name of names()) {
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
      const send = () => {
        const text = input.value.trim();
        keep("pending", { hands: { [name]: text === "" ? null : text } }, () => delete input.dataset.dirty);
      };
      input.addEventListener("input", () => (input.dataset.dirty = "1"));
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") send();
      });
      set.addEventListener("click", send);
      out.addEventListener("click", () => keep("pending", { winner: state.pending.winner === name ? null : name }));
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
    if (!rows.size) buildRows();
    const p = s.pending;
    for (const [name, parts] of rows) {
      const [text, cls] = pendingStatus(p, name);
      parts.row.className = cls;
      parts.status.textContent = cls === "out" ? (p.hand_romme ? T.hand_romme : "") : text;
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

  function buildKeeper() {
    $("stalemate").addEventListener("click", () => keep("pending", { stalemate: !state.pending.stalemate }));
    $("keeper-hr").addEventListener("click", () => keep("pending", { hand_romme: !state.pending.hand_romme }));
    $("save").addEventListener("click", () => keep("save", {}, () => rows.forEach((r) => delete r.input.dataset.dirty)));
    $("discard").addEventListener("click", () => keep("discard", {}, () => rows.forEach((r) => delete r.input.dataset.dirty)));
    const undo = $("undo");
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
    function disarm() {
      clearTimeout(undoArmed);
      undoArmed = null;
      undo.textContent = T.undo;
      undo.classList.remove("armed");
    }
    loadLinks();
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
            el("img", { class: "qr", src: base + "/" + link.qr, alt: link.label, width: 200, height: 200}),
            el("span", { class: "url", text: link.url }),
          ),
        );
      }
    } catch (error) {
      setTimeout(loadLinks, 3000);
    }
  }

  // --- start ----------------------------------------------------------------------------

  if (kind === "seat") {
    buildPicker();
    $("ref-check").addEventListener("click", () => referee("check"));
    $("ref-value").addEventListener("click", () => referee("value"));
    $("ref-best").addEventListener("click", () => referee("best"));
  }
  if (kind === "scorekeeper") buildKeeper();
  refresh();
  connect();
})();
