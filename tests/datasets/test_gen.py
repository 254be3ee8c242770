"""gen.py's command line: the renderer switches of a recipe (`[data.render]`)."""

import pytest

from datasets import gen, tiles


@pytest.mark.parametrize(
    ("items", "want"),
    [
        ([], {}),
        (["brush_fonts=true"], {"brush_fonts": True}),
        (["faint_rims=False", "glyph_variation=0.7"], {"faint_rims": False, "glyph_variation": 0.7}),
    ],
)
def test_parse_render(items, want):
    assert gen.parse_render(items) == want


@pytest.mark.parametrize("item", ["brush_fonts", "glyph_variation=lots"])
def test_parse_render_refuses(item):
    with pytest.raises(ValueError, match=r"brush_fonts|glyph_variation"):
        gen.parse_render([item])


def test_unknown_switch_is_a_usage_error_not_a_traceback(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        gen.main(["--out", str(tmp_path), "--scenes", "0", "--val", "0", "--render", "glyph_wobble=1"])
    assert e.value.code == 2
    assert "glyph_wobble" in capsys.readouterr().err
    assert tiles.OPTIONS == tiles.RenderOptions()


def test_make_all_passes_the_recipe_render_table_to_gen():
    import tomllib
    from pathlib import Path

    from datasets import make_all

    root = Path(__file__).resolve().parents[2] / "datasets"
    shipped = make_all.plan(tomllib.loads((root / "config.toml").read_text()))["gen"][0]
    cand = make_all.plan(tomllib.loads((root / "candidates/0.4.0.toml").read_text()))["gen"][0]
    assert shipped[shipped.index("--render") + 1 :] == []  # 0.2.0: the defaults
    assert "glyph_vshear=true" in cand and "brush_fonts=true" in cand
    assert gen.parse_render(cand[cand.index("--render") + 1 :])["glyph_variation"] == 0.7
