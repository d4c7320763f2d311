// The entry of every page of `romme serve`: the page's module, by the kind of its link.
const roles = {
  board: () => import("./board.js"),
  seat: () => import("./seat.js"),
  scorekeeper: () => import("./keeper.js"),
  tournament: () => import("./tournament.js"),
  league: () => import("./league.js"),
};

const role = roles[document.body.dataset.kind];
if (role) role().then((module) => module.start());
