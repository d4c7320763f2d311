"""Views of ``romme serve``: every sentence of the phones' pages and of their JSON, in the
request's language. Pure: data in, strings and plain dicts out (the web package turns
them into responses).

The pages' fixed words (buttons, headings) go to the page as one dict
(:func:`page_texts`); what depends on the game (the heading, how far the game is from
its end, the round in progress, the settlement so far) is worded here per request and
sent with ``state.json`` under ``"view"``. An error of the service says what is wrong;
:func:`error_sentence` adds what to do about it on a page (a button, a phone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from romme_score.cards import RANKS, SUITS, Card, Profile, Suit, parse_cards
from romme_score.i18n import N_, _, decimal_text, ngettext, tenths_text
from romme_score.scoring import GameState, Hand, RoundScore
from romme_score.sessions import PendingRound, Recorded, SessionInfo, Standings
from romme_score.settlement import Settlement
from romme_score.store.records import RoundPoints, RoundRecord
from romme_score.views import marks
from romme_score.views.local import format_money
from romme_score.views.output import leaderboard_json
from romme_score.views.play import distance_line
from romme_score.views.session import CLOSED, state_line

if TYPE_CHECKING:
    from romme_score.sessions.hands import HandCount
    from romme_score.tournament.service import Drawn

# The pages' fixed words, by key (the script shows them; {name} fields are filled there).
TEXTS: dict[str, str] = {
    "board": N_("Board"),
    "scorekeeper": N_("Scorekeeper"),
    "seat": N_("Seat of {player}"),
    "standings": N_("Standings"),
    "total": N_("total"),
    "place": N_("place"),
    "leaderboard": N_("leaderboard"),
    "deals": N_("deals next"),
    "in_progress": N_("Round in progress"),
    "went_out": N_("went out"),
    "hand_romme": N_("Hand-Rommé"),
    "stalemate": N_("Stalemate"),
    "waiting": N_("waiting"),
    "points": N_("points"),
    "counted": N_("counted"),
    "my_hand": N_("My hand"),
    "hand_label": N_("Cards left in my hand, or the points counted"),
    "hand_help": N_("Tap a suit, then a rank; or type the cards ({example}), or a number of points."),
    "joker": N_("Joker"),
    "delete_last": N_("Delete the last card"),
    "clear": N_("Clear"),
    "send_hand": N_("Send my hand"),
    "i_went_out": N_("I went out"),
    "hand_in": N_("My hand is in: {points} points"),
    "hand_not_in": N_("My hand is not in yet."),
    "you_went_out": N_("You went out."),
    "hand_closed": N_(
        "You went out: no hand is sent from this phone until the scorekeeper saves the round "
        "or changes who went out."
    ),
    "reading": N_("The referee reads"),
    "last_round": N_("Last round"),
    "recent": N_("Recent rounds"),
    "round": N_("round"),
    "chart": N_("The course of the game"),
    "settlement": N_("Settlement so far"),
    "referee": N_("Referee"),
    "referee_label": N_("Melds (one per line) or a hand"),
    "check": N_("Check melds"),
    "value": N_("Value of the hand"),
    "best": N_("Best arrangement"),
    "save": N_("Save the round"),
    "discard": N_("Discard the round"),
    "undo": N_("Undo the last round"),
    "undo_confirm": N_("Tap again to undo round {number}"),
    "set_hand": N_("Set"),
    "hand_of": N_("Hand of {player}"),
    "saved": N_("Round {number} saved."),
    "undone": N_("Round {number} undone."),
    "discarded": N_("The round in progress was discarded."),
    "links": N_("Links for the phones"),
    "join": N_("Join from another phone"),
    "board_link": N_("Board (read only)"),
    "offline": N_("The server cannot be reached. Trying again…"),
    "confirm_yes": N_("Yes, send it"),
    "confirm_no": N_("No, correct it"),
    "sending": N_("Sending…"),
    "queued": N_("Not sent yet: it will be sent as soon as the server is back."),
    "arrived": N_("Arrived."),
    "hand_arrived": N_("Arrived: my hand, {points} points."),
    "out_arrived": N_("Arrived: you went out."),
    "server_error": N_("The server could not do that; please try again."),
    "link_gone": N_("This link is wrong or no longer valid: scan the QR code on the board again."),
    # under a write waiting in the phone when the server said its link is no longer valid
    "not_sent": N_(
        "Not sent: this link is no longer valid, and this phone has deleted what was waiting on it."
    ),
    "stale": N_("The server is not answering: this is the state of {time}."),
    "awake": N_("Keep screen on"),
    "awake_on": N_("The screen stays on while this page is open."),
    "awake_tap": N_("Tap the page once to keep the screen on."),
    "awake_failed": N_(
        "This phone does not let the page keep its screen on: choose a longer screen timeout in its settings."
    ),
}


AWAKE = ("awake", "awake_on", "awake_tap", "awake_failed")  # "Keep screen on" (static/awake.js)


def awake_texts() -> dict[str, str]:
    """The words of "Keep screen on" on a page of its own (a tournament's and a league's
    board, issue 36 item 6), the same as on a session's pages."""
    return {key: _(TEXTS[key]) for key in AWAKE}


