// The network of every page: the server's JSON, whether it can be reached, and the event
// stream that says when something changed (whoever changed it); the writes are
// outbox.js's. Nothing here knows the game: a refused request carries the server's own
// sentence and code; the browser's own words are never shown.
import { forget } from "./forget.js";

const body = document.body;
export const base = body.dataset.base;
const langParam = body.dataset.langParam || "";
export const AGAIN = new Set([502, 503, 504]); // the server (or a proxy before it) is away for now
const LAST_STATE = `romme-state:${base}`;

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
const goneListeners = new Set();
let gone = false; // the server said this link is no longer valid: the page asks it nothing more

/** Say whether the server can be reached: the banner, and whoever listens (never once the link is gone). */
export function online(yes) {
  if (gone) return;
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = yes;
  body.classList.toggle("is-offline", !yes);
  for (const listener of listeners) listener(yes);
}

export function onOnline(listener) {
  listeners.add(listener);
}

/** Whether the server said that this link is no longer valid (linkGone). */
export function isGone() {
  return gone;
}

/** `listener()` once the link is gone: it stops its stream and timers and says what it dropped. */
export function onGone(listener) {
  goneListeners.add(listener);
}

/**
 * The server answered this link's state with 404: the link is no longer valid (revoked by
 * `--new-links`, or its game deleted). The page's last state: no banner saying that the
 * server cannot be reached (it answered), nothing asked of the server any more (each
 * listener closes its stream, clears its timers, drops its writes), and nothing of the link
 * kept in the phone (forget.js).
 */
export function linkGone() {
  if (gone) return;
  gone = true;
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = true;
  body.classList.remove("is-offline");
  for (const listener of goneListeners) listener();
  forget(base);
}

/**
 * Whether this link is gone, asked of the server after a write was answered 404 (a write's
 * 404 alone might mean something else): its state answered 404 too (then linkGone).
 */
export async function goneNow() {
  if (!gone) {
    try {
      await call("GET", "state.json");
    } catch (error) {
      if (error instanceof Refused && error.status === 404) linkGone();
    }
  }
  return gone;
}

/**
 * One request: its JSON, or Refused, or Unreachable. A read is asked again every time,
 * with the ETag of what the browser has (the server then answers 304, no body); a write
 * carries its idempotency key, when it has one.
 */
export async function call(method, path, data, params, key) {
  if (gone) throw new Refused(404, null); // the link is no longer valid: the server is not asked again
  const init = { method, cache: method === "GET" ? "no-cache" : "no-store", headers: { Accept: "application/json" } };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    if (key) init.headers["Idempotency-Key"] = key;
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

// --- what the phone keeps (localStorage) ---------------------------------------------

export function readBox(name, fallback) {
  try {
    const text = localStorage.getItem(name);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

export function writeBox(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // storage full or refused (a private window): the write still waits in this page
  }
}

// --- the state, kept up to date --------------------------------------------------------

function showTrouble(text) {
  const node = document.getElementById("trouble");
  if (!node) return;
  node.textContent = text || "";
  node.hidden = !text;
}

/**
 * The page kept up to date: `render(state)` with every new state.json, fetched at the
 * start (once: the stream opens after it, saying the version the page has), on each
 * event of the stream, when the phone wakes (the page shown again) and when the server
 * is back. While it cannot be read, the last state this phone saw is shown, marked with
 * its time. Once it is answered 404 (the link no longer valid), the page says so and stops:
 * no stream, no retry, no banner saying that the server cannot be reached (linkGone).
 */
export function live(render, T = {}) {
  let version = null;
  let fetching = null;
  let fetchAgain = false;
  let source = null;
  let shown = false;
  let retry = null;
  let stale = false; // the page says the server is not answering: asked again as soon as it is back
  let answered = false; // the last state.json asked came

  /** Say that what is shown is the state of an earlier time (showing it first if nothing is). */
  function showStale() {
    const saved = readBox(LAST_STATE, null);
    if (!saved?.state) return;
    if (!shown) render(saved.state);
    shown = true;
    stale = true;
    const time = new Date(saved.at).toLocaleTimeString(document.documentElement.lang || undefined, {
      hour: "2-digit",
      minute: "2-digit",
    });
    showTrouble((T.stale || "").replace("{time}", time));
  }

  async function refresh() {
    if (gone) return;
    if (fetching) {
      fetchAgain = true;
      return fetching;
    }
    fetching = (async () => {
      do {
        fetchAgain = false;
        try {
          const state = await call("GET", "state.json");
          if (gone) break;
          answered = true;
          stale = false;
          online(true);
          showTrouble("");
          clearTimeout(retry);
          version = state.version;
          shown = true;
          writeBox(LAST_STATE, { at: Date.now(), state });
          render(state);
        } catch (error) {
          answered = false;
          if (error instanceof Refused && error.status === 404) {
            linkGone(); // the link is no longer valid: the page's last state
            break;
          }
          if (error instanceof Refused && !AGAIN.has(error.status)) {
            stale = false;
            online(true); // the server answered: it is there, the trouble is another one
            showTrouble(T.server_error);
          } else if (error instanceof Refused || !shown) {
            showStale(); // the server is busy (503), or away since before this page was loaded
          }
          clearTimeout(retry);
          retry = setTimeout(refresh, 5000); // a probe: back as soon as the server is
        }
      } while (fetchAgain);
      fetching = null;
    })();
    return fetching;
  }

  function close() {
    if (!source) return;
    source.onopen = null;
    source.onmessage = null;
    source.onerror = null;
    source.close();
    source = null;
  }

  function connect() {
    if (gone) return;
    close();
    const since = version;
    source = new EventSource(url("events", since === null ? {} : { since }));
    source.onopen = () => {
      online(true); // the writes waiting are sent now (outbox.js listens)
      // A stream that says no version (opened before the first state.json came) is told
      // nothing on opening, nor on the browser's reconnections of it, which keep its
      // address: what changed meanwhile is asked for here, each time it opens.
      if (since === null) refresh();
    };
    source.onmessage = (event) => {
      if (event.data === "gone") {
        // the server serves this link no more: the stream is closed here (never seen as
        // dropped), and the state says 404 (the page stops); else the stream again
        close();
        refresh().then(() => connect());
      } else if (event.data !== String(version)) refresh();
    };
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) {
        online(false); // the stream dropped: the browser asks for it again
        return;
      }
      // The server answered, but not with a stream (the link no longer valid, the server
      // busy): the state says which (a link gone: the page stops, never saying that the
      // server cannot be reached), and the stream is asked for again.
      refresh().then(() => {
        if (!answered) online(false);
      });
      setTimeout(connect, 3000);
    };
  }

  onGone(() => {
    close();
    clearTimeout(retry);
    stale = false;
    showTrouble(T.link_gone);
  });

  // After the phone slept: a new stream, and whatever changed meanwhile.
  const wake = () => {
    if (gone) return;
    connect();
    refresh();
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") wake();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) wake();
  });
  window.addEventListener("online", wake);
  // The server is back (the stream opened, a write arrived): the words saying it is away go now.
  onOnline((yes) => {
    if (yes && stale) refresh();
  });
  refresh().finally(connect);
  return { refresh };
}
