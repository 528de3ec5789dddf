"""Words for players: counted nouns ("1 die", "2 dice", "0 clues"), for every game and the bot alike.

A count is never written with a bracketed plural: the number decides the form. Mass nouns (damage, horror, doom …) keep
one form, so "3 damage" reads right.
"""

from __future__ import annotations

#: plurals that do not add "s" or "es", and nouns that keep one form (lowercase keys)
IRREGULAR = {
    "die": "dice", "focus": "focus", "damage": "damage", "horror": "horror", "doom": "doom", "health": "health",
    "sanity": "sanity", "stamina": "stamina", "money": "money", "experience": "experience", "trauma": "trauma",
    "xp": "XP", "terror": "terror",
}
#: the singular of a plural-only spelling a caller may pass ("dice")
SINGULAR = {"dice": "die", "Dice": "Die"}


def plural_of(noun: str) -> str:
    """The plural of a noun or of a phrase's last word ("spread doom token" -> "spread doom tokens")."""
    head, sep, word = noun.rpartition(" ")
    return f"{head}{sep}{_plural_word(word)}"


def _plural_word(word: str) -> str:
    lower = word.lower()
    if lower in IRREGULAR:
        many = IRREGULAR[lower]
        return many[:1].upper() + many[1:] if word[:1].isupper() else many
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return word[:-1] + "ies"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def singular_of(noun: str) -> str:
    head, sep, word = noun.rpartition(" ")
    return f"{head}{sep}{SINGULAR.get(word, word)}"


def noun(n: int, word: str, many: str | None = None) -> str:
    """The form of `word` that goes with `n`, without the number: "clue" for 1, "clues" for 0 or 2."""
    if n == 1 or n == -1:
        return singular_of(word)
    return many or plural_of(singular_of(word))


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and its noun: "1 clue", "0 clues", "2 dice", "1 die", "3 damage"; `many` overrides the plural."""
    return f"{n} {noun(n, word, many)}"


def listed(items: list[str], empty: str = "nothing") -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"; `empty` for none."""
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def counted(labels: list[str]) -> list[str]:
    """Labels of single things gathered by count, in first-seen order: ["1 Clue", "1 Clue", "Lantern"] ->
    ["2 Clues", "Lantern"]; a named thing held twice reads "2× Lantern"."""
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    out = []
    for label, n in counts.items():
        if n == 1:
            out.append(label)
        elif label.startswith("1 "):
            out.append(plural(n, label[2:]))
        else:
            out.append(f"{n}× {label}")
    return out


def table_notes(game_id: str) -> str:
    """The one line said at setup about what this edition leaves out: the notes themselves are in the game's
    `/help` (its howto's "This edition" section), not in the channel."""
    return f"What this edition leaves out, and where this table differs from the box: `/help game:{game_id}`."


def played_by(investigator: str, player: str) -> str:
    """"Ada Whitlock (bob)": an investigator with the player who plays them. A seat named after its
    investigator (an AI teammate's, "🤖 Ada Whitlock") keeps only what it adds: "Ada Whitlock (🤖)"."""
    if player.endswith(investigator) and player != investigator:
        return f"{investigator} ({player[: -len(investigator)].strip()})"
    return f"{investigator} ({player})"


def chance_words(p: float) -> str:
    """A chance as players read it: whole percents, never a false 0% or 100% ("under 1%", "over 99%")."""
    if 0.0 < p < 0.005:
        return "under 1%"
    if 0.995 <= p < 1.0:
        return "over 99%"
    return f"{p:.0%}"