EXAMPLES = {"de": "HK K10 J", "en": "KH 10D JK"}  # the same hand in each notation


def page_texts(notation: Profile = "de") -> dict[str, str]:
    """The fixed words of the pages in the language in use (the examples in ``notation``)."""
    texts = {key: _(text) for key, text in TEXTS.items()}
    texts["marks"] = marks.legend()  # the one legend of every scoresheet
    texts["hand_help"] = texts["hand_help"].format(example=EXAMPLES[notation])
    return texts


def page_title(kind: str, session: str, player: str | None) -> str:
    """The title of a page: ``Friday · Board``, ``Friday · Seat of Anna``."""
    what = _(TEXTS["seat"]).format(player=player) if kind == "seat" else _(TEXTS[kind])
    return f"{session} · {what}"


LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}


# --- state.json ----------------------------------------------------------------------


def cards_shown(cards: Sequence[Card], profile: Profile) -> list[str]:
    return [c.format(profile) for c in cards]


def hand_json(hand: Hand, count: HandCount, profile: Profile) -> dict[str, Any]:
    """One hand as the pages and ``POST {seat}/hand`` show it: its points (before any
    doubling, ``count``: as the service counted it) and its cards as the referee reads them
    (none for points counted by hand)."""
    return {
        "points": count.points,
        "cards": cards_shown(hand.cards, profile) if hand.cards is not None else [],
        "counted": hand.points if hand.cards is None else None,
    }


def reading_json(hand: Hand, count: HandCount, profile: Profile) -> dict[str, Any]:
    """A hand as typed, read card by card (the seat's live reading): the hand's JSON plus
    each card's penalty value (``count``: as the service counted it)."""
    return {
        "points": count.points,
        "cards": cards_shown(hand.cards, profile) if hand.cards is not None else [],
        "counted": hand.points if hand.cards is None else None,
        "values": list(count.values),
    }


def provisional_json(score: RoundScore | None, missing: Sequence[str]) -> dict[str, Any] | None:
    """The round in progress as it would be saved now (``"provisional": true``): each
    player's points with the doubling applied (None for a hand still missing), the
    factor, and the winner's bonus."""
    if score is None:
        return None
    return {
        "provisional": True,
        "points": {p: (None if p in missing else v) for p, v in score.points.items()},
        "multiplier": dict(score.multiplier),
        "bonus": {p: b for p, b in score.bonus.items() if b},
    }


def pending_json(
    info: SessionInfo,
    pending: PendingRound,
    missing: Sequence[str],
    profile: Profile,
    provisional: RoundScore | None,
    counts: Mapping[str, HandCount],
    closed: Sequence[str] = (),
) -> dict[str, Any]:
    """``"pending"`` of ``state.json``: every player in ``hands``, None until their hand is
    in, ``"score"``, the round as it would be saved now (:func:`provisional_json`), and
    ``"closed"``, the players whose own phone may send no hand now (as the service says:
    who went out, until the scorekeeper saves the round or changes who went out)."""
    hands: dict[str, Any] = {}
    for player in info.players:
        stored = pending.hands.get(player)
        hands[player] = hand_json(stored.to_hand(), counts[player], profile) if stored is not None else None
    return {
        "score": provisional_json(provisional, missing),
        "winner": pending.winner,
        "hand_romme": pending.hand_romme,
        "stalemate": pending.stalemate,
        "hands": hands,
        "missing": [p for p in info.players if p in missing],  # in seat order, as the hands
        "complete": (pending.winner is not None or pending.stalemate) and not missing,
        "revision": pending.revision,
        "closed": list(closed),
    }


