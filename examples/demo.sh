#!/usr/bin/env bash
# A demonstration evening: the referee on the sources' examples, then a game
# kept in a throw-away database, corrected, settled, exported and re-imported.
# Run it with `make demo` (which sets up the virtual environment first).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ROMME_DB="$work/demo.sqlite3"   # never the user's real data
cp "$here/house-rules/family.toml" "$work/"  # so the output names no path of this machine
cd "$work"

if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
show() {  # the command as one would type it, quoting arguments with spaces
  local out="" arg
  for arg in "$@"; do
    case "$arg" in *" "*|"") out+=" \"$arg\"" ;; *) out+=" $arg" ;; esac
  done
  printf '%s' "${out# }"
}
step() { printf '\n%s$ %s%s\n' "$bold" "$(show "$@")" "$plain"; "$@"; echo "(exit code $?)"; }

echo "=== The referee ==="
step romme check "HK KK PK" "T9 T10 TB"
step romme check --first "P3 P4 P5" "TB PB HB"          # 004: 42 points, enough for 40
step romme check --first "TA PA J" "H3 H4 H5"            # 004: 33 + 12 = 45
step romme check --preset wiki-51 "♠3 J J ♠6"            # 000: allowed there
step romme check --rule max_adjacent_jokers=1 "♠3 J J ♠6"
step romme check "♠K ♠A ♠2"                              # 000: not around the corner
step romme check --preset classic "HD HK HA H2 H3"       # 002: D K A 2 3 is fine in classic
step romme check --notation en "KH KD KS" "10S JS QS"
step romme check --onto "♥2 ♥3 ♥4" "♥A ♥5"               # 000: lay-off at both ends
step romme check --onto "TB J TK TA" "TD"                # 000: swap the joker
step romme check --rules-file family.toml "♠K ♠A ♠2"       # examples/house-rules/family.toml
step romme check "HK HX"                                 # a typo: exit code 2
step romme value "HK K10 J"
step romme best "P3 P4 P5 TB PB HB H9 K2"             # could I have come out? what is left?
step romme best "H2 H3 H4 P2 K2 T2 PK"                # a Hand-Rommé is possible
step romme best --came-out --table "♥2 ♥3 ♥4" --table "HK KK PK" "♥A ♥5 TK P9"

echo
echo "=== A game ==="
step romme new Friday Anna Ben Carl Dora --rate 0.01 --currency EUR
step romme round --winner Anna Ben="HK K10 J" Carl="P7 P8" Dora=23
step romme round --winner Ben --hand-romme Anna="TA T2" Carl=0 Dora="J J"
step romme round --winner Carl Anna="H5 H6" Ben="PX" Dora=4   # mistyped: refused
step romme round --winner Carl Anna="H5 H6" Ben="P10" Dora=4
step romme round --winner Dora Anna=12 Ben="KA KK" Carl="T3"
step romme undo --yes
step romme edit 3 Ben="P10 P9"
step romme standings
step romme settle
step romme export -o friday.json
step romme import friday.json --name Friday-copy
step romme sessions
step romme settle A=220 B=360 C=140 D=490 --rate 0.001 --currency EUR   # 002's example
step romme settle A=220 B=360 C=140 D=490 --rate 0.001 --currency EUR --notation en
step romme chart --session Friday --width 80 --height 24         # the evening at a glance
step romme stats                                                  # every session: Friday and its copy
step romme stats --player anna --vs Dora                          # names match ignoring case
step romme report --session Friday -o friday.html                 # one page: standings, chart, who pays whom
