// The network of every page: the server's JSON, whether it can be reached, and the
// event stream that says when something changed (whoever changed it). Nothing here
// knows the game: a refused request carries the server's own sentence and code.

const body = document.body;
export const base = body.dataset.base;
const langParam = body.dataset.langParam || "";
const RETRY_MS = [1000, 2000, 3000, 5000]; // then every 5 s, while the server is away

/** The server answered, but refused: its status and JSON (`error`, `code`, ...). */
export class Refused extends Error {
  constructor(status, data) {
    super(data?.error || String(status));
    this.status = status;
    this.data = data || {};
  }
}

/** The server could not be reached (the browser's own words are never shown). */
export class Unreachable extends Error {}

export function url(path, params) {
  const query = params instanceof URLSearchParams ? params : new URLSearchParams(params || {});
  if (langParam) query.set("lang", langParam);
  const text = query.toString();
  return `${base}/${path}${text ? `?${text}` : ""}`;
}

const listeners = new Set();

/** Say whether the server can be reached: the banner, and whoever listens. */
export function online(yes) {
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = yes;
  body.classList.toggle("is-offline", !yes);
  for (const listener of listeners) listener(yes);
}

export function onOnline(listener) {
  listeners.add(listener);
}

/**
 * One request: its JSON, or Refused, or Unreachable. A read is asked again every time,
 * with the ETag of what the browser has (the server then answers 304, no body).
 */
export async function call(method, path, data, params) {
  const init = { method, cache: method === "GET" ? "no-cache" : "no-store", headers: { Accept: "application/json" } };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(data || {});
  }
  let response;
  try {
    response = await fetch(url(path, params), init);
  } catch {
    online(false);
    throw new Unreachable();
  }
  let json = null;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  if (!response.ok) throw new Refused(response.status, json);
  return json;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A write. With `again`, one that may be sent twice (a hand, "went out", a part of the
 * round: each sets a value): while the server is away it waits in the page and is sent
 * again until answered (`waiting` is told so). With `ask`, a question of the server
 * (409 `unlikely_points`: "Really 160 points?") is put to the player, and the same body
 * sent again with `"confirm": true` if they say yes; no: null.
 */
export async function send(path, data, { again = false, waiting = null, ask = null } = {}) {
  let body = data;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await call("POST", path, body);
      online(true);
      return answer;
    } catch (error) {
      if (error instanceof Refused && error.data.code === "unlikely_points" && ask && !body.confirm) {
        if (!(await ask(error.data.question || error.message))) return null;
        body = { ...body, confirm: true };
        attempt = -1;
        continue;
      }
      if (!(error instanceof Unreachable) || !again) throw error;
      if (waiting) waiting();
      await wait(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
    }
  }
}

/**
 * The page kept up to date: `render(state)` with every new state.json, fetched at the
 * start (once: the stream opens after it, saying the version the page has), on each
 * event of the stream, and when the phone wakes (the page shown again).
 */
export function live(render) {
  let version = null;
  let fetching = null;
  let fetchAgain = false;
  let source = null;

  async function refresh() {
    if (fetching) {
      fetchAgain = true;
      return fetching;
    }
    fetching = (async () => {
      do {
        fetchAgain = false;
        try {
          const state = await call("GET", "state.json");
          online(true);
          version = state.version;
          render(state);
        } catch {
          // Unreachable has said so; a refusal (busy) is tried again at the next event
        }
      } while (fetchAgain);
      fetching = null;
    })();
    return fetching;
  }

  function connect() {
    if (source) source.close();
    source = new EventSource(url("events", version === null ? {} : { since: version }));
    source.onopen = () => {
      online(true);
      if (version === null) refresh(); // the first state.json did not come: ask again
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
  refresh().then(connect);
  return { refresh };
}