def last_round_json(record: RoundRecord | None, info: SessionInfo, profile: Profile) -> dict[str, Any] | None:
    """The last round's hands, with their cards (the board shows them)."""
    if record is None:
        return None
    hands = {}
    for player in info.players:
        rec = record.hands.get(player)
        if rec is None:
            continue
        cards = cards_shown(parse_cards(rec.cards), profile) if rec.cards is not None else []
        hands[player] = {
            "points": rec.points,
            "bonus": rec.bonus,
            "cards": cards,
            "counted": rec.typed_points,
        }
    return {
        "number": record.number,
        "winner": record.winner,
        "hand_romme": record.hand_romme,
        "stalemate": record.stalemate,
        "hands": hands,
    }


def settlement_json(
    result: Settlement, currency: str | None, profile: str, leaderboard: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """The settlement of the session so far: amounts and transfers, worded with the money,
    and each player's 003 leaderboard points where the rules keep them."""

    def money(amount: Any) -> str:
        return format_money(amount, currency, profile, result.unit)

    players: list[dict[str, Any]] = [
        {"name": p.name, "net": p.net, "amount": str(p.amount), "money": money(p.amount)}
        for p in result.players
    ]
    if leaderboard is not None:
        for player in players:
            player["leaderboard"] = leaderboard_json(leaderboard.get(player["name"]))
    return {
        "rate": str(result.rate) if result.rate is not None else None,
        "unit": str(result.unit),
        "currency": currency,
        "players": players,
        "transfers": [
            {
                "from": t.payer,
                "to": t.payee,
                "amount": str(t.amount),
                "text": _("%(payer)s pays %(payee)s %(amount)s")
                % {"payer": t.payer, "payee": t.payee, "amount": money(t.amount)},
            }
            for t in result.transfers
        ],
        "line": (
            _("Settlement at %(rate)s per point") % {"rate": decimal_text(result.rate)}
            + (f" ({currency})" if currency else "")
            if result.rate is not None
            else ""
        ),
        "nobody": _("Nobody owes anybody anything.") if not result.transfers else "",
    }


def tournament_money_json(tournament: str) -> dict[str, Any]:
    """In place of a settlement at a tournament's table: its games carry no money."""
    return {
        "rate": None,
        "unit": None,
        "currency": None,
        "players": [],
        "transfers": [],
        "line": _("No money at this table: the money of tournament '%(tournament)s' is its pot.")
        % {"tournament": tournament},
        "nobody": _("'romme tournament payout' shows what each player paid in and receives."),
        "tournament": tournament,
    }


def heading(s: Standings, games: bool = False) -> str:
    """``Friday · round 5`` (the round being played), or the game's end; at a tournament's
    table (``games``) each round is a game of the series: ``Cup S1 T1 · game 2``."""
    if s.state.finished:
        return _("%(session)s · game over") % {"session": s.session}
    number = {"session": s.session, "number": s.rounds_played + 1}
    return (_("%(session)s · game %(number)d") if games else _("%(session)s · round %(number)d")) % number


def table_distance_line(s: Standings) -> str:
    """How far a tournament table is from the end of its series: the games left, as the
    command line and the sheets count them (issue 38 item 7: not "rounds")."""
    end = s.rules.game_end
    if s.state.finished or s.to_go is None or end.kind != "rounds":
        return distance_line(s)
    return ngettext("%(count)d game left of %(limit)d", "%(count)d games left of %(limit)d", s.to_go) % {
        "count": s.to_go,
        "limit": end.limit,
    }


def pending_line(info: SessionInfo, pending: PendingRound, missing: Sequence[str]) -> str:
    """The round in progress in one sentence: who went out, which hands are still awaited."""
    if pending.stalemate:
        first = _("Stalemate: the stock ran out.")
    elif pending.winner is not None:
        first = (
            _("%(player)s went out with a Hand-Rommé.") if pending.hand_romme else _("%(player)s went out.")
        ) % {"player": pending.winner}
    else:
        first = _("Nobody has gone out yet.")
    if not missing:
        if pending.winner is None and not pending.stalemate:
            return first
        return first + " " + _("All hands are in: the round can be saved.")
    return (
        first
        + " "
        + ngettext(
            "Waiting for the hand of %(players)s.", "Waiting for the hands of %(players)s.", len(missing)
        )
        % {"players": ", ".join(missing)}
    )


def last_round_line(record: RoundRecord | None, games: bool = False) -> str:
    if record is None:
        return _("No games played yet.") if games else _("No rounds played yet.")
    if games:  # a tournament's table: its rounds are the games of the series
        if record.stalemate:
            return _("Game %(number)d: a stalemate") % {"number": record.number}
        if record.hand_romme:
            return _("Game %(number)d: %(player)s went out with a Hand-Rommé") % {
                "number": record.number,
                "player": record.winner,
            }
        return _("Game %(number)d: %(player)s went out") % {"number": record.number, "player": record.winner}
    if record.stalemate:
        return _("Round %(number)d: a stalemate") % {"number": record.number}
    if record.hand_romme:
        return _("Round %(number)d: %(player)s went out with a Hand-Rommé") % {
            "number": record.number,
            "player": record.winner,
        }
    return _("Round %(number)d: %(player)s went out") % {"number": record.number, "player": record.winner}


def view_json(
    s: Standings,
    info: SessionInfo,
    pending: PendingRound,
    missing: Sequence[str],
    last: RoundRecord | None,
    games: bool = False,
) -> dict[str, str]:
    """The sentences of ``state.json`` (``"view"``), in the request's language; ``games``
    at a tournament's table, whose rounds are the games of its series."""
    return {
        "heading": heading(s, games),
        "distance": table_distance_line(s) if games else distance_line(s),
        "state": state_line(s.state, s.totals, s.next_dealer),
        "pending": _("The game is over: no more rounds.")
        if s.state.finished
        else pending_line(info, pending, missing),
        "last_round": last_round_line(last, games),
    }


def saved_json(recorded: Recorded, round_json: dict[str, Any]) -> dict[str, Any]:
    """``POST {scorekeeper}/save``: the round as ``romme round --json`` prints it, and a sentence."""
    return {**round_json, "message": _(TEXTS["saved"]).format(number=recorded.number)}


# --- what a page shows, ready to show (state.json's "shown", the picker, a reading) ----

RECENT = 8  # the rounds of the page's table of recent rounds
RED = (Suit.HEARTS, Suit.DIAMONDS)


def _hand_text(hand: Mapping[str, Any]) -> str:
    """``40 · ♥K ♦10 J``, or ``7 counted``."""
    if hand["cards"]:
        return f"{hand['points']} · {' '.join(hand['cards'])}"
    return f"{hand['points']} {_(TEXTS['counted'])}"


def _went_out(hand_romme: bool) -> str:
    return _(TEXTS["went_out"]) + (" · " + _(TEXTS["hand_romme"]) if hand_romme else "")


def round_mark(row: RoundPoints, player: str) -> str:
    """A player's cell of the recent rounds: the points, or ``0 *H-20`` for who went out
    (``*`` went out, ``H`` Hand-Rommé, ``-N`` a bonus struck), as ``romme play`` marks it."""
    if row.winner == player:
        return marks.winner_cell(row.hand_romme, row.bonus.get(player, 0))
    return str(row.points[player]) if player in row.points else ""


def recent_json(rows: Sequence[RoundPoints], players: Sequence[str]) -> list[dict[str, Any]]:
    """The recent rounds as the page's table shows them (``3 s`` for a stalemate)."""
    return [
        {
            "number": f"{row.number}{' ' + marks.STALEMATE if row.stalemate else ''}",
            "winner": row.winner,
            "marks": {p: round_mark(row, p) for p in players},
        }
        for row in rows
    ]


def pending_shown(pending: Mapping[str, Any], players: Sequence[str]) -> dict[str, dict[str, str]]:
    """Each player's part of the round in progress (``pending_json``'s dict): a text and
    its state, ``out`` (whoever the server holds as gone out), ``in``, ``waiting`` or ``none``;
    the doubling and the winner's bonus as they will be saved (``"score"``)."""
    shown = {}
    score = pending.get("score") or {"points": {}, "multiplier": {}, "bonus": {}}
    for player in players:
        hand = pending["hands"].get(player)
        if pending["winner"] == player:
            text = _went_out(pending["hand_romme"])
            if score["bonus"].get(player):  # as it will be saved: the winner's bonus struck off
                text += " · " + _("−%(bonus)d bonus") % {"bonus": score["bonus"][player]}
                text += " · " + _("not saved yet")
            shown[player] = {"text": text, "state": "out"}
        elif hand:
            text = _hand_text(hand)
            factor, points = score["multiplier"].get(player, 1), score["points"].get(player)
            if factor > 1 and points is not None:  # doubled as it will be saved (Hand-Rommé, joker)
                text += f" ×{factor} = {points} · " + _("not saved yet")
            shown[player] = {"text": text, "state": "in"}
        elif player in pending["missing"]:
            shown[player] = {"text": _(TEXTS["waiting"]), "state": "waiting"}
        else:
            shown[player] = {"text": "–", "state": "none"}
    return shown


def game_over_line(state: GameState) -> str:
    """What a finished game means for a phone: who won, or who share first place; or
    that a later series closed the table."""
    if state.closed:
        return _(CLOSED)
    if state.winner is not None:
        return _("The game is over: %(player)s wins.") % {"player": state.winner}
    return _("The game is over: %(players)s share first place.") % {"players": ", ".join(state.tied)}


def mine_line(pending: Mapping[str, Any], me: str, state: GameState) -> str:
    """A seat's own line: gone out, its hand in, not yet (and who went out); or the game
    is over, and who won."""
    hand = pending["hands"].get(me)
    if state.finished:
        return game_over_line(state)
    if pending["winner"] == me:
        return _(TEXTS["you_went_out"]) + (f" ({_(TEXTS['hand_romme'])})" if pending["hand_romme"] else "")
    if hand:
        line = _(TEXTS["hand_in"]).format(points=hand["points"])
        return line + (" · " + " ".join(hand["cards"]) if hand["cards"] else "")
    if pending["winner"] is not None:
        return _("%(player)s went out: your cards left, please.") % {"player": pending["winner"]}
    return _(TEXTS["hand_not_in"])


def last_shown(last: Mapping[str, Any] | None) -> dict[str, str]:
    """What the last round's list says beside each player (``last_round_json``'s dict)."""
    if last is None:
        return {}
    shown = {}
    for player, hand in last["hands"].items():
        if last["winner"] == player:
            shown[player] = _went_out(last["hand_romme"]) + (f" · −{hand['bonus']}" if hand["bonus"] else "")
        elif hand["cards"]:
            shown[player] = " ".join(hand["cards"])
        elif hand["counted"] is not None:
            shown[player] = f"{hand['counted']} {_(TEXTS['counted'])}"
        else:
            shown[player] = ""
    return shown


def shown_json(
    s: Standings, data: Mapping[str, Any], recent: Iterable[RoundPoints], me: str | None
) -> dict[str, Any]:
    """``"shown"`` of ``state.json``: every text of the page that counts, marks or words
    numbers, ready to show (the script does no game's arithmetic): the leaderboard's
    tenths with the language's decimal comma, the recent rounds' marks, each player's
    part of the round in progress and of the last round, a seat's own line."""
    players = s.players
    board = s.leaderboard
    return {
        "leaderboard": {p: tenths_text(board[p]) for p in players} if board is not None else None,
        "recent": recent_json(list(recent), players),
        "pending": pending_shown(data["pending"], players),
        "mine": mine_line(data["pending"], me, s.state) if me is not None else None,
        "last_round": last_shown(data["last_round"]),
        "finished": s.state.finished,
    }


def reading_shown(reading: Mapping[str, Any], hand: Hand) -> dict[str, Any]:
    """A hand being typed (``reading_json``'s dict), ready to show: which cards are red,
    and the referee's line ``♥K 10 · ♦10 10 · J 20 = 40 points``."""
    cards = hand.cards or ()
    parts = [f"{shown} {value}" for shown, value in zip(reading["cards"], reading["values"], strict=True)]
    total = f"= {reading['points']} {_(TEXTS['points'])}"
    return {
        "red": [c.suit in RED for c in cards],
        "text": (" · ".join(parts) + " " if parts else "") + total,
        "sum": total,
    }


def picker_cards(
    profile: Profile,
) -> tuple[list[tuple[str, str, bool]], list[tuple[str, dict[str, str]]], str]:
    """The seat's card picker in ``profile``'s notation: the suits (letter, symbol, red),
    the ranks (letter, the card typed for each suit's letter) and the joker as typed.

    >>> suits, ranks, joker = picker_cards("de")
    >>> suits[2], ranks[-1], joker
    (('H', '♥', True), ('K', {'T': 'TK', 'P': 'PK', 'H': 'HK', 'K': 'KK'}), 'J')
    >>> picker_cards("en")[1][0][1]["H"], picker_cards("en")[2]
    ('AH', 'JK')
    """

    def letter(suit: Suit) -> str:
        return suit.german if profile == "de" else suit.value

    suits = [(letter(suit), suit.symbol, suit in RED) for suit in SUITS]
    ranks = [
        (rank.letter(profile), {letter(suit): Card(rank, suit).format(profile, ascii=True) for suit in SUITS})
        for rank in RANKS
    ]
    return suits, ranks, Card.joker().format(profile, ascii=True)


# --- errors on a page -----------------------------------------------------------------


# What to do about a refusal on the pages, by the error's code (a function where it
# depends on the facts).
WAYS_OUT: dict[str, str | Callable[[BaseException], str]] = {
    "missing-hands": N_("wait for their phones, or enter the hands here"),
    "no-winner": N_("tap 'went out' beside the winner, or 'Stalemate'"),
    "changed": N_("look at the round again and save it once more"),
    "game-over": lambda exc: (
        _("it takes no more games; the ranking is on the tournament's board")
        if getattr(exc, "series_drawn", None) is not None
        else _("this table has played its games; the ranking is on the tournament's board")
        if getattr(exc, "tournament", None)
        else _("it was ended by agreement: 'romme end --reopen' takes that back")
        if getattr(exc, "ended", False)
        else _("start a new session to play on")
    ),
}


def error_sentence(exc: BaseException, code: str) -> str:
    """The error's sentence, with what to do about it on the pages."""
    way = WAYS_OUT.get(code)
    if way is None:
        return str(exc)
    return f"{exc}: {way(exc) if callable(way) else _(way)}"


def error_facts(exc: BaseException, code: str) -> dict[str, Any]:
    """What a page shows of an error besides its sentence: the question to ask before
    sending unlikely points again with ``"confirm": true``."""
    if code == "unlikely_points":
        return {"question": _("Really %(points)d points?") % {"points": getattr(exc, "points", 0)}}
    return {}


def refused(code: str) -> str:
    """The sentences of the web's own refusals (the request, not the game)."""
    sentences = {
        "forbidden": N_("this link may not do that"),
        "cross-site": N_("refused: the request came from another web page"),
        "not-json": N_("refused: the body must be JSON (Content-Type: application/json)"),
        "too-large": N_("refused: the body is larger than %(limit)d bytes"),
        "bad-request": N_("refused: the body is not the JSON this expects"),
        "too-many-streams": N_("too many pages are open at once; close one and try again"),
        "too-many-connections": N_(
            "the server has too many connections open just now; try again in a few seconds"
        ),
        "busy": N_("the database is busy; try again"),
        "unreachable": N_("the database cannot be reached just now; try again in a few seconds"),
        "database-gone": N_(
            "the database file was deleted or replaced while the server ran, so nothing was "
            "written; start romme serve again"
        ),
        "body-timeout": N_("refused: the body did not arrive in time"),
        "bad-host": N_(
            "this server does not answer to that address; open the link it printed "
            "(behind a proxy: romme serve --allow-host NAME)"
        ),
        "bad-key": N_("refused: the Idempotency-Key header must be up to 100 letters, digits and -_.:"),
    }
    return _(sentences[code])


def bad_field(field: str, expected: str) -> str:
    """A field of a request's JSON that is not what it should be."""
    return _("'%(field)s' must be %(expected)s") % {"field": field, "expected": expected}


def json_field(field: str) -> str:
    """A text field of a request's JSON, as a sentence names it (``'cards'``)."""
    return f"'{field}'"


def json_key(field: str) -> str:
    """A key of an object of a request's JSON (of the body itself: ``field`` empty)."""
    if not field:
        return _("a key of the JSON body")
    return _("a key in '%(field)s'") % {"field": field}


EXPECTED = {
    "text": N_("a text"),
    "bool": N_("true or false"),
    "hand": N_("a text of cards or a number of points"),
    "player": N_("a player's name or null"),
    "object": N_("an object"),
    "players": N_("a list of players' names"),
    "count": N_("a whole number, 0 or more (with rounds=all)"),
    "rounds": N_("'all' or 'recent'"),
    "text-or-number": N_("a text or a number"),
}


def expected(kind: str) -> str:
    return _(EXPECTED[kind])


# --- the terminal ----------------------------------------------------------------------


def serving_lines(session: str, host: str, port: int) -> str:
    return _("Serving '%(session)s' on %(host)s port %(port)d; Ctrl-C stops.") % {
        "session": session,
        "host": host,
        "port": port,
    }


ORGANIZER_TEXTS: dict[str, str] = {
    "games": N_("Games"),
    "tournaments": N_("Tournaments"),
    "leagues": N_("Leagues"),
    "board": N_("Board"),
    "scorekeeper": N_("Scorekeeper"),
    "seats": N_("Seats' codes"),
    "finished": N_("finished"),
    "playing": N_("playing"),
    "table": N_("Series {series}, table {table}"),
    "series": N_("Series drawn: {drawn}, finished: {finished}"),
    "draw": N_("Draw the next series"),
    "drawn": N_("Series {series} drawn."),
    # a draw refused while a table still plays: the server's sentence, then these buttons
    "force": N_("Draw although tables of the series before still have games to play."),
    "cancel": N_("Cancel"),
    "none": N_("Nothing yet tonight: start a game with romme new or romme tournament draw."),
    "offline": N_("The server cannot be reached. Trying again…"),
    "link_gone": N_("This link is wrong or no longer valid: scan the QR code on the board again."),
    "server_error": N_("The server could not do that; please try again."),
    "stale": N_("The server is not answering: this is the state of {time}."),
}


def drawn_json(drawn: Drawn) -> dict[str, Any]:
    """What the organiser's draw adds to the tournament's entry: the tables of earlier
    series a forced draw went past (``missing``, as ``romme tournament draw --json`` lists
    them; empty for a complete series) and the command line's sentence about them
    (``message``, null for none)."""
    from romme_score.views import tournament

    return {"missing": tournament.drawn_json(drawn)["missing"], "message": tournament.forced_note(drawn)}


def organizer_texts() -> dict[str, str]:
    """The sentences of the organiser's page (``romme serve --all``)."""
    return {key: _(text) for key, text in ORGANIZER_TEXTS.items()}


def organizer_title() -> str:
    return _("Tonight")


def organizer_heading() -> str:
    """``romme serve --all``: what the printed organiser's link is for."""
    return _("Organiser: tonight's games, tournaments and leagues with their codes")


def serving_all(host: str, port: int) -> str:
    """``romme serve --all``'s line on standard error."""
    return _(
        "Serving every game, tournament and league on %(host)s port %(port)d, "
        "and each new one as it comes; Ctrl-C stops."
    ) % {"host": host, "port": port}


def night_game_line(session: str, url: str) -> str:
    """``romme serve --all``: one line per game of tonight, its scorekeeper's link."""
    return _("%(session)s, scorekeeper: %(url)s") % {"session": session, "url": url}


def night_board_line(name: str, url: str) -> str:
    """``romme serve --all``: one line per tournament and league, its board's link."""
    return _("%(name)s, board: %(url)s") % {"name": name, "url": url}


def link_heading(kind: str, player: str | None) -> str:
    """What a printed link is for."""
    if kind == "board":
        return _("Board (read only): the standings, for everyone")
    if kind == "scorekeeper":
        return _("Scorekeeper: the round in progress, save, undo")
    return _("Seat of %(player)s: the board and this player's hand") % {"player": player}


def security_note() -> str:
    return _(
        "Plain HTTP on the local network: anyone who sees a link can use it "
        "(--new-links makes new ones; --host 127.0.0.1 keeps it to this machine)."
    )


def stopped() -> str:
    return _("Stopped.")


# --- the pages of no link: a wrong link, a database away ----------------------------


def missing_texts() -> dict[str, str]:
    """The 404 page's words: the same for a wrong token and for any path that is not there."""
    return {
        "title": _("Link not found"),
        "text": _("This link is wrong or no longer valid."),
        "hint": _("Scan the QR code on the board again, or ask the scorekeeper for the link."),
        # shown by the page's script where the phone kept something of the link asked for
        "forgot": _("This phone has deleted its copy of this link's page and the last state it showed."),
        "forgot_writes": _(
            "It has also deleted what was not sent yet on this link: the link takes nothing any more."
        ),
    }


def unavailable_texts() -> dict[str, str]:
    """The words of a page asked while its database cannot be used (503)."""
    return {
        "title": _("Not available just now"),
        "hint": _("This page tries again by itself in a few seconds."),
    }
