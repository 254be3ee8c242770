"""`datasets.flag_sets`: leave-one-set-out fitting of flag 2 on synthetic records."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.flag_sets import fit, leave_sets_out, shares


def records(seed: int = 0) -> list[dict]:
    """Three plain sets and a swapped one; wrong reads have low margins and views far from the
    prototype, right ones high margins (the swapped set's all lower)."""
    rng = np.random.default_rng(seed)
    out = []
    for s, tag, shift in (
        ("a", "plain", 0),
        ("b", "plain", 0),
        ("c", "plain", 0),
        ("swapped", "swapped", -1.5),
    ):
        for k in range(200):
            wrong = k % 10 == 0
            emb = rng.normal(size=(2, 4)) * 0.1 + (
                np.array([0, 1.0, 0, 0]) if wrong else np.array([1.0, 0, 0, 0])
            )
            out.append(
                {
                    "set": s, "tag": tag, "stem": f"{s[0]}{k // 20}", "label": "1m" if not wrong else "2m",
                    "label_id": 0, "read": "1m", "cls": 0, "agree": not (wrong and k % 20 == 0),
                    "logit_margin": float(rng.normal(1.0 if wrong else 5.0) + shift),
                    "tta": float(rng.normal(0.0 if wrong else 4.0) + shift),
                    "grey": float(rng.normal(-1.0 if wrong else 4.0)),
                    "back": False, "old": False, "fifth": False, "emb": list(emb),
                }
            )  # fmt: skip
    return out


def test_the_rule_fitted_on_other_sets_catches_the_held_out_sets_wrong_tiles():
    recs = records()
    held = leave_sets_out(recs, 3, 4.0, 0.05)
    plain = held["plain_sets"]["after"]
    assert plain["wrong_flagged"] >= 0.9 and plain["right_flagged"] <= 0.08
    assert set(held["per_set"]) == {"a", "b", "c", "swapped"}


@pytest.mark.parametrize(
    "margin, tta, grey, want",
    [
        (3.0, 2.0, -1.0, {False: 2.0, True: -1.0}),  # a grey view names another class
        (3.0, -2.0, 1.0, {False: -2.0, True: -2.0}),  # a shifted view does
        (3.0, 5.0, 4.0, {False: 3.0, True: 3.0}),  # neither: its own margin
        (6.0, 2.0, -1.0, {False: 6.0, True: 6.0}),  # above the band: no views cut, its own margin
    ],
)
def test_grey_views_join_the_tta_margin(margin, tta, grey, want):
    from datasets.flag_sets import feats

    rec = {"logit_margin": margin, "tta": tta, "grey": grey, "agree": True, "cls": 0, "emb": [np.ones(4)] * 2}
    protos = np.zeros((3, 4), np.float32)
    assert {g: float(feats([rec], protos, 4.0, g)[0, -1]) for g in (False, True)} == want
    assert fit(records(), protos, 4.0, 0.05, grey=True).grey is True


def test_the_threshold_is_set_on_the_plain_sets_right_tiles():
    recs = records(1)
    protos = np.zeros((3, 4), np.float32)
    protos[0] = [1.0, 0, 0, 0]
    model = fit(recs, protos, 4.0, 0.03)
    from datasets.flag_sets import apply

    plain = [r for r in recs if r["tag"] == "plain"]
    assert shares(plain, apply(model, plain))["right_flagged"] <= 0.035


def test_the_swapped_copy_swaps_red_and_blue_of_the_validation_photos_only(tmp_path):
    import cv2

    from datasets.real import split_by_source
    from datasets.stand_ins import stand_in_copy

    src = tmp_path / "src"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    (src / "classes.txt").write_text("0 one 1m\n")
    stems = [f"p{k}_jpg.rf.{k}" for k in range(12)]
    red = np.zeros((40, 30, 3), np.uint8)
    red[..., 2] = 220  # BGR: red
    for s in stems:
        cv2.imwrite(str(src / "images" / f"{s}.jpg"), red)
        (src / "labels" / f"{s}.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    split = split_by_source(stems, 1, 0.2)
    val = [s for s in stems if split[s] == "val"]
    assert 0 < len(val) < len(stems)
    assert stand_in_copy(src, tmp_path / "dst", "swap") == len(val)
    for s in stems:
        out = tmp_path / "dst" / "images" / f"{s}.jpg"
        b, _g, r = cv2.imread(str(out)).reshape(-1, 3).mean(0)
        assert (b > 200 and r < 20) if s in val else (out.is_symlink() and r > 200 and b < 20)
    assert (tmp_path / "dst" / "labels" / f"{stems[0]}.txt").read_text().startswith("0 0.5")
    assert stand_in_copy(src, tmp_path / "dst", "swap") == 0  # what is there stays


@pytest.mark.parametrize(
    "kind, bgr, want",
    [
        ("swap", (10, 20, 200), (200, 20, 10)),  # red and blue swapped
        ("hue", (0, 0, 200), (0, 195, 195)),  # red turned 60 degrees: yellow, then gamma and gain
        ("bold", (200, 200, 200), (192, 192, 192)),  # a plain face: only 4 % darker
        ("mono", (10, 20, 200), (165, 98, 0)),  # a red ink turned blue
        ("mono", (40, 140, 20), (143, 102, 10)),  # a green ink turned the same blue
        ("mono", (20, 20, 25), (19, 19, 25)),  # a black ink stays black
    ],
)
def test_a_stand_in_recolours_as_its_kind_says(kind, bgr, want, tmp_path):
    from datasets.stand_ins import recolour, stand_in_copy

    px = np.full((2, 2, 3), bgr, np.uint8)
    assert recolour(px, kind)[0, 0].tolist() == list(want)
    with pytest.raises(ValueError, match="unknown stand-in kind 'grey'"):
        stand_in_copy(tmp_path, tmp_path / "out", "grey")


def test_the_bold_stand_in_thickens_a_dark_stroke_by_a_pixel():
    from datasets.stand_ins import recolour

    face = np.full((9, 9, 3), 230, np.uint8)
    face[:, 4] = 20  # a one-pixel stroke
    dark = (recolour(face, "bold")[:, :, 0] < 100).sum(1)
    assert dark.tolist() == [2] * 9


def test_the_held_out_model_never_sees_the_held_out_set_nor_its_swapped_copy():
    from datasets.flag_sets import held_out_model

    recs = records(2)
    for r in recs:  # the swapped copy of set a's photos: the same stems
        if r["tag"] == "swapped" and r["stem"][1:] in {"0", "1"}:
            r["stem"] = "a" + r["stem"][1:]
    base = held_out_model(recs, "a", 3, 4.0, 0.05)
    # what the held-out set and its own swapped copy hold cannot move the model fitted without them
    moved = [
        {**r, "logit_margin": -9.0, "tta": -9.0} if r["set"] == "a" or r["stem"].startswith("a") else r
        for r in recs
    ]
    again = held_out_model(moved, "a", 3, 4.0, 0.05)
    assert np.allclose(base.weights, again.weights) and base.threshold == again.threshold
    # another set's records do move it
    other = held_out_model([{**r, "tta": -9.0} if r["set"] == "b" else r for r in recs], "a", 3, 4.0, 0.05)
    assert not np.allclose(base.weights, other.weights)
    # the swapped set held out: fitted on the plain sets only
    sw = held_out_model(recs, "swapped", 3, 4.0, 0.05)
    sw2 = held_out_model(
        [{**r, "tta": 9.0} if r["tag"] == "swapped" else r for r in recs], "swapped", 3, 4.0, 0.05
    )
    assert np.allclose(sw.weights, sw2.weights)
