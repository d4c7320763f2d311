// A page kept up to date (live): its state.json read at the start, at each event of the
// stream, when the phone wakes and when the server is back; the last state the phone saw
// shown while the server is away; a link no longer valid the page's last state. The
// network itself (a request, the banner, what the phone keeps) is net.js's.
import {
  AGAIN,
  base,
  call,
  isGone,
  linkGone,
  onGone,
  online,
  onOnline,
  Refused,
  readBox,
  url,
  writeBox,
} from "./net.js";

/** Where the phone keeps the last state it saw of this link (forget.js deletes it). */
function lastState() {
  return `romme-state:${base}`;
}

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
    const saved = readBox(lastState(), null);
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
    if (isGone()) return;
    if (fetching) {
      fetchAgain = true;
      return fetching;
    }
    fetching = (async () => {
      do {
        fetchAgain = false;
        try {
          const state = await call("GET", "state.json");
          if (isGone()) break;
          answered = true;
          stale = false;
          online(true);
          showTrouble("");
          clearTimeout(retry);
          version = state.version;
          shown = true;
          writeBox(lastState(), { at: Date.now(), state });
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
    if (isGone()) return;
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
        refresh().then(connect);
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
      refresh().then(sayIfAway);
      setTimeout(connect, 3000);
    };
  }

  /** After a stream was refused: the server is away where its state did not come either. */
  function sayIfAway() {
    if (!answered) online(false);
  }

  /** The link is no longer valid: no stream, no timer, and the page says why. */
  function stop() {
    close();
    clearTimeout(retry);
    stale = false;
    showTrouble(T.link_gone);
  }

  onGone(stop);

  // After the phone slept: a new stream, and whatever changed meanwhile.
  const wake = () => {
    if (isGone()) return;
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
