// The board of `romme serve --tournament`: the ranking across all tables, kept up to
// date by the network of every page (net.js). Every number and sentence comes from the
// server (state.json and its "view"); this only lays it out:
// - a projector (`?view=screen`, or a wide landscape window): the whole ranking on one
//   screen, in columns side by side, or in pages that turn every 10 s where it cannot fit;
//   the tables' lines and the team ranking beside it the same way (paging.js), each box
//   saying which page it shows, all turning with the one clock;
// - a phone: place, name and total; a tap on a row opens its series and team.
import { live, online } from "./net.js";
import { fitPages, keepTurning, pageOf, sayPage } from "./paging.js";
import { $, cell, row, T } from "./render.js";

const MAX_COLUMNS = 3;
let last = null;

function screenWanted() {
  const asked = new URLSearchParams(window.location.search).get("view");
  if (asked === "screen") return true;
  if (asked === "list") return false;
  return window.innerWidth >= 1024 && window.innerWidth >= 1.3 * window.innerHeight;
}

function headRow(state) {
  const view = state.view || {};
  const teams = state.players.some((p) => p.team);
  const head = [
    [T.place, "num"],
    [T.start, "num opt start"],
    [T.name, "name"],
  ];
  if (teams) head.push([T.team, "team opt"]);
  for (const s of view.series || []) head.push([s, "num opt"]);
  head.push([T.total, "num total"]);
  if (view.current) head.push([view.current, "num opt current"]);
  return row(head, true);
}

/** The series, team and start number of a row, shown under the name after a tap. */
function more(state, p) {
  const view = state.view || {};
  const parts = [];
  (view.series || []).forEach((s, i) => {
    const v = p.series[i];
    parts.push(`${s} ${v === null ? "–" : v}`);
  });
  const now = view.players?.[String(p.start)];
  if (now) parts.push(`${view.current} ${now.points} (${now.progress})`);
  if (p.team) parts.push(`${T.team} ${p.team}`);
  parts.push(`${T.start} ${p.start}`);
  const div = cell("div", parts.join(" · "), "more");
  div.hidden = true;
  return div;
}

function playerRow(state, p, previous) {
  const view = state.view || {};
  const teams = state.players.some((q) => q.team);
  const tr = document.createElement("tr");
  tr.dataset.player = p.name;
  if (p.withdrawn) tr.classList.add("withdrawn");
  tr.appendChild(cell("td", p.place === previous ? "" : p.place, "num place"));
  tr.appendChild(cell("td", p.start, "num opt start"));
  const name = cell("td", null, "name");
  const who = cell("button", p.withdrawn ? `${p.name} ${T.withdrawn}` : p.name, "who");
  who.type = "button";
  who.setAttribute("aria-expanded", "false");
  const details = more(state, p);
  who.addEventListener("click", () => {
    const open = details.hidden;
    details.hidden = !open;
    who.setAttribute("aria-expanded", String(open));
    tr.classList.toggle("open", open);
  });
  name.append(who, details);
  tr.appendChild(name);
  // a tap anywhere on the row opens it (the button is there for the keyboard and screen readers)
  tr.addEventListener("click", (event) => {
    if (!event.target.closest("button")) who.click();
  });
  if (teams) tr.appendChild(cell("td", p.team || "", "team opt"));
  for (const v of p.series) tr.appendChild(cell("td", v === null ? "" : v, "num opt"));
  tr.appendChild(cell("td", p.total, "num total"));
  if (view.current) {
    const now = view.players?.[String(p.start)];
    const td = cell("td", null, "num opt current");
    if (now) {
      td.append(cell("span", now.points, "points"), cell("span", now.progress, "progress"));
    }
    tr.appendChild(td);
  }
  return tr;
}

function table(state, players, first) {
  const t = document.createElement("table");
  t.className = "rank-table";
  t.createTHead().appendChild(headRow(state));
  const body = t.createTBody();
  let previous = first;
  for (const p of players) {
    body.appendChild(playerRow(state, p, previous));
    previous = p.place;
  }
  return t;
}

function placeBefore(state, index) {
  return index > 0 ? state.players[index - 1].place : null;
}

