"""A result to share without spoiling it: the text (day or room, place, time, runs, score,
a strip of squares for the runs held over time, the replay link) and the same as an SVG
image, with the Open Graph tags that make chat apps show it (docs/http-api.md, "Share").

Everything here is a function of numbers the leaderboard or the live room already shows
(place, time, runs, score, and how many runs the player held along the way): no card, no
deal number, no move. Names are text: escaped wherever they go into markup.

>>> card = ShareCard("Daily 2026-12-01", "Ada <3", 2, 9, "won", 250.4, 4, 512,
...                  strip([(40.0, 1, 5), (90.0, 2, 9), (200.0, 3, 12), (250.4, 4, 20)], 250.4),
...                  "http://127.0.0.1:8000/replay/daily/2026-12-01/p_ada")
>>> print(share_text(card))
Scorpion Race · Daily 2026-12-01
2nd of 9 · won in 4:10
4/4 runs · score 512
⬜🟨🟨🟧🟧🟧🟧🟥🟥🟩
http://127.0.0.1:8000/replay/daily/2026-12-01/p_ada
>>> "Ada &lt;3" in share_svg(card) and "<3" not in share_svg(card)
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SQUARES: Final = 10  # the strip: one square per tenth of the player's time
RUN_SQUARES: Final = ("⬜", "🟨", "🟧", "🟥", "🟩")  # 0, 1, 2, 3, 4 runs held
# The same colours in the image (emoji fonts are not everywhere an SVG is drawn).
RUN_COLOURS: Final = ("#e8e8e0", "#f4c95d", "#f08c3a", "#d9473f", "#3fae5a")
ENDED_WORDS: Final = {
    "lost": "no moves left",
    "gave-up": "gave up",
    "timed-out": "out of time",
    "left": "left",
}


@dataclass(frozen=True, slots=True)
class ShareCard:
    """One player's shared result: ``title`` names the day or the room, ``rank`` of
    ``racers`` is the place (the leaderboard's, or the round's), ``strip`` the squares."""

    title: str
    name: str
    rank: int
    racers: int
    status: str
    elapsed: float
    runs: int
    score: int
    strip: str
    url: str


def clock(seconds: float) -> str:
    """m:ss (h:mm:ss past an hour), as the client shows times.

    >>> clock(59.9), clock(61), clock(3725)
    ('0:59', '1:01', '1:02:05')
    """
    s = max(0, int(seconds))
    h, m, ss = s // 3600, s % 3600 // 60, s % 60
    return f"{h}:{m:02d}:{ss:02d}" if h else f"{m}:{ss:02d}"


def ordinal(n: int) -> str:
    """1st, 2nd, ... as the client says places.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '112th']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def runs_held(timeline: Sequence[Sequence[float]], squares: int, elapsed: float) -> list[int]:
    """The runs held at the end of each of ``squares`` equal slices of ``elapsed`` seconds,
    from a timeline of ``[t, runs, score]`` points (the results chart's).

    >>> runs_held([(10.0, 1, 0), (20.0, 2, 0)], 4, 20.0)
    [0, 1, 1, 2]
    >>> runs_held([], 3, 0.0)
    [0, 0, 0]
    """
    held = []
    for k in range(1, squares + 1):
        at = elapsed * k / squares
        runs = 0
        for point in timeline:
            if point[0] > at + 1e-9:
                break
            runs = int(point[1])
        held.append(max(0, min(runs, len(RUN_SQUARES) - 1)))
    return held


def strip(timeline: Sequence[Sequence[float]], elapsed: float) -> str:
    """The squares of :func:`runs_held`: a picture of the pace that names no card."""
    return "".join(RUN_SQUARES[r] for r in runs_held(timeline, SQUARES, elapsed))


def result_words(card: ShareCard) -> str:
    """How the game ended, and when.

    >>> result_words(ShareCard("t", "n", 1, 1, "gave-up", 75.0, 1, 3, "", "u"))
    'gave up at 1:15'
    """
    if card.status == "won":
        return f"won in {clock(card.elapsed)}"
    return f"{ENDED_WORDS.get(card.status, card.status)} at {clock(card.elapsed)}"


def place_words(card: ShareCard) -> str:
    return f"{ordinal(card.rank)} of {card.racers}"


def description(card: ShareCard) -> str:
    """One line for a link preview."""
    return (
        f"{card.name}: {place_words(card)} · {result_words(card)} · "
        f"{card.runs}/4 runs · score {card.score}"
    )


def share_text(card: ShareCard) -> str:
    """The copyable text (see the module's example)."""
    return "\n".join(
        [
            f"Scorpion Race · {card.title}",
            f"{place_words(card)} · {result_words(card)}",
            f"{card.runs}/4 runs · score {card.score}",
            card.strip,
            card.url,
        ]
    )


def _text(x: int, y: int, size: int, fill: str, text: str, weight: str = "normal") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}">'
        f"{html.escape(text, quote=True)}</text>"
    )


def share_svg(card: ShareCard) -> str:
    """The result as a 600x315 SVG (a link preview's shape): plain shapes and text, every
    text escaped; the strip as coloured squares."""
    squares = [RUN_SQUARES.index(c) for c in card.strip if c in RUN_SQUARES]
    cells = "".join(
        f'<rect x="{40 + 52 * i}" y="196" width="44" height="44" rx="6" fill="{RUN_COLOURS[r]}"/>'
        for i, r in enumerate(squares)
    )
    name = card.name if len(card.name) <= 40 else card.name[:39] + "…"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="315" '
        'viewBox="0 0 600 315" font-family="system-ui, sans-serif">'
        f"<title>{html.escape(description(card), quote=True)}</title>"
        '<rect width="600" height="315" rx="18" fill="#0d3b2e"/>'
        + _text(40, 56, 22, "#f4c95d", f"Scorpion Race · {card.title}", "bold")
        + _text(40, 104, 30, "#ffffff", name, "bold")
        + _text(40, 146, 26, "#ffffff", f"{place_words(card)} · {result_words(card)}")
        + _text(40, 180, 20, "#cfe3d8", f"{card.runs}/4 runs · score {card.score}")
        + cells
        + _text(40, 282, 16, "#cfe3d8", "Runs held over time · replay at the link")
        + "</svg>"
    )


def og_tags(card: ShareCard, image_url: str) -> str:
    """The Open Graph (and Twitter card) tags of a shared result's link, escaped."""
    tags = {
        "og:type": "website",
        "og:site_name": "Scorpion Race",
        "og:title": f"Scorpion Race · {card.title}",
        "og:description": description(card),
        "og:url": card.url,
        "og:image": image_url,
        "og:image:type": "image/svg+xml",
        "og:image:width": "600",
        "og:image:height": "315",
        "twitter:card": "summary_large_image",
    }
    return "".join(
        f'  <meta property="{key}" content="{html.escape(value, quote=True)}">\n'
        for key, value in tags.items()
    )
