// The entry of every page of `romme serve`: the page's module, by the kind of its link.
const roles = {
  board: () => import("./board.js"),
  seat: () => import("./seat.js"),
  scorekeeper: () => import("./keeper.js"),
  tournament: () => import("./tournament.js"),
  league: () => import("./league.js"),
  organizer: () => import("./organizer.js"),
};

const role = roles[document.body.dataset.kind];
if (role) role().then((module) => module.start());
// "Keep screen on", where the page offers it (the board, a seat); not loaded: no button works
const unloaded = (error) => error;
if (document.getElementById("awake")) import("./awake.js").then((module) => module.start(), unloaded);

// Where the browser allows a service worker (a secure origin), it keeps this link's page
// for a reload while the server is away (sw.js); on plain HTTP there is none.
const link = document.body.dataset.base;
if ("serviceWorker" in navigator && window.isSecureContext && link) {
  // no service worker (refused): the page works as before, its writes kept in localStorage
  const without = (error) => error;
  navigator.serviceWorker.register(`${link}/static/sw.js`, { scope: link }).catch(without);
}
