"""The position views as text for the terminal: ``status``, ``area``, ``cup`` and ``score``.

The facts come from :mod:`grandstrategy.cataclysm.position` (structured data the web app can reuse);
this module only lays them out with rich, for a screen 80 columns wide: narrow tables, and long
lists as wrapped text. Only Cataclysm has these views; another rule set gets one clear message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from grandstrategy.core.errors import UserInputError
from grandstrategy.core.state import GameState
from grandstrategy.play.games import as_cataclysm

if TYPE_CHECKING:
    from grandstrategy.cataclysm.engine.game import CataclysmGame
    from grandstrategy.cataclysm.position import AreaView, CupView, IdeologyStanding, PowerPosition, ScoreView

WIDTH = 80
"""The widest line these views print (the terminal prints them at ``min(console width, WIDTH)``)."""


def _game(state: GameState, command: str) -> CataclysmGame:
    game = as_cataclysm(state)
    if game is None:
        raise UserInputError(f"{command} is only available in Cataclysm games")
    return game


# ---- status -----------------------------------------------------------------------------------------


def positions(state: GameState, text: str, viewer_seats: Iterable[str]) -> list[PowerPosition]:
    """The positions ``status [POWER]`` shows: the named power, or else each power the viewer plays.

    :raises UserInputError: not a Cataclysm game, an unknown power, or no power to show.
    """
    from grandstrategy.cataclysm.position import power_position, resolve_power

    game = _game(state, "status")
    seats = frozenset(viewer_seats)
    if text.strip():
        powers = [resolve_power(game, text)]
    else:
        powers = [p for p in game.state.powers if p in seats]
        if not powers:
            raise UserInputError("you play no power here; name one, e.g. status germany")
    return [power_position(game, p, viewer_seats=seats) for p in powers]


def status_views(state: GameState, text: str, viewer_seats: Iterable[str]) -> Group:
    """``status [POWER]`` as text (see :func:`positions`)."""
    return Group(*(render_power(view) for view in positions(state, text, viewer_seats)))


def _line(label: str, body: str, style: str = "bold") -> Text:
    """``label: body`` as one wrapped paragraph, the label in bold."""
    return Text.assemble((f"{label}: ", style), body)


def _listing(items: Iterable[str], empty: str = "none") -> str:
    found = list(items)
    return ", ".join(found) if found else empty


def _grouped(items: Iterable[str]) -> list[str]:
    """Repeated words counted, first-seen order kept: ``2 industrial, natural``."""
    counted: dict[str, int] = {}
    for item in items:
        counted[item] = counted.get(item, 0) + 1
    return [f"{n} {item}" if n > 1 else item for item, n in counted.items()]


def _counts(counts: Mapping[str, int]) -> str:
    return _listing(f"{name} {n}" for name, n in counts.items())


def render_power(view: PowerPosition) -> Group:
    """One power's position, in sections: record line, relations, areas, units, production,
    force pool, flags and offensives, cubes, interests, special markers."""
    parts: list[RenderableType] = []
    who = " (you)" if view.yours else ""
    heading = Text(f"{view.name}{who}", style="bold underline")
    parts.append(heading)
    record = (
        f"{view.ideology} · {view.commitment} · {view.stability} · effectiveness "
        f"{view.effectiveness}{' (reduced)' if view.effectiveness_reduced else ''} · VP {view.vp}"
    )
    parts.append(Text(record))
    if view.posture is not None:
        parts.append(_line(f"{view.posture.name} ({view.posture.rule})", view.posture.meaning))
    relations = view.relations
    parts.append(
        _line(
            "relations",
            f"{'belligerent' if relations.belligerent else 'not belligerent'} · alliance: "
            f"{_listing(relations.alliance)} · at war with: {_listing(relations.at_war_with)}"
            + (f" · armistice with: {_listing(relations.at_peace_with)}" if relations.at_peace_with else ""),
        )
    )
    if view.deciding:
        parts.append(_line("deciding", view.deciding))

    areas = Table(
        title=f"areas controlled ({len(view.areas)}; LR 2.2.4)",
        title_justify="left",
        title_style="bold",
        box=None,
        pad_edge=False,
        header_style="dim",
    )
    areas.add_column("area", max_width=24)
    areas.add_column("status", max_width=9)
    areas.add_column("resources", max_width=30)
    areas.add_column("cubes", justify="right", max_width=5)
    for held in view.areas:
        name = held.name + (" (capital)" if held.capital else "")
        resources = _listing(_grouped(held.resources), "-")
        if held.damaged:
            resources += f"; {held.damaged} damaged"
        if held.denied:
            resources += "; denied"
        areas.add_row(name, held.status, resources, str(held.cubes) if held.cubes else "")
    parts.append(areas if view.areas else _line("areas controlled", "none"))
    if view.lost_areas:
        parts.append(_line("own areas held by others", _listing(view.lost_areas)))

    if view.units:
        units = Table(
            title="units (LR 2.4.2)", title_justify="left", title_style="bold", box=None, pad_edge=False
        )
        units.add_column("area", max_width=24, style="dim")
        units.add_column("units", max_width=54)
        for stack in view.units:
            units.add_row(
                stack.name,
                _listing(
                    f"{u.count} x {u.name}"
                    + (" (upgraded)" if u.upgraded else "")
                    + (f" ({u.coast} coast)" if u.coast else "")
                    for u in stack.units
                ),
            )
        parts.append(units)
    else:
        parts.append(_line("units", "none on the map"))

    production = view.production
    parts.append(
        _line(
            "production (LR 3.4, 4.4-4.6)",
            f"reserve: {production.reserve or 'empty'} · holding box: "
            f"{_listing(production.holding_box, 'empty')} · would collect {production.collectable} "
            f"resource(s), {production.industrial} industrial"
            + (f", from {_listing(production.collect_from)}" if production.collect_from else "")
            + f" · conversion {production.conversion} (all built: {production.builds_if_all_built}"
            f" build(s)) · military actions {production.military_actions}",
        )
    )
    if production.may_buy:
        parts.append(
            _line(
                "may build",
                _listing(
                    f"{b.name} ({b.cost} build{'s' if b.cost != 1 else ''}"
                    + (", next turn" if b.next_turn else "")
                    + ")"
                    for b in production.may_buy
                ),
            )
        )
    pool = view.force_pool
    parts.append(
        _line(
            "force pool (LR 4.1.1)",
            f"{_counts(pool.counters)} · limit {pool.limit}, {pool.in_play} in play, room for "
            f"{pool.room} more"
            + ("" if pool.upgrades_allowed else " · no upgrades at this commitment")
            + (" · no fleets while the WNT holds" if pool.fleets_barred else ""),
        )
    )
    flags, offensives = view.flags, view.offensives
    parts.append(
        _line(
            "flags (LR 5.2)",
            f"{flags.available} available · {flags.in_reserve} in reserve · {flags.in_holding_box} "
            f"in holding box · {flags.in_cup} in the cup",
        )
    )
    parts.append(
        _line(
            "offensives (LR 8.1)",
            f"{offensives.available} markers available (also used as resource markers) · "
            f"{offensives.in_reserve} in reserve · {offensives.in_holding_box} in holding box · "
            f"{offensives.in_cup} in the cup"
            + (f" · {offensives.on_map} on the map as aid or Influence" if offensives.on_map else ""),
        )
    )
    if view.cup:
        parts.append(_line("in the cup", _counts(view.cup)))
    parts.append(_line("cubes on the map (LR 1.7.1)", _counts(view.cubes_on_map)))
    failed = _counts(view.failed_actions)
    if view.failed_special and view.failed_actions.get("special"):
        failed += f" (special: {view.failed_special})"
    parts.append(_line("failed political action boxes (LR 5.4)", failed))
    parts.append(_line("interests (LR 5.1, allies' included)", _listing(view.interests)))
    if view.turn_track:
        parts.append(
            _line(
                "turn track",
                " · ".join(f"{turn}: {_listing(items)}" for turn, items in view.turn_track.items()),
            )
        )
    if view.markers:
        parts.append(Text("special markers", style="bold"))
        for marker in view.markers:
            parts.append(
                Text.assemble("• ", (f"{marker.name} ({marker.rule})", "italic"), f": {marker.meaning}")
            )
    parts.append(Text(""))
    return Group(*parts)


# ---- area ---------------------------------------------------------------------------------------------


def area_text(state: GameState, name: str) -> Group:
    """``area NAME``.

    :raises UserInputError: not a Cataclysm game, no name, or an unknown area (with suggestions).
    """
    from grandstrategy.cataclysm.position import area_view

    game = _game(state, "area")
    if not name.strip():
        raise UserInputError("name an area after area, e.g. area ruhr")
    return render_area(area_view(game, name))


def render_area(view: AreaView) -> Group:
    """One area: who holds it, what it yields, its terrain, pieces, markers and neighbours."""
    parts: list[RenderableType] = [Text(f"{view.name} ({view.type}, {view.map} map)", style="bold underline")]
    if not view.in_play:
        parts.append(Text("not in play in this scenario", style="dim"))
    if view.type != "sea":
        status = view.status or "-"
        owner = f" of {view.owner}" if view.owner else ""
        parts.append(
            _line(
                "control (LR 2.2.3-2.2.5)",
                f"{status}{owner}{' (capital)' if view.capital else ''} · controlled by "
                f"{view.controller or 'nobody'}",
            )
        )
        parts.append(_line("resources (LR 2.3.8)", _listing(_grouped(view.resources))))
    parts.append(_line("terrain", _listing(view.terrain)))
    parts.append(_line("cubes", _counts(view.cubes)))
    if view.units:
        for power, units in view.units:
            parts.append(
                _line(
                    f"units of {power}",
                    _listing(
                        f"{u.count} x {u.name}" + (f" ({u.coast} coast)" if u.coast else "") for u in units
                    ),
                )
            )
    else:
        parts.append(_line("units", "none"))
    if view.minor_army:
        parts.append(_line("minor army (LR 2.4.4)", view.minor_army))
    if view.bases:
        parts.append(_line("bases (LR 2.3.2)", _listing(view.bases)))
    if view.markers:
        parts.append(_line("markers", "; ".join(view.markers)))
    parts.append(
        _line(
            "adjacent",
            _listing(n.name + ("" if n.kind == "border" else f" ({n.kind})") for n in view.neighbors),
        )
    )
    return Group(*parts)


# ---- cup ------------------------------------------------------------------------------------------------


def cup_text(state: GameState) -> Group:
    """``cup``: counts only; the order of draws is chance's, and hidden (LR 1.4).

    :raises UserInputError: not a Cataclysm game.
    """
    from grandstrategy.cataclysm.position import cup_view

    return render_cup(cup_view(_game(state, "cup")))


def render_cup(view: CupView) -> Group:
    """The cup by power and kind, the neutral markers, and the public reserves and turn track."""
    parts: list[RenderableType] = [
        Text(f"the action cup: {view.total} counter(s) (contents hidden, LR 1.4; counts only)", style="bold")
    ]
    table = Table(box=None, pad_edge=False, header_style="dim")
    table.add_column("power", max_width=16)
    kinds = sorted({kind for held in view.by_power.values() for kind in held})
    for kind in kinds:
        table.add_column(kind, justify="right", max_width=12)
    for power, held in view.by_power.items():
        table.add_row(power, *(str(held.get(kind, "")) for kind in kinds))
    if view.by_power:
        parts.append(table)
    parts.append(_line("neutral", f"{_counts(view.neutral)} · crises drawn so far: {view.crises_drawn}"))
    parts.append(_line("reserves (LR 3.4)", _listing(f"{p}: {c}" for p, c in view.reserves.items())))
    if view.turn_track:
        parts.append(
            _line(
                "turn track",
                " · ".join(f"{turn}: {_listing(items)}" for turn, items in view.turn_track.items()),
            )
        )
    return Group(*parts)


# ---- score ----------------------------------------------------------------------------------------------


def score_text(state: GameState) -> Group:
    """``score``: VP by ideology and power and who wins if the game ended now (LR 1.7).

    :raises UserInputError: not a Cataclysm game.
    """
    from grandstrategy.cataclysm.position import score_view

    return render_score(score_view(_game(state, "score")))


SUM_RULE_NOTE = (
    "Fascism and Communism both score above zero, so the Democracies win only with more VP "
    "than the two together; a tie goes to Communism, else to Fascism (LR 1.7.2)."
)
"""What the winner test does when both non-democratic ideologies score (the ``score`` note)."""


def score_need(standing: IdeologyStanding) -> str:
    """What one ideology's margin means (``win_margin``): ``wins now``, with how many VP it could
    lose and still win, or how many more it needs."""
    if standing.wins_now:
        return "wins now" + (f", and would with {standing.margin - 1} VP less" if standing.margin > 1 else "")
    return f"needs {1 - standing.margin} VP more to win"


def score_verdict(view: ScoreView) -> tuple[str, str]:
    """The verdict line as (label, text): the result once the game is over, else who would win
    if it ended now."""
    if view.result is not None:
        return "result", view.result
    return "if the game ended now", f"{view.winner} wins (LR 1.7.2)"


def render_score(view: ScoreView) -> Group:
    """Each ideology's VP with its powers', then the winner test's verdict and each one's need."""
    parts: list[RenderableType] = [Text("the score (victory points, LR 1.7.1)", style="bold")]
    for standing in view.standings:
        powers = ", ".join(f"{name} {vp}" for name, vp in standing.powers.items())
        parts.append(_line(standing.ideology, f"{standing.vp} ({powers}) · {score_need(standing)}"))
    parts.append(_line(*score_verdict(view)))
    if view.sum_rule:
        parts.append(Text(SUM_RULE_NOTE, style="dim"))
    return Group(*parts)


__all__ = [
    "SUM_RULE_NOTE",
    "WIDTH",
    "area_text",
    "cup_text",
    "positions",
    "render_area",
    "render_cup",
    "render_power",
    "render_score",
    "score_need",
    "score_text",
    "score_verdict",
    "status_views",
]
