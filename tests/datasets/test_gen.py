"""gen.py's command line: the renderer switches of a recipe (`[data.render]`)."""

import tomllib
from pathlib import Path

import pytest

from datasets import gen, make_all, render_options

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


def _plan(name: str) -> dict:
    return make_all.plan(tomllib.loads((DATASETS / name).read_text()))


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
    assert render_options.OPTIONS == render_options.RenderOptions()


def test_make_all_passes_the_recipe_render_table_to_gen():
    cand = _plan("recipes/0.4.0.toml")["gen"]
    assert len(cand) == 1  # one set of scenes for both models
    old = _plan("recipes/0.2.0.toml")["gen"][0]
    assert old[old.index("--render") + 1 :] == []  # 0.2.0: the renderer's defaults
    assert "glyph_vshear=true" in cand[0] and "brush_fonts=true" in cand[0]
    assert gen.parse_render(cand[0][cand[0].index("--render") + 1 :])["glyph_variation"] == 0.7


def test_make_all_gives_the_localiser_its_own_scenes_when_the_recipe_says_so():
    steps = _plan("config.toml")
    cls_gen, loc_gen = steps["gen"]
    render = lambda cmd: gen.parse_render(cmd[cmd.index("--render") + 1 :])  # noqa: E731
    assert render(cls_gen) == {"faint_rims": True, "sheet_edges": True}
    assert render(loc_gen)["glyph_variation"] == 0.7
    loc_out = loc_gen[loc_gen.index("--out") + 1]
    assert steps["loc"][0][steps["loc"][0].index("--data") + 1] == loc_out
    assert steps["cls"][0][steps["cls"][0].index("--data") + 1] == cls_gen[cls_gen.index("--out") + 1]
    # the other [data] keys carry over to the localiser's scenes
    for key in ("--scenes", "--seed", "--save-side"):
        assert loc_gen[loc_gen.index(key) + 1] == cls_gen[cls_gen.index(key) + 1]


def test_the_0_6_0_recipe_fine_tunes_from_git_builds_real_data_and_calibrates():
    steps = _plan("recipes/0.6.0.toml")
    real_cmd, negatives_cmd = steps["real"]
    assert real_cmd[real_cmd.index("--models") + 1] == "git:9308fe2:models"  # copied out when run
    assert "datasets.negatives" in negatives_cmd
    cls = steps["cls"][0]
    assert cls[cls.index("--init-onnx") + 1] == "git:9308fe2:models/classifier.onnx"
    assert "--none" in cls and cls[cls.index("--rot180") + 1] == "0.5"
    assert cls[cls.index("--extra") + 1].endswith("real/cls/train.npz")
    loc = steps["loc"][0]
    assert loc[loc.index("--extra-data") + 1] == "datasets/out/0.6.0/real"
    assert "datasets.calibrate" in steps["calibrate"][0]
    assert "datasets.eval_real" in steps["eval"][0]  # the runtime's figures, not the reference predictor's
    assert _plan("config.toml")["real"] == [] and _plan("config.toml")["calibrate"] == []


def test_only_git_arguments_are_resolved():
    assert make_all.resolve_arg("datasets/out/x.onnx") == "datasets/out/x.onnx"
    assert make_all.resolve_arg("--none") == "--none"


def test_the_0_6_2_recipe_calibrates_the_flag_on_the_logit_margin():
    cal = _plan("recipes/0.6.2.toml")["calibrate"][0]
    assert cal[cal.index("--score") + 1] == "logit_margin" and "--set-rule" in cal
    assert cal[cal.index("--target-right") + 1] == "0.04"
    for old in ("0.6.0", "0.6.1"):  # the probability margin, as they were shipped
        assert "--score" not in _plan(f"recipes/{old}.toml")["calibrate"][0]


def test_the_0_6_2_recipe_is_0_6_1_exported_with_a_512_second_pass():
    new, old = _plan("recipes/0.6.2.toml"), _plan("recipes/0.6.1.toml")
    for step in ("gen", "real", "cls", "loc"):  # same data, same training
        assert [c[2:] for c in new[step]] == [c[2:] for c in old[step]], step
    same_fit = [str(a).replace("0.6.2", "0.6.1") for a in new["calibrate"][0]]
    assert same_fit[-2:] == ["--score", "logit_margin"]  # the fit of 0.6.1, on the new score
    assert same_fit[:-2] == [str(a) for a in old["calibrate"][0]]
    ex = new["export"][0]
    assert ex[ex.index("--refine-size") + 1] == "512" and ex[ex.index("--size") + 1] == "384"
    assert ex[ex.index("--version") + 1] == "0.6.2" and "--refine-size" not in old["export"][0]


