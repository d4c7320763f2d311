// What the phone keeps of a link (the service worker's copy of its page, sw.js; the last
// state it showed, net.js; the writes it had not sent, outbox.js), deleted once the server
// says the link is no longer valid: by the wrong-link page (gone.js) and by a page open
// at that link when its state is answered 404 (net.js). A revoked link's page never comes
// back from the phone's copy while the server is away.

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
export async function forget(base) {
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
