// The script of the pages before they were ES modules; main.js is the entry now.
import "./main.js";
