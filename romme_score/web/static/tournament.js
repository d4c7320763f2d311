// The board of `romme serve --tournament`: the ranking across all tables, for a
// projector, kept up to date by the network of every page (net.js).
import { live, online } from "./net.js";
import { $, T } from "./render.js";

function cell(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function row(cells, head) {
  const tr = document.createElement("tr");
  for (const [text, cls] of cells) tr.appendChild(cell(head ? "th" : "td", text, cls));
  return tr;
}

function renderRanking(state) {
  const view = state.view || {};
  const teams = state.players.some((p) => p.team);
  const head = [
    [T.place, "num"],
    [T.start, "num"],
    [T.name, "name"],
  ];
  if (teams) head.push([T.team, "team"]);
  for (const s of view.series || []) head.push([s, "num"]);
  head.push([T.total, "num total"]);
  $("ranks").tHead.replaceChildren(row(head, true));
  const tbody = $("ranks").tBodies[0];
  tbody.replaceChildren();
  let previous = null;
  for (const p of state.players) {
    const name = p.withdrawn ? `${p.name} ${T.withdrawn}` : p.name;
    const cells = [
      [p.place === previous ? "" : p.place, "num"],
      [p.start, "num"],
      [name, "name"],
    ];
    previous = p.place;
    if (teams) cells.push([p.team || "", "team"]);
    for (const v of p.series) cells.push([v === null ? "" : v, "num"]);
    cells.push([p.total, "num total"]);
    const tr = row(cells, false);
    tr.dataset.player = p.name;
    if (p.withdrawn) tr.classList.add("withdrawn");
    tbody.appendChild(tr);
  }
}

function renderTeams(state) {
  const section = $("team-ranking");
  section.hidden = !state.teams?.length;
  if (section.hidden) return;
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
  const tbody = $("teams").tBodies[0];
  tbody.replaceChildren();
  for (const t of state.teams) {
    const tr = row(
      [
        [t.place, "num"],
        [t.team, "name"],
        [t.total, "num total"],
      ],
      false,
    );
    tr.dataset.team = t.team;
    tbody.appendChild(tr);
  }
}

function render(state) {
  const view = state.view || {};
  $("heading").textContent = view.heading || state.tournament;
  $("status").textContent = view.status || "";
  renderRanking(state);
  renderTeams(state);
  const list = $("table-list");
  list.replaceChildren();
  for (const t of state.tables) {
    const li = cell("li", t.line, t.playing ? "playing" : "done");
    li.dataset.table = String(t.table);
    list.appendChild(li);
  }
}

export function start() {
  online(true);
  live(render, T);
}
