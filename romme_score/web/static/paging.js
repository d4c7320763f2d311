// The pages of the tournament board's boxes on a projector (tournament.js), where nobody
// can scroll: the ranking, the tables' lines and the team ranking each show what fits
// whole, as the screen draws it, and turn their pages every 10 s with one clock, each box
// saying which page it shows ("Page 1 of 3", the server's sentence).
import { fill, T } from "./render.js";

const PAGE_MS = 10_000;
let page = 0; // the one clock: a box of N pages shows its page `page % N`
let turning = null;
let draw = null; // what a turn draws again: the whole board (tournament.js)

/** The page that a box of `count` pages shows now (from 0). */
export function pageOf(count) {
  return page % count;
}

function turnPage() {
  page += 1;
  if (draw) draw();
}

/** The clock runs while a box has more than one page; at each turn `redraw` draws them. */
export function keepTurning(count, redraw) {
  draw = redraw;
  if (count > 1 && turning === null) {
    turning = setInterval(turnPage, PAGE_MS);
  } else if (count <= 1 && turning !== null) {
    clearInterval(turning);
    turning = null;
  }
}

/** "Page 2 of 3" under a box that has pages, nothing under one that has not. */
export function sayPage(label, at, count) {
  label.hidden = count <= 1;
  label.textContent = count > 1 ? fill(T.page, { page: at + 1, pages: count }) : "";
}

/** Where each page of `items` starts: from there, as many as `holder` shows whole in its
 *  height (under a table's head, which stays), as the screen draws them. */
function pageStarts(holder, items) {
  const first = items[0].getBoundingClientRect().top;
  const room = holder.getBoundingClientRect().top + holder.clientTop + holder.clientHeight - first;
  const starts = [0];
  let top = first;
  items.forEach((item, i) => {
    const r = item.getBoundingClientRect();
    if (i > starts[starts.length - 1] && r.bottom - top > room + 0.5) {
      starts.push(i);
      top = r.top;
    }
  });
  return starts;
}

/**
 * A box beside the ranking (the tables' lines, the team ranking) as the ranking does it:
 * `items` go into `body` (in `holder`, the part of the box that its card leaves them) and,
 * on a `screen`, where they do not all fit whole, pages of as many as fit turn with the
 * clock, `label` saying which; elsewhere every item. The number of pages.
 */
export function fitPages(holder, body, items, label, screen) {
  holder.style.height = "";
  sayPage(label, 0, 1);
  body.replaceChildren(...items);
  if (!screen || items.length === 0) return 1;
  let starts = pageStarts(holder, items);
  if (starts.length > 1) {
    sayPage(label, 0, starts.length); // its line comes out of the box's height: measure again
    starts = pageStarts(holder, items);
    // and the box keeps that height on every page (a shorter page would give the boxes
    // below it room, and their pages would move at each turn)
    holder.style.height = `${holder.clientHeight}px`;
  }
  const count = starts.length;
  const at = pageOf(count);
  body.replaceChildren(...items.slice(starts[at], starts[at + 1] ?? items.length));
  sayPage(label, at, count);
  return count;
}
