"""The variant's tables as data: every number of the document's tables, and the loader's errors."""

from __future__ import annotations

import pytest
from tests.axis_allies.aarhe.helpers import fresh, profile

from grandstrategy.axis_allies.aarhe import economy
from grandstrategy.axis_allies.aarhe.tables import (
    cross_problems,
    parse_tables,
    read_files,
    reconstructed,
    shipped_tables,
)
from grandstrategy.axis_allies.module import load_module
from grandstrategy.core.errors import DataError


def test_victory_city_points_add_up_to_each_nations_total_and_81() -> None:
    # S3:L208-212: 18 + 15 + 18 + 12 + 14 + 4
    tables = shipped_tables()
    totals = {t.nation: t.points for t in tables.victory.nation_totals}
    assert totals == {
        "germans": 18,
        "japanese": 15,
        "russians": 18,
        "british": 12,
        "americans": 14,
        "neutral": 4,
    }
    assert sum(c.points for c in tables.victory.cities) == 81
    assert not cross_problems(tables, load_module())


def test_the_axis_start_with_33_vcp_and_the_allies_44_against_targets_45_and_55() -> None:
    game = fresh()
    assert game.vcs("axis") == 33 and game.vcs("allies") == 44
    assert profile(game).victory_cities_needed("axis") == 45
    assert profile(game).victory_cities_needed("allies") == 55


@pytest.mark.parametrize(
    ("territory", "cost"),
    [("germany", 5), ("caucasus", 5), ("archangel", 10), ("brazil", 10), ("norway", 15), ("libya", 15)],
)
def test_ic_cost_by_location(territory: str, cost: int) -> None:
    # S3:L212: a VC worth more than 1 point 5, a minor VC 10, elsewhere 15
    assert economy.ic_cost(shipped_tables(), territory) == cost


def test_infantry_cost_of_authoritarian_powers_by_location() -> None:
    # S3:L214: capital 2, a VC connected to the capital 3, another VC 4
    game = fresh()
    tables = shipped_tables()
    assert economy.infantry_cost(game, tables, "germans", "germany", 1) == 2
    assert economy.infantry_cost(game, tables, "germans", "western-europe", 1) == 3
    assert economy.infantry_cost(game, tables, "japanese", "japan", 1) == 2
    assert economy.infantry_cost(game, tables, "japanese", "borneo", 1) == 4  # an island: no land path
    assert economy.infantry_cost(game, tables, "russians", "caucasus", 5) == 3


def test_infantry_cost_of_democracies_rises_with_each_recruit() -> None:
    # S3:L214: first at a non-minor VC 2, first at a minor VC 3, the second 3, further 4
    game, tables = fresh(), shipped_tables()
    uk = [economy.infantry_cost(game, tables, "british", "united-kingdom", n) for n in (1, 2, 3, 5)]
    assert uk == [2, 3, 4, 4]
    assert economy.infantry_cost(game, tables, "british", "australia", 1) == 3
    assert economy.infantry_cost(game, tables, "americans", "eastern-united-states", 1) == 2


@pytest.mark.parametrize(
    ("income", "loss"), [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 4), (12, 4)]
)
def test_production_interruption_table(income: int, loss: int) -> None:
    # S3:L216
    assert economy.interruption_loss(shipped_tables(), income) == loss


def test_research_boxes_head_starts_and_capacity() -> None:
    # S3:L240
    research = shipped_tables().research
    boxes = {t.id: t.boxes for t in research.techs}
    assert boxes["atomic-weaponry"] == 10 and boxes["jet-plane"] == 4 and boxes["advanced-production"] == 4
    assert sum(1 for b in boxes.values() if b == 3) == 8 and len(boxes) == 12
    atomic = next(t for t in research.techs if t.id == "atomic-weaponry")
    assert atomic.start == {"germans": 2, "americans": 3, "russians": 1}
    capacity = {c.power: (c.free, c.purchasable) for c in research.capacity}
    assert capacity == {
        "germans": (2, 3),
        "japanese": (1, 2),
        "russians": (1, 2),
        "british": (1, 1),
        "americans": (2, 4),
    }
    assert research.die_cost.value == 5 and research.box_hit.value == 1


def test_diplomacy_rolls_track_and_neutrals() -> None:
    # S3:L242, L246
    diplomacy = shipped_tables().diplomacy
    assert {r.power: r.rolls for r in diplomacy.rolls} == {
        "germans": 2,
        "japanese": 1,
        "russians": 1,
        "british": 1,
        "americans": 2,
    }
    assert {t.id: t.at for t in diplomacy.thresholds} == {
        "overflight": 2,
        "income": 3,
        "land-entry": 4,
        "committed": 5,
    }
    assert {m.id: m.bonus for m in diplomacy.modifiers} == {
        "held-neighbour": 1,
        "taken-neighbour": 2,
        "enemy-capital": 3,
    }
    neutrals = {n.territory: n for n in diplomacy.neutrals}
    assert (neutrals["spain"].income, neutrals["spain"].position, sum(neutrals["spain"].army.values())) == (
        4,
        -2,
        10,
    )
    assert (neutrals["turkey"].income, neutrals["turkey"].position, neutrals["turkey"].army["infantry"]) == (
        3,
        -1,
        4,
    )
    assert neutrals["eire"].position == 3 and neutrals["rio-de-oro"].part_of == "spain"


def test_every_record_cites_the_document_or_says_why_it_is_reconstructed() -> None:
    tables = shipped_tables()
    found = tables.provenances()
    assert len(found) > 100 and all(p.startswith(("S3:L", "reconstructed: ")) for p in found)
    gaps = [p for p in found if reconstructed(p)]
    assert any("Southern Europe" in p for p in gaps) and any("Mozambique" in p or "'+'" in p for p in gaps)


def test_convoy_minimum_from_australia_to_the_united_kingdom_is_8_sea_zones() -> None:
    # S3:L214: "8 or 9" sea zones, checked on the Revised graph
    assert economy.min_convoy_zones(load_module(), "australia", "united-kingdom") == 8


def test_a_record_with_a_bad_provenance_is_refused_with_its_place() -> None:
    files = read_files()
    files["victory"]["cities"][0]["provenance"] = "page 3"
    with pytest.raises(DataError, match=r"victory\.cities\.0\.provenance"):
        parse_tables(files)


def test_a_record_naming_an_unknown_territory_is_refused() -> None:
    files = read_files()
    files["map"]["terrain"][0]["territory"] = "atlantis"
    tables = parse_tables(files)
    assert cross_problems(tables, load_module()) == ["unknown territory 'atlantis'"]


def test_an_unknown_field_is_refused() -> None:
    files = read_files()
    files["economy"]["desert_upkeep"]["extra"] = 1
    with pytest.raises(DataError, match=r"desert_upkeep\.extra"):
        parse_tables(files)
