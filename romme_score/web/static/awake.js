// "Keep screen on" (issue 36 item 6): a phone lying on the table with the board or a seat
// open would dim and lock after its screen timeout. Where the browser has the Screen Wake
// Lock API (a secure origin: localhost, HTTPS) the page asks it for the screen; on plain
// HTTP on the Wi-Fi, where there is none, or where it refuses, a muted inline video plays,
// unseen, and a playing video keeps the screen on: the technique of NoSleep.js, in these
// few lines rather than its file (it logs to the console and throws where it is refused,
// and does not turn to the video when the Wake Lock API is there but says no). Chromium
// counts a muted video only while most of it is on screen and it covers a fifth of the
// view (its VideoWakeLock): so it lies under the whole page, transparent (style.css).
// The choice is kept per phone and link (localStorage), taken up again when the page is
// shown again, and nothing here throws: a refusal is a calm sentence under the button.
import { readBox, writeBox } from "./net.js";
import { $, say, T } from "./render.js";

const KEY = `romme-awake:${document.body.dataset.base}`;
// Ten seconds of one white 64×64 picture a second, made by ffmpeg (lavfi color, libvpx
// and libx264 baseline, no audio, metadata and the encoder's note left out): WebM for
// Chromium and Firefox, MP4 for Safari. In the script, as data: (CSP media-src data:):
// Safari plays a video file only from a server that answers byte ranges.
const WEBM =
  "data:video/webm;base64,GkXfo59ChoEBQveBAULygQRC84EIQoKEd2VibUKHgQJChYECGFOAZwEAAAAAAALKEU2bdLpNu4tTq4QVSalmU6yBoU27i1OrhBZUrmtTrIHGTbuMU6uEElTDZ1OsggEMTbuMU6uEHFO7a1OsggK07AEAAAAAAABZAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAVSalmoCrXsYMPQkBNgIRMYXZmV0GETGF2ZkSJiEDDiAAAAAAAFlSua8GuAQAAAAAAADjXgQFzxYgAAAAAAAAAAZyBACK1nIN1bmSIgQCGhVZfVlA4g4EBI+ODhDuaygDgibCBQLqBQJqBAhJUw2fRc3POY8CLY8WIAAAAAAAAAAFnyJhFo4dFTkNPREVSRIeLTGF2YyBsaWJ2cHhnyKJFo4hEVVJBVElPTkSHlDAwOjAwOjEwLjAwMDAwMDAwMAAAH0O2dUDG54EAo6mBAACA8AIAnQEqQABAAAkHCIWFiJmEiDCCAAZwPEJgCrIg9zAA/uzaAKOdgQPoADECACQQ3AAYABzX9AwAAHNPffuY/vFuNQCjnIEH0AAxAgAkEKgAGAAZ1/QMAAEsBgCmAP72UICjnIELuAAxAgAkEIAAGAAZ1/QMAAEsBgCmAP75sQCjnIEPoAAxAgAkEGAAGAAZ1/QMAAEsBgCmAP779gCjnYETiAAxAgAkEEgAGAAZ1/QMAAEsBgCmAP789AAAH0O2dUCA54IXcKOdgQAAADECACQQNAAYABnX9AwAASwGAKYA/v4UoACjnYED6AAxAgAkECQAGAAZ1/QMAAEsBgCmAP7+3XgAo52BB9AAMQIAJBAYABgAGdf0DAABLAYApgD+/z1YAKOdgQu4ADECACQQEAAYABnX9AwAASwGAKYA/v+j3gAcU7trkbuPs4EAt4r3gQHxggFi8IED";
const MP4 =
  "data:video/mp4;base64,AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDEAAAMobW9vdgAAAGxtdmhkAAAAAAAAAAAAAAAAAAAD6AAAJxAAAQAAAQAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgAAAnd0cmFrAAAAXHRraGQAAAADAAAAAAAAAAAAAAABAAAAAAAAJxAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAAEAAAABAAAAAAAAkZWR0cwAAABxlbHN0AAAAAAAAAAEAACcQAAAAAAABAAAAAAHvbWRpYQAAACBtZGhkAAAAAAAAAAAAAAAAAABAAAACgABVxAAAAAAALWhkbHIAAAAAAAAAAHZpZGUAAAAAAAAAAAAAAABWaWRlb0hhbmRsZXIAAAABmm1pbmYAAAAUdm1oZAAAAAEAAAAAAAAAAAAAACRkaW5mAAAAHGRyZWYAAAAAAAAAAQAAAAx1cmwgAAAAAQAAAVpzdGJsAAAAunN0c2QAAAAAAAAAAQAAAKphdmMxAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAEAAQABIAAAASAAAAAAAAAABDExhdmMgbGlieDI2NAAAAAAAAAAAAAAAAAAAAAAAAAAAGP//AAAAMGF2Y0MBQsAe/+EAF2dCwB7ZBCbARAAAAwAEAAADAAg8WLkgAQAGaMuAZSyAAAAAEHBhc3AAAAABAAAAAQAAABRidHJ0AAAAAAAAAF4AAABeAAAAGHN0dHMAAAAAAAAAAQAAAAoAAEAAAAAAFHN0c3MAAAAAAAAAAQAAAAEAAAAcc3RzYwAAAAAAAAABAAAAAQAAAAoAAAABAAAAPHN0c3oAAAAAAAAAAAAAAAoAAAAbAAAACgAAAAsAAAAKAAAACgAAAAoAAAAKAAAACgAAAAoAAAAKAAAAFHN0Y28AAAAAAAAAAQAAA1gAAAA9dWR0YQAAADVtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABtZGlyYXBwbAAAAAAAAAAAAAAAAAhpbHN0AAAACGZyZWUAAAB+bWRhdAAAABdliIQF/JigACFpJycnXXXXXXXXXXXXgAAAAAZBmjgL+EYAAAAHQZpUAv4RgAAAAAZBmmAX8IwAAAAGQZqAF/CMAAAABkGaoBfwjAAAAAZBmsAX8IwAAAAGQZrgF/CMAAAABkGbABbwjAAAAAZBmyAV8Iw=";

