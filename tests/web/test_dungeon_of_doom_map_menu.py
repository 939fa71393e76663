"""The Dungeon of Doom's creation form lists the engine's maps (issue 23.3): each shipped map
with the size and the gold to win its file gives, and the random sizes the generator draws."""

from __future__ import annotations

import html
import re

from rules_engine.games.dungeon_of_doom import DEFAULT_MAP, SIZES, parse_map, shipped_maps


def menu(app) -> dict[str, str]:
    page = app.test_client().get("/").get_data(as_text=True)
    select = page[page.index('id="dod-map"') : page.index("</select>", page.index('id="dod-map"'))]
    return {
        value: html.unescape(label) for value, label in re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)<', select)
    }


def test_each_shipped_map_shows_its_files_size_and_gold_to_win(app):
    options = menu(app)
    for stem, text in shipped_maps().items():
        dungeon = parse_map(text)
        assert options[stem].startswith(dungeon.display_name + " — ")
        assert options[stem].endswith(f"({dungeon.width}×{dungeon.height}), {dungeon.target} gold to win")
    assert [stem for stem in options if stem in shipped_maps()] == list(shipped_maps())


def test_the_random_sizes_are_the_generators_and_the_default_map_is_selected(app):
    options = menu(app)
    assert [value for value in options if value.startswith("random-")] == [f"random-{size}" for size in SIZES]
    page = app.test_client().get("/").get_data(as_text=True)
    assert f'<option value="{DEFAULT_MAP}" selected>' in page
    assert "custom" in options
