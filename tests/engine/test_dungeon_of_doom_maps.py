"""The Dungeon of Doom map files: parser quirks and errors, shipped maps, the random generator."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_engine
from rules_engine import InvalidAction
from rules_engine.grid import connected_regions

dod = rules_engine.get("dungeon-of-doom")
parse_map = dod.parse_map
MapError = dod.MapError

BASE = "name Cell\nwin 1\n#####\n#G.E#\n#####\n"


def error_of(source) -> MapError:
    with pytest.raises(MapError) as caught:
        parse_map(source)
    assert isinstance(caught.value, InvalidAction) and isinstance(caught.value, ValueError)
    return caught.value


class TestParserQuirks:
    @pytest.mark.parametrize(
        "variant",
        [
            BASE.replace("\n", "\r\n"),
            BASE.replace("\n", "\r"),
            BASE.rstrip("\n"),
            BASE.replace("\n", "\r\n").rstrip("\r\n"),
            BASE + "\n\n\n",
            "\ufeff" + BASE,
            BASE.encode("utf-8"),
            b"\xef\xbb\xbf" + BASE.replace("\n", "\r\n").encode("utf-8"),
            BASE.replace("win 1", "win   1  "),
        ],
    )
    def test_line_endings_bom_and_trailing_lines_load_identically(self, variant):
        assert parse_map(variant) == parse_map(BASE)

    def test_no_outer_wall_is_fine_and_the_edge_is_a_wall(self):
        dungeon = parse_map("name Open\nwin 0\nE..\n.G.")
        assert (dungeon.width, dungeon.height) == (3, 2)
        state = dod.new_game(1, ["p1"], {"map": "name Open\nwin 0\nE..\n.G.", "start_positions": {"p1": [0, 2]}})
        assert [a.get("dir") for a in dod.legal_actions(state, "p1") if a["type"] == "move"] == ["S", "W"]

    def test_win_0_is_valid_with_no_gold(self):
        assert parse_map("name Free\nwin 0\nE").target == 0

    def test_p_and_b_read_as_floor(self):
        dungeon = parse_map("name Marks\nwin 0\nEPB.")
        assert dungeon.terrain == ("E...",) and dungeon.items == ()

    def test_names(self):
        assert parse_map("name    Spaced out   \nwin 0\nE").name == "Spaced out"
        assert parse_map("name \nwin 0\nE").name == ""
        assert parse_map("name \nwin 0\nE").display_name == "Unnamed dungeon"
        assert parse_map(f"name {'x' * 80}\nwin 0\nE").name == "x" * 80
        assert error_of(f"name {'x' * 81}\nwin 0\nE").line == 1

    def test_largest_grid_loads(self):
        grid = "\n".join(["E" + "." * 99] + ["." * 100] * 99)
        dungeon = parse_map(f"name Big\nwin 0\n{grid}")
        assert (dungeon.width, dungeon.height) == (100, 100)

    def test_items_are_read_row_major_one_coin_per_g(self):
        dungeon = parse_map("name Hoard\nwin 3\nGG\nEG\nHS\nAL")
        assert [(i.pos, i.kind, i.amount) for i in dungeon.items] == [
            ((0, 0), "gold", 1),
            ((0, 1), "gold", 1),
            ((1, 1), "gold", 1),
            ((2, 0), "potion", 1),
            ((2, 1), "sword", 1),
            ((3, 0), "armour", 1),
            ((3, 1), "lantern", 1),
        ]
        assert dungeon.gold == 3

    def test_to_text_round_trips(self):
        for text in dod.shipped_maps().values():
            dungeon = parse_map(text)
            assert parse_map(dungeon.to_text()) == dungeon


class TestParserErrors:
    @pytest.mark.parametrize(
        ("source", "line", "column", "words"),
        [
            ("", 1, None, "empty"),
            ("\n\n", 1, None, "empty"),
            ("name Solo", 2, None, "win"),
            ("name\nwin 0\nE", 1, None, "name"),
            ("NAME X\nwin 0\nE", 1, None, "name"),
            ("name X\nWin 0\nE", 2, None, "win"),
            ("name X\nwin\nE", 2, None, "win"),
            ("name X\nwin3\nE", 2, None, "win"),
            ("name X\nwin -1\nE", 2, None, "win"),
            ("name X\nwin two\nE", 2, None, "win"),
            ("name X\nwin 1.5\nE", 2, None, "win"),
            ("name X\nwin \uff13\nE", 2, None, "win"),  # a full-width digit is not a digit here
            ("name X\nwin 0", 3, None, "grid"),
            ("name X\nwin 0\n\nE", 3, None, "empty"),
            ("name X\nwin 0\nE.\n\n..", 4, None, "empty"),
            ("name X\nwin 0\nE.\n...", 4, None, "wide"),
            ("name X\nwin 0\nE.\n.", 4, None, "wide"),
            ("name X\nwin 0\nE.\n.\t", 4, 2, "'\\t'"),
            ("name X\nwin 0\nE. .", 3, 3, "' '"),
            ("name X\nwin 0\nE.\r\n.e", 4, 2, "'e'"),
            ("name X\r\nwin 0\r\nE..\r\n..\u00e9", 4, 3, "'é'"),
            ("name X\nwin 0\n...\n...", 3, None, "no exit"),
            ("name X\nwin 2\nEG.", 2, None, "only 1 G"),
            ("name X\nwin 0\n" + "E" * 101, 3, None, "101 cells wide"),
            ("name X\nwin 0\n" + "E\n" * 101, 103, None, "more than 100 rows"),
        ],
    )
    def test_errors_name_the_line(self, source, line, column, words):
        error = error_of(source)
        assert (error.line, error.column) == (line, column)
        assert words in str(error)
        assert str(error).startswith(f"line {line}" if words != "no exit" else "lines 3-4")

    def test_file_too_large(self):
        row = "E" + "." * 99
        text = "name Huge\nwin 0\n" + "\n".join([row] * 100)
        assert parse_map(text).height == 100  # about 10 KiB: fine
        error = error_of("name Huge\nwin 0\n" + "E" * 70_000)
        assert error.line == 3 and "64 KiB" in str(error)
        error = error_of(("name Huge\nwin 0\n" + "E" * 70_000).encode())
        assert error.line == 3 and "64 KiB" in str(error)

    def test_bytes_that_are_not_utf8(self):
        error = error_of(b"name X\nwin 0\nE.\n\xff.")
        assert error.line == 4 and "UTF-8" in str(error)

    def test_a_map_must_be_text(self):
        with pytest.raises(InvalidAction):
            parse_map(42)


def connected(dungeon) -> bool:
    return len(connected_regions(dungeon.walkable())) == 1


class TestShippedMaps:
    def test_at_least_five_maps_from_small_to_large(self):
        maps = dod.shipped_maps()
        assert len(maps) >= 5
        sizes = [parse_map(t).width * parse_map(t).height for t in maps.values()]
        assert sizes == sorted(sizes) and sizes[0] <= 50 and sizes[-1] >= 1000

    @pytest.mark.parametrize("stem", sorted(dod.shipped_maps()))
    def test_every_shipped_map_is_playable(self, stem):
        text = dod.shipped_maps()[stem]
        dungeon = parse_map(text)
        assert connected(dungeon)
        assert dungeon.exits and dungeon.gold >= dungeon.target >= 1
        assert text.endswith("\n") and "\r" not in text
        assert len(dungeon.walkable()) >= 8 + len(dungeon.exits)
        state = dod.new_game(3, ["p1", "p2", "p3", "p4"], {"map": text})
        assert dod.view(state, "p1")["map"]["custom"] is False
        assert dod.view(state, "p1")["map"]["name"] == dungeon.name

    def test_the_default_map_is_shipped(self):
        assert dod.new_game(1, ["p1"])["map"]["name"] == parse_map(dod.shipped_maps()["lantern-gallery"]).name


class TestGenerator:
    @settings(max_examples=30, deadline=None)
    @given(seed=st.integers(0, 2**64), size=st.sampled_from(["S", "M", "L"]))
    def test_generated_maps_are_connected_with_an_exit_and_enough_gold(self, seed, size):
        text = dod.generate_map(seed, size)
        dungeon = parse_map(text)
        width, height = dod.SIZES[size][:2]
        assert (dungeon.width, dungeon.height) == (width, height)
        assert connected(dungeon)
        assert len(dungeon.exits) == dod.SIZES[size][4]
        low, high = dod.SIZES[size][2]
        assert low <= dungeon.target <= high and dungeon.gold >= dungeon.target
        assert {"sword", "armour", "lantern", "potion"} <= {i.kind for i in dungeon.items}
        assert str(seed) not in text.replace("\n", " ") or len(str(seed)) < 3
        assert dod.generate_map(seed, size) == text

    def test_different_seeds_give_different_maps(self):
        assert len({dod.generate_map(seed, "M") for seed in range(10)}) == 10

    def test_a_generated_map_plays(self):
        state = dod.new_game(5, [f"p{i}" for i in range(8)], {"map": dod.generate_map(5, "S"), "max_players": 8})
        assert len({tuple(p["pos"]) for p in state["players"]}) == 8

    def test_unknown_size(self):
        with pytest.raises(InvalidAction, match="S, M, L"):
            dod.generate_map(1, "XL")
