// The writes of a page: each one kept in the phone (localStorage, per link) with an
// idempotency key made here until the server has answered it, sent again with the same
// key while the server is away (with backoff, and at once when the event stream or a
// probe is back), so that it is applied once however often it is sent and survives a
// reload or a sleeping phone. What each stage means is said by the page (handlers). Once
// the link is no longer valid (net.js linkGone), nothing is sent any more: the writes
// waiting are dropped (forget.js deletes their box), and the page says they were not sent.
import {
  AGAIN,
  call,
  goneNow,
  isGone,
  onGone,
  online,
  onOnline,
  Refused,
  readBox,
  Unreachable,
  writeBox,
} from "./net.js";

const base = document.body.dataset.base;
const RETRY_MS = [1000, 2000, 4000, 8000]; // then every 10 s, while the server is away
const RETRY_CAP_MS = 10000;
const OUTBOX = `romme-outbox:${base}`; // one link's writes: another link's are never sent here

/** A key no other write has: a random UUID (crypto.randomUUID only exists on a secure origin). */
function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
}

const outbox = readBox(OUTBOX, []);
let handlers = {};
let flushing = false;
let retryTimer = null;
let failures = 0;

const keep = () => {
  if (!isGone()) writeBox(OUTBOX, outbox); // a link no longer valid keeps nothing in the phone
};

/** The link is no longer valid: no retry, and the writes still waiting are dropped (said by the page). */
function drop() {
  clearTimeout(retryTimer);
  const dropped = outbox.splice(0);
  if (dropped.length && handlers.dropped) handlers.dropped(dropped);
}

function retryLater() {
  clearTimeout(retryTimer);
  const ms = failures <= RETRY_MS.length ? RETRY_MS[failures - 1] : RETRY_CAP_MS;
  retryTimer = setTimeout(flush, ms);
}

/** Send the writes waiting, oldest first, each with its key, until one cannot be sent. */
export async function flush() {
  if (flushing || isGone()) return;
  flushing = true;
  clearTimeout(retryTimer);
  try {
    while (outbox.length) {
      const entry = outbox[0];
      let answer;
      try {
        answer = await call("POST", entry.path, entry.body, null, entry.key);
      } catch (error) {
        // the link gone meanwhile, or answered 404 here and its state too: drop() said so
        if (isGone() || (error instanceof Refused && error.status === 404 && (await goneNow()))) return;
        if (error instanceof Unreachable || (error instanceof Refused && AGAIN.has(error.status))) {
          entry.tries = (entry.tries || 0) + 1;
          keep();
          failures += 1;
          if (handlers.queued) handlers.queued(entry);
          retryLater();
          return;
        }
        outbox.shift();
        keep();
        if (handlers.refused) handlers.refused(entry, error);
        continue;
      }
      outbox.shift();
      keep();
      failures = 0;
      online(true);
      if (handlers.arrived) handlers.arrived(entry, answer || {});
    }
  } finally {
    flushing = false;
  }
}

/**
 * The page's writes: `handlers` says what each stage means on this page — `sending(entry)`,
 * `queued(entry)` (the server is away: it waits in the phone), `arrived(entry, answer)`,
 * `refused(entry, error)` (Refused: the server's sentence), `dropped(entries)` (the link is
 * no longer valid: they were not sent and never will be). Writes left by an earlier load
 * of this link (a reload, a phone that slept) are sent now. Returns `post(path, body)`.
 */
export function writes(given) {
  handlers = given;
  onGone(drop);
  if (outbox.length) {
    for (const entry of outbox) if (handlers.queued) handlers.queued(entry);
    flush();
  }
  window.addEventListener("online", () => flush());
  onOnline((yes) => {
    if (yes && outbox.length && !flushing) flush();
  });
  return (path, data) => {
    const entry = { key: newKey(), path, body: data || {}, tries: 0 };
    if (isGone()) {
      if (handlers.dropped) handlers.dropped([entry]);
      return entry;
    }
    outbox.push(entry);
    keep();
    if (handlers.sending) handlers.sending(entry);
    flush();
    return entry;
  };
}

/** Whether a write of `path` is still waiting to be sent. */
export function waiting(path) {
  return outbox.some((entry) => entry.path === path);
}
