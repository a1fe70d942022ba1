"""The shared result: its strip follows the runs held over time, and neither the text nor the
image names a card or the deal, whatever the numbers; the image escapes names."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from scorpion.race.share import (
    RUN_SQUARES,
    SQUARES,
    ShareCard,
    og_tags,
    runs_held,
    share_svg,
    share_text,
    strip,
)

# A card as any text shows one: rank then suit, as letters or symbols ("QS", "Q♠", "10H").
CARD = re.compile(r"(?<![\w-])(10|[2-9AJQKT])\s?[SHDC♠♥♦♣](?![\w-])")  # not in an id
STATUSES = ["won", "lost", "gave-up", "timed-out", "left"]
DEAL = 2**63 + 12345  # a deal number that no count or time could write by chance


@st.composite
def timelines(draw: st.DrawFn) -> tuple[list[tuple[float, int, int]], float]:
    times = sorted(draw(st.lists(st.floats(0, 3600, allow_nan=False), max_size=60)))
    runs = sorted(draw(st.lists(st.integers(0, 4), min_size=len(times), max_size=len(times))))
    points = [(t, r, draw(st.integers(-500, 5000))) for t, r in zip(times, runs, strict=True)]
    elapsed = max([t for t, _, _ in points], default=0.0) + draw(st.floats(0, 100))
    return points, elapsed


def card_of(
    name: str, timeline: list[tuple[float, int, int]], elapsed: float, **kw: object
) -> ShareCard:
    last = timeline[-1][1] if timeline else 0
    fields: dict[str, object] = dict(
        title="Daily 2026-11-30", name=name, rank=3, racers=12,
        status="won" if last == 4 else "gave-up",
        elapsed=elapsed, runs=last, score=timeline[-1][2] if timeline else 0,
        strip=strip(timeline, elapsed), url="http://127.0.0.1:8000/replay/daily/2026-11-30/p_x",
    )  # fmt: skip
    fields.update(kw)
    return ShareCard(**fields)  # type: ignore[arg-type]


def test_the_strip_is_the_runs_held_at_the_end_of_each_tenth() -> None:
    timeline = [(12.0, 1, 10), (55.0, 2, 30), (61.0, 3, 40), (100.0, 4, 90)]
    assert runs_held(timeline, SQUARES, 100.0) == [0, 1, 1, 1, 1, 2, 3, 3, 3, 4]
    assert strip(timeline, 100.0) == "⬜🟨🟨🟨🟨🟧🟥🟥🟥🟩"
    assert strip([], 0.0) == "⬜" * SQUARES  # gave up at once


@given(timelines(), st.sampled_from(STATUSES), st.integers(1, 10_000), st.integers(1, 10_000))
def test_the_text_names_no_card_and_no_deal(
    line: tuple[list[tuple[float, int, int]], float], status: str, rank: int, racers: int
) -> None:
    timeline, elapsed = line
    card = card_of("Ada", timeline, elapsed, status=status, rank=rank, racers=max(rank, racers))
    text = share_text(card)
    assert not CARD.search(text), text
    assert str(DEAL) not in text and str(DEAL) not in share_svg(card)
    lines = text.split("\n")
    assert lines[-1] == card.url  # the replay link closes it, alone on its line
    assert len(lines[3]) == SQUARES and set(lines[3]) <= set(RUN_SQUARES)
    # The strip only ever climbs: it is runs held, never which ones.
    held = [RUN_SQUARES.index(c) for c in lines[3]]
    assert held == sorted(held)


@given(st.text(min_size=1, max_size=40).filter(lambda s: s.isprintable()))
def test_the_image_escapes_any_name(name: str) -> None:
    svg = share_svg(card_of(name, [(5.0, 1, 3)], 10.0))
    root = ET.fromstring(svg)  # well-formed whatever the name holds
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert name in texts
    assert not root.findall(".//{http://www.w3.org/2000/svg}script")


def test_markup_in_a_name_stays_text() -> None:
    name = "<script>alert(1)</script> & Co"
    card = card_of(name, [(5.0, 1, 3)], 10.0)
    svg = share_svg(card)
    assert "<script>" not in svg and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in svg
    tags = og_tags(card, "http://127.0.0.1:8000/share/daily/2026-11-30/p_x.svg")
    assert "<script>" not in tags and "&lt;script&gt;" in tags
    assert (
        'property="og:image" content="http://127.0.0.1:8000/share/daily/2026-11-30/p_x.svg"' in tags
    )
