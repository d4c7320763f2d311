// The page of a link that is wrong or no longer valid (the 404 page, which has no link of
// its own): what this phone kept of the link it asked for is deleted (forget.js), and the
// page says so.
import { forget } from "./forget.js";

const asked = location.pathname.match(/^\/([^/]+)\/?$/); // a link's own page, not a path under it

if (asked) {
  forget(`/${asked[1]}`).then(({ kept, writes }) => {
    document.getElementById("forgot").hidden = !kept;
    document.getElementById("forgot-writes").hidden = !writes;
  });
}