def test_the_0_6_5_candidate_recolours_the_inks_and_others_do_not():
    cls = _plan("recipes/0.6.5.toml")["cls"][0]
    assert cls[cls.index("--hue-p") + 1] == "0.5" and cls[cls.index("--perm-p") + 1] == "0.15"
    assert cls[cls.index("--init-onnx") + 1] == "git:31e37e9:models/classifier.onnx"
    assert "--hue-p" not in _plan("recipes/0.6.1.toml")["cls"][0]


def test_the_0_7_0_recipe_draws_the_world_styles_on_0_6_1_scenes():
    new, old = _plan("recipes/0.7.0.toml"), _plan("recipes/0.6.1.toml")
    gen = new["gen"][0]
    assert "world_styles=0.35" in gen and "ink_weight=0.25" in gen
    assert [a for a in gen if "=" not in a][2:] == [
        str(a).replace("0.6.1", "0.7.0") for a in old["gen"][0] if "=" not in str(a)
    ][2:]
    assert not any("world_styles" in a for a in old["gen"][0])
    cls = new["cls"][0]
    assert cls[cls.index("--ink-p") + 1] == "0.3" and "--hue-p" not in cls and "--perm-p" not in cls
    assert cls[cls.index("--init-onnx") + 1] == "git:b280533:models/classifier.onnx"


def test_recolour_keeps_the_luma_turns_the_chroma_and_permutes_channels():
    torch = pytest.importorskip("torch", reason="needs torch (the [train] extra)")
    from datasets.train_cls import _YIQ, recolour

    g = torch.Generator().manual_seed(3)
    red = torch.zeros(64, 3, 4, 4)
    red[:, 0] = 0.8  # a red ink, luma 0.24
    out = recolour(red, g, 1.0, 0.0)
    luma = (out * _YIQ[0].view(1, 3, 1, 1)).sum(1)
    unclipped = (out > 0.001).all(1) & (out < 0.999).all(1)
    assert torch.allclose(luma[unclipped], torch.full_like(luma[unclipped], 0.8 * 0.299), atol=1e-4)
    assert (out[:, 1] > 0.05).any() and (out[:, 2] > 0.05).any()  # some turned green or blue
    perm = recolour(red, g, 0.0, 1.0)  # every crop's channels permuted (never the identity)
    assert torch.equal(perm.sort(1).values, red.sort(1).values)  # the same values, other channels
    moved = (perm[:, 0, 0, 0] == 0).float().mean()  # 4 of the 5 permutations move red
    assert 0.6 < moved < 1.0


def test_inks_make_red_black_turn_green_and_blue_and_leave_the_face():
    torch = pytest.importorskip("torch", reason="needs torch (the [train] extra)")
    import datasets.train_cls as tc

    crop = torch.full((1, 3, 4, 4), 0.92)  # an ivory face ...
    crop[0, :, 1, 1] = torch.tensor([0.85, 0.1, 0.1])  # ... a red stroke
    crop[0, :, 2, 2] = torch.tensor([0.1, 0.6, 0.2])  # ... a green one
    got = {}
    for kind in range(3):
        orig = torch.randint
        try:
            torch.randint = lambda lo, hi, shape, generator=None, k=kind: torch.full(shape, k)
            got[kind] = tc.inks(crop, torch.Generator().manual_seed(1), 1.0)
        finally:
            torch.randint = orig
        assert torch.allclose(got[kind][0, :, 0, 0], crop[0, :, 0, 0], atol=1e-5)  # the face kept
    r, g, b = got[0][0, :, 1, 1].tolist()
    assert max(r, g, b) - min(r, g, b) < 0.05 and r < 0.3  # the red stroke is now black
    assert torch.allclose(got[0][0, :, 2, 2], crop[0, :, 2, 2], atol=1e-5)  # green untouched
    green = got[1][0, :, 2, 2]
    assert (green - crop[0, :, 2, 2]).abs().max() > 0.1  # turned toward blue or yellow
    assert torch.allclose(got[1][0, :, 1, 1], crop[0, :, 1, 1], atol=1e-5)  # red untouched
