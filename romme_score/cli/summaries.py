# ruff: noqa: E501
"""The first paragraph of each command's help, in each language, as ``romme --help``
lists the commands (Click shortens it to the line) without importing their modules.
Written by tools/summaries.py (run by tools/messages.py); do not edit by hand."""


SUMMARIES: dict[str, dict[str, str]] = {
    'de': {
        'best': 'Die beste Aufteilung einer Hand: reicht sie zum Rauskommen, wie viel kann sie höchstens auslegen, was bliebe übrig, kann sie jetzt ausmachen.',
        'chart': 'Die Zwischenstände aller Spieler Runde für Runde als Diagramm.',
        'check': 'Sagt, ob Auslagen (Satz, Folge) gültig sind, warum nicht, und was sie wert sind.',
        'edit': 'Eine angeschriebene Runde berichtigen; jeder spätere Stand wird neu berechnet.',
        'export': "Eine Partie exportieren: JSON (vollständig, für 'romme import') oder CSV (ein Spielzettel).",
        'import': 'Eine als JSON exportierte Partie importieren; prüft alles, bevor etwas geschrieben wird.',
        'new': 'Eine Partie beginnen und zur aktuellen machen.',
        'note': 'Eine Notiz in den Verlauf der Partie schreiben (standings zeigt sie, export behält sie).',
        'play': 'Der Tischmodus: der Spielstand immer im Blick, eine Runde mit wenigen Tastendrücken, dazu undo, edit, check, best, value, settle, standings und export im selben Fenster.',
        'report': 'Den Abend als eine HTML-Seite schreiben: Spielstände, ein Diagramm je Partie, Hand-Rommés und Boni sowie die Abrechnung: wer wem was zahlt.',
        'round': 'Eine Runde anschreiben: die Restkarten jedes Spielers in Kartenschreibweise.',
        'rules': 'Die Hausregeln einer Vorlage zeigen, je eine Zeile Erklärung, und die Optionen eines Turniers (romme tournament new) mit ihren Vorgaben.',
        'serve': 'Eine Partie (ohne Angabe die aktuelle) auf die Handys am Tisch bringen.',
        'sessions': 'Die Partien auflisten: Spieler, Runden, Datum, beendet; eine umbenennen oder löschen.',
        'settle': 'Die Abrechnung des Abends: wer zahlt wem wie viel (wie im klassischen Regelblatt).',
        'standings': 'Der Spielzettel: Punkte je Runde und Spieler, Summen, wer als Nächstes gibt.',
        'stats': 'Statistik je Spieler über alle Partien: gewonnene Partien und Runden, Hand-Rommés, mittlere und höchste Minuspunkte, Geld.',
        'tournament': 'Ein Turnier oder Clubabend an mehreren Tischen: Auslosung, Serien, Rangliste, Spielzettel und Preisgeld (RULES.md §10).',
        'undo': 'Die letzte Runde entfernen (bleibt im Verlauf).',
        'use': 'Eine Partie zur aktuellen machen.',
        'value': 'Minuspunkte der Karten, die auf der Hand bleiben, aufgeschlüsselt.',
    },
    'en': {
        'best': 'The best arrangement of a hand: could it come out, what is the most it can lay down, what would be left, can it go out now.',
        'chart': 'Draw the running totals of every player by round.',
        'check': 'Say whether melds are legal, why not, and what they are worth.',
        'edit': 'Correct a recorded round; every later total is recomputed.',
        'export': "Export a session: JSON (complete, for 'romme import') or CSV (a scoresheet).",
        'import': 'Import a session exported as JSON; checks everything before writing anything.',
        'new': 'Start a session (a game) and make it current.',
        'note': "Write a note into the session's history (shown by standings and kept by export).",
        'play': 'The table mode: standings always in view, a round in a few keystrokes, and undo, edit, check, best, value, settle, standings and export in the same window.',
        'report': 'Write the evening as one HTML page: standings, a chart of each game, Hand-Rommés and bonuses, and the settlement with who pays whom.',
        'round': 'Record one round: the cards each player had left, in card notation.',
        'rules': 'Show the house rules of a preset, one line of explanation each, and the options of a tournament (romme tournament new) with their defaults.',
        'serve': 'Serve a session (default: the current one) to the phones at the table.',
        'sessions': 'List the sessions: players, rounds, date, finished; rename or delete one.',
        'settle': 'Settle the evening: who pays whom how much (as in the classic rule sheet).',
        'standings': 'The scoresheet: points per round and player, totals, who deals next.',
        'stats': 'Statistics per player across all sessions: games and rounds won, Hand-Rommés, average and worst penalty, money.',
        'tournament': 'A tournament or club evening over several tables: the draw, series, ranking, sheets and prize money (RULES.md §10).',
        'undo': 'Remove the last round (kept in the history).',
        'use': 'Make a session the current one.',
        'value': 'Penalty points of the cards left in a hand, with a breakdown.',
    },
}
