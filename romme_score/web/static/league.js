// The board of `romme serve --league`: a club's season, kept up to date by the network
// of every page (net.js). Place, name, points and events played; nothing is added up here.
import { live, online } from "./net.js";
import { $, cell, row, T } from "./render.js";

function render(state) {
  const view = state.view || {};
  $("heading").textContent = view.heading || state.league;
  $("status").textContent = view.status || "";
  $("options").textContent = view.options || "";
  const table = $("season-ranks");
  table.tHead.replaceChildren(
    row(
      [
        [T.place, "num"],
        [T.name, "name"],
        [T.points, "num total"],
        [T.played, "num"],
      ],
      true,
    ),
  );
  const tbody = table.tBodies[0];
  tbody.replaceChildren();
  let previous = null;
  for (const p of state.players) {
    const tr = row(
      [
        [p.place === previous ? "" : p.place, "num"],
        [p.name, "name"],
        [p.points, "num total"],
        [p.played, "num"],
      ],
      false,
    );
    previous = p.place;
    tr.dataset.player = p.name;
    tbody.appendChild(tr);
  }
  const list = $("event-list");
  list.replaceChildren();
  (view.events || []).forEach((line, i) => {
    const event = state.events[i] || {};
    const li = cell("li", line, event.finished ? "done" : "playing");
    li.dataset.event = event.name || "";
    list.appendChild(li);
  });
}

export function start() {
  online(true);
  live(render, T);
}
