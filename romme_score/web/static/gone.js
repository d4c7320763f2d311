// The page of a link that is wrong or no longer valid (the 404 page, which has no link of
// its own): where this phone kept something of the link it asked for (the service
// worker's copy of its page, sw.js; the last state it showed, net.js; the writes it had
// not sent, outbox.js), that is deleted now, and the page says so. A link answered with
// this page never comes back from the phone's copy while the server is away.
const asked = location.pathname.match(/^\/([^/]+)\/?$/); // a link's own page, not a path under it

/** Remove the item `name` from localStorage: whether it was there. */
function drop(name) {
  try {
    const there = localStorage.getItem(name) !== null;
    localStorage.removeItem(name);
    return there;
  } catch {
    return false; // storage refused (a private window): nothing was kept there
  }
}

/** Whether writes were waiting in the phone for the link `base` (outbox.js's box). */
function writesWaiting(base) {
  try {
    const outbox = JSON.parse(localStorage.getItem(`romme-outbox:${base}`) || "[]");
    return Array.isArray(outbox) && outbox.length > 0;
  } catch {
    return false;
  }
}

/** Delete what the phone keeps of the link `base`: {kept: anything, writes: unsent writes}. */
async function forget(base) {
  const writes = writesWaiting(base);
  let kept = drop(`romme-outbox:${base}`);
  kept = drop(`romme-state:${base}`) || kept;
  if (globalThis.caches) {
    try {
      kept = (await caches.delete(`romme-page:${base}`)) || kept;
    } catch {
      // no cache storage here: nothing was kept in it
    }
  }
  if (navigator.serviceWorker) {
    try {
      for (const registration of await navigator.serviceWorker.getRegistrations()) {
        if (new URL(registration.scope).pathname.replace(/\/$/, "") === base) {
          kept = (await registration.unregister()) || kept;
        }
      }
    } catch {
      // no service worker here (plain HTTP): none to remove
    }
  }
  return { kept, writes };
}

if (asked) {
  forget(`/${asked[1]}`).then(({ kept, writes }) => {
    document.getElementById("forgot").hidden = !kept;
    document.getElementById("forgot-writes").hidden = !writes;
  });
}
