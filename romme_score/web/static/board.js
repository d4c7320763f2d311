// A session's board: what every page shows, for everyone at the table.
import { live } from "./net.js";
import { renderPending, renderSession, T } from "./render.js";

export function start() {
  live((state) => {
    renderSession(state, null);
    renderPending(state);
  }, T);
}