let wanted = false; // the choice, as kept for this link
let lock = null; // the Wake Lock, while the browser holds it
let video = null;
let turn = 0; // each change of mind: an answer that comes after the next one is dropped
let tapArmed = false;

const none = () => null;

function button() {
  return $("awake");
}

/** Its sentence under the button; `on` marks the one that says the screen stays on (which
 *  a projector's board leaves to the pressed button: style.css). */
function show(text, error = false, on = false) {
  say("awake-msg", text, error);
  $("awake-msg")?.toggleAttribute("data-on", on);
}

function theVideo() {
  if (video) return video;
  video = document.createElement("video");
  video.className = "awake-video";
  video.muted = true;
  video.defaultMuted = true; // the attribute too: Safari looks at it
  video.loop = true;
  video.playsInline = true;
  video.setAttribute("playsinline", "");
  video.setAttribute("aria-hidden", "true");
  video.setAttribute("disableremoteplayback", "");
  video.disablePictureInPicture = true;
  video.tabIndex = -1;
  for (const [type, src] of [
    ["video/webm", WEBM],
    ["video/mp4", MP4],
  ]) {
    const source = document.createElement("source");
    source.type = type;
    source.src = src;
    video.append(source);
  }
  document.body.append(video);
  return video;
}

function holding() {
  return lock !== null || (video !== null && !video.paused);
}

async function askLock() {
  if (!navigator.wakeLock?.request) return null;
  try {
    return await navigator.wakeLock.request("screen");
  } catch {
    return null; // refused (a battery saver, a permission policy, a headless browser): the video then
  }
}

async function playVideo() {
  try {
    await theVideo().play();
    return true;
  } catch {
    return false; // not without a tap, or not at all
  }
}

/** Keep the screen on: the Wake Lock where there is one, else the video. True if held. */
async function hold() {
  const mine = ++turn;
  // no await before the video's play() where there is no Wake Lock: Safari lets a video
  // play only within the tap itself
  const sentinel = navigator.wakeLock?.request ? await askLock() : null;
  if (sentinel !== null) {
    if (mine !== turn || !wanted) {
      sentinel.release().catch(none);
      return false;
    }
    lock = sentinel;
    sentinel.addEventListener("release", () => {
      if (lock === sentinel) lock = null; // the page was hidden: taken again when shown
    });
    if (video) video.pause();
    button().dataset.by = "lock";
    return true;
  }
  const played = await playVideo();
  if (mine !== turn) return false;
  if (played) button().dataset.by = "video";
  return played;
}

function letGo() {
  turn += 1;
  if (lock !== null) {
    const sentinel = lock;
    lock = null;
    sentinel.release().catch(none);
  }
  if (video) video.pause();
  button().removeAttribute("data-by");
}

function keep(value) {
  wanted = value;
  writeBox(KEY, value);
  button().setAttribute("aria-pressed", String(value));
}

/** Take the choice up (again): after a tap `tapped`, else at the start or when shown. */
async function apply(tapped) {
  if (!wanted || holding()) return;
  const mine = turn + 1;
  const held = await hold();
  if (!wanted || mine !== turn) return;
  if (held) {
    show(T.awake_on, false, true);
  } else if (tapped) {
    keep(false);
    show(T.awake_failed, true);
  } else {
    show(T.awake_tap);
    armTap();
  }
}

/** Without a tap the browser may refuse the video: the next tap anywhere takes it up. */
function armTap() {
  if (tapArmed) return;
  tapArmed = true;
  document.addEventListener(
    "click",
    (event) => {
      tapArmed = false;
      if (event.target.closest?.("#awake")) return; // the button's own tap decides
      apply(true).catch(none);
    },
    { capture: true, once: true },
  );
}

/** The button: on, or off; while the choice waits for a tap (above), its tap takes it up. */
function toggle() {
  if (wanted && holding()) {
    keep(false);
    letGo();
    show("");
  } else {
    keep(true);
    apply(true).catch(none);
  }
}

export function start() {
  const control = button();
  if (!control) return;
  wanted = readBox(KEY, false) === true;
  control.setAttribute("aria-pressed", String(wanted));
  control.addEventListener("click", toggle);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") apply(false).catch(none);
  });
  apply(false).catch(none);
}
