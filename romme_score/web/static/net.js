// The network of every page: the server's JSON, whether it can be reached, and the event
// stream that says when something changed (whoever changed it); the writes are
// outbox.js's. Nothing here knows the game: a refused request carries the server's own
// sentence and code; the browser's own words are never shown.
import { forget } from "./forget.js";

const body = document.body;
export const base = body.dataset.base;
const langParam = body.dataset.langParam || "";
export const AGAIN = new Set([502, 503, 504]); // the server (or a proxy before it) is away for now

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

// The page kept up to date: live.js (here too, for the pages that import it from here).
export { live } from "./live.js";