function onScreen() {
  return document.documentElement.classList.contains("screen");
}

/** How many rows a column of the ranking takes and how many columns the box, measured
 *  on one row and its head as the screen draws them. */
function measureRanking(state, box) {
  box.replaceChildren(table(state, state.players.slice(0, 1), null));
  const probe = box.firstChild;
  probe.classList.add("probe");
  const headHeight = probe.tHead.getBoundingClientRect().height;
  const rowHeight = probe.tBodies[0].rows[0]?.getBoundingClientRect().height || 1;
  const columnWidth = probe.getBoundingClientRect().width;
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const perColumn = Math.max(1, Math.floor((box.clientHeight - headHeight) / rowHeight));
  const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.floor((box.clientWidth + gap) / (columnWidth + gap))));
  return { perColumn, perPage: perColumn * columns };
}

/** One column, or as many as the screen takes, or pages of them; the number of pages. */
function renderRanking(state) {
  const box = $("ranks");
  const players = state.players;
  const pages = $("pages");
  sayPage(pages, 0, 1);
  if (!onScreen()) {
    box.replaceChildren(table(state, players, null));
    return 1;
  }
  let fit = measureRanking(state, box);
  if (players.length > fit.perPage) {
    // the line that says which page takes its room from the ranking's box: measure again
    sayPage(pages, 0, 2);
    fit = measureRanking(state, box);
  }
  const { perColumn, perPage } = fit;
  const count = Math.max(1, Math.ceil(players.length / perPage));
  const at = pageOf(count);
  const shown = players.slice(at * perPage, (at + 1) * perPage);
  const used = Math.max(1, Math.ceil(shown.length / perColumn));
  const each = Math.ceil(shown.length / used);
  const parts = [];
  for (let i = 0; i < shown.length; i += each) {
    parts.push(table(state, shown.slice(i, i + each), placeBefore(state, at * perPage + i)));
  }
  box.replaceChildren(...parts);
  box.style.setProperty("--columns", String(used));
  sayPage(pages, at, count);
  return count;
}

function renderTables(state) {
  const items = state.tables.map((t) => {
    const li = cell("li", t.line, t.playing ? "playing" : "done");
    li.dataset.table = String(t.table);
    return li;
  });
  const list = $("table-list");
  return fitPages(list, list, items, $("table-pages"), onScreen());
}

function renderTeams(state) {
  const section = $("team-ranking");
  if (section.hidden) return 1;
  $("teams").tHead.replaceChildren(
    row(
      [
        [T.place, "num"],
        [T.team, "name"],
        [T.total, "num total"],
      ],
      true,
    ),
  );
  const items = state.teams.map((t) => {
    const tr = row(
      [
        [t.place, "num"],
        [t.team, "name"],
        [t.total, "num total"],
      ],
      false,
    );
    tr.dataset.team = t.team;
    return tr;
  });
  const body = $("teams").tBodies[0];
  return fitPages(section.querySelector(".scroll"), body, items, $("team-pages"), onScreen());
}

function render(state) {
  last = state;
  const view = state.view || {};
  document.documentElement.classList.toggle("screen", screenWanted());
  $("heading").textContent = view.heading || state.tournament;
  $("status").textContent = view.status || "";
  const provisional = $("provisional");
  provisional.textContent = view.provisional || "";
  provisional.hidden = !view.provisional;
  const closed = $("closed");
  closed.textContent = view.closed || "";
  closed.hidden = !view.closed;
  // the team ranking's box is there or not before the tables' box is measured; the tables
  // first: where their box has pages it keeps its height, and the teams get the rest
  $("team-ranking").hidden = !state.teams?.length;
  const counts = [renderTables(state), renderTeams(state), renderRanking(state)];
  keepTurning(Math.max(...counts), redraw);
}

function redraw() {
  if (last) render(last);
}

export function start() {
  online(true);
  document.documentElement.classList.toggle("screen", screenWanted());
  let waiting = null;
  window.addEventListener("resize", () => {
    clearTimeout(waiting);
    waiting = setTimeout(redraw, 150);
  });
  live(render, T);
}
