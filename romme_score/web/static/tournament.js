"use strict";
// The board of `romme serve --tournament`: the ranking across all tables, for a
// projector. Everything comes from the server: state.json (the ranking, the tables),
// the event stream (a change at any table) and the page's words (data-texts). Names are
// always written as text, never as HTML.
(() => {
  const body = document.body;
  const base = body.dataset.base;
  const langParam = body.dataset.langParam || "";
  const T = JSON.parse(body.dataset.texts || "{}");
  const $ = (id) => document.getElementById(id);

  let version = null;
  let source = null;
  let fetching = null;
  let fetchAgain = false;

  function url(path) {
    const query = new URLSearchParams();
    if (langParam) query.set("lang", langParam);
    const text = query.toString();
    return base + "/" + path + (text ? "?" + text : "");
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
          const response = await fetch(url("state.json"), { cache: "no-store" });
          if (!response.ok) throw new Error(response.statusText);
          const state = await response.json();
          online(true);
          version = state.version;
          render(state);
        } catch (error) {
          online(false);
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

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      connect();
      refresh();
    }
  });

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function row(cells, head) {
    const tr = document.createElement("tr");
    for (const [text, cls] of cells) tr.appendChild(el(head ? "th" : "td", text, cls));
    return tr;
  }

  function render(state) {
    const view = state.view || {};
    $("heading").textContent = view.heading || state.tournament;
    $("status").textContent = view.status || "";
    const teams = state.players.some((p) => p.team);
    const head = [[T.place, "num"], [T.start, "num"], [T.name, "name"]];
    if (teams) head.push([T.team, "team"]);
    for (const s of view.series || []) head.push([s, "num"]);
    head.push([T.total, "num total"]);
    const thead = $("ranks").tHead;
    thead.replaceChildren(row(head, true));
    const tbody = $("ranks").tBodies[0];
    tbody.replaceChildren();
    let previous = null;
    for (const p of state.players) {
      const name = p.withdrawn ? p.name + " " + T.withdrawn : p.name;
      const cells = [[p.place === previous ? "" : p.place, "num"], [p.start, "num"], [name, "name"]];
      previous = p.place;
      if (teams) cells.push([p.team || "", "team"]);
      for (const v of p.series) cells.push([v === null ? "" : v, "num"]);
      cells.push([p.total, "num total"]);
      const tr = row(cells, false);
      tr.dataset.player = p.name;
      if (p.withdrawn) tr.classList.add("withdrawn");
      tbody.appendChild(tr);
    }
    const teamSection = $("team-ranking");
    teamSection.hidden = !(state.teams && state.teams.length);
    if (!teamSection.hidden) {
      $("teams").tHead.replaceChildren(row([[T.place, "num"], [T.team, "name"], [T.total, "num total"]], true));
      const tb = $("teams").tBodies[0];
      tb.replaceChildren();
      for (const t of state.teams) {
        const tr = row([[t.place, "num"], [t.team, "name"], [t.total, "num total"]], false);
        tr.dataset.team = t.team;
        tb.appendChild(tr);
      }
    }
    const list = $("table-list");
    list.replaceChildren();
    for (const t of state.tables) {
      const li = el("li", t.line, t.playing ? "playing" : "done");
      li.dataset.table = String(t.table);
      list.appendChild(li);
    }
  }

  online(true);
  connect();
  refresh();
})();
