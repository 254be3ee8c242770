"""The flag refit with whole sets held out (`datasets.flag4*`, issue 35 item 5): the signals on a
synthetic reading, the fit scoring what the runtime scores, thresholds that hold on each group with
whole sets held out, the refit's cache, and the flag file it writes (loads; damaged or naming an
unknown feature: a coded error). No ../shared: painted scenes and stand-in models
(`vision.testing`), records built by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest

import datasets.flag4_records as flag4_records
from datasets.flag4 import SUSPICION, better, current, write
from datasets.flag4_fit import BASE, choose, group_threshold, held_out, runtime_matrix, score
from datasets.flag4_signals import iou_max, photo_signals
from tests.vision.test_flagging import SCENE, SIZE, models, stand_in  # noqa: F401  (the fixture)
from vision import TileReader, testing
from vision.flagging import BOX_FEATURES, FEATURES, FlagModel, FlagModelError, feature_matrix, load_flag_model
from vision.image import LoadedImage


def copy_models(src, dst) -> None:
    for f in src.iterdir():
        (dst / f.name).write_bytes(f.read_bytes())


def test_every_signal_on_a_synthetic_reading(models, tmp_path):  # noqa: F811
    copy_models(models, tmp_path)
    stand_in(tmp_path, threshold=1.0)
    reader = TileReader(tmp_path)
    loaded = LoadedImage.from_array(testing.paint_scene(*SIZE, SCENE))
    dets, sig = photo_signals(reader, loaded)
    assert len(dets) == len(sig) >= 10
    by_tile = {d.tile: s for d, s in zip(dets, sig, strict=True)}
    s = by_tile["1m"]  # a standing tile of the bottom row, read right and sure
    assert s["read"] == "1m" and s["agree"] is True and s["logit_margin"] > 0.5
    assert s["pass2"] == 0.0  # the first plain pass found it
    assert s["fifth"] is False and s["hand_second"] is False and s["off_row"] is False
    assert 0.0 < s["loc"] <= 1.0 and s["size_all"] < 0.2  # a tile of the photo's own size
    assert s["proto_sim"] == 1.0  # the stand-in file has no prototypes: nothing to compare with
    assert s["text_score"] == 0.0 and s["text_agree"] == 0.0  # no text model in the stand-ins
    for r in sig:  # every signal oriented as suspicion for every tile: the AUC table can be built
        vals = {n: f(r) for n, f in SUSPICION.items()}
        assert all(np.isfinite(v) for v in vals.values())
    assert reader._localize.__name__ != "spy"  # the reader is given back as it was


def test_pass2_is_a_box_no_first_pass_box_overlaps():
    got = iou_max(np.array([[0, 0, 10, 10], [50, 50, 60, 60]]), np.array([[1, 0, 11, 10]]))
    assert got[0] == pytest.approx(90 / 110) and got[1] == 0.0
    assert iou_max(np.zeros((2, 4)), np.zeros((0, 4))).tolist() == [0.0, 0.0]


def rec(op="ok", lm=6.0, loc=0.9, group="val", set_="a", **kw) -> dict:
    r = {
        "op": op, "read": "3m", "label": "3m" if op == "ok" else "4m", "logit_margin": lm, "agree": True,
        "proto_sim": 0.9, "tta": lm, "loc": loc, "size_all": 0.0, "aspect_all": 0.0, "off_row": False,
        "fifth": False, "hand_second": False, "text_score": 0.0, "text_agree": 0.0, "text_best": None,
        "group": group, "set": set_, "photo": set_, "old": False, "flag2": 0.0,
    }  # fmt: skip
    return {**r, **kw}


def test_the_fit_scores_what_the_runtime_scores():
    names = (*FEATURES, *BOX_FEATURES)
    rng = np.random.default_rng(0)
    lm, tta = rng.uniform(-1, 15, 20), rng.uniform(-3, 15, 20)
    agree, sim, loc = rng.random(20) > 0.3, rng.uniform(0.5, 1, 20), rng.uniform(0.2, 1, 20)
    size, aspect = rng.uniform(0, 1, 20), rng.uniform(0, 1, 20)
    recs = [
        rec(lm=lm[i], tta=tta[i], agree=bool(agree[i]), proto_sim=sim[i], loc=loc[i], size_all=size[i],
            aspect_all=aspect[i])
        for i in range(20)
    ]  # fmt: skip
    fm = FlagModel(np.zeros((3, 2), np.float32), rng.normal(size=8), 0.0, 4.0, True, names, 0.6)
    band = np.where(lm < fm.tta_band, tta, np.nan)  # the runtime cuts extra views below the band only
    box = {"loc": loc, "size_all": size, "aspect_all": aspect}
    want = fm.score(fm.matrix(feature_matrix(lm, agree, sim, band), box))
    model = {"features": names, "knee": 0.6, "weights": fm.weights, "threshold": 0.0}
    assert runtime_matrix(recs, names, 0.6)[:, 4].max() == pytest.approx(0.6)  # loc at the knee
    assert score(recs, model) == pytest.approx(want)


def test_the_threshold_holds_on_the_unseen_sets_as_on_the_familiar_ones():
    # familiar right tiles sure (margins 6..10), unseen right tiles less so (margins 1..5)
    recs = [rec(lm=6 + i / 25) for i in range(100)] + [
        rec(lm=1 + i / 5, group="cn", set_="u") for i in range(20)
    ]
    s = -np.array([r["logit_margin"] for r in recs])
    thr = group_threshold(s, recs, np.ones(len(recs), bool), 0.05)
    unseen = np.array([r["group"] == "cn" for r in recs])
    assert (s[unseen] > thr).sum() == 1  # 5 % of the unseen sets' 20 right tiles
    assert (s[~unseen] > thr).sum() == 0
    pooled = np.sort(s)[::-1][int(0.05 * len(s))]  # one threshold for the pool: 6 of 120
    assert (s[unseen] > pooled).sum() == 6  # 30 % of the unseen right tiles


def test_each_set_is_held_out_of_its_own_fit(monkeypatch):
    import datasets.flag4_fit as fit

    recs = []
    for k, g in enumerate(("val", "val", "cn", "riichi")):
        recs += [rec(lm=5.0 + i % 7, group=g, set_=f"s{k}") for i in range(30)]
        recs += [rec("sub", lm=0.1 * i, group=g, set_=f"s{k}") for i in range(3)]
    seen: list[set] = []
    real = fit.choose

    def spy(rs, fit_on, target, configs=None):
        seen.append({r["set"] for r, f in zip(rs, fit_on, strict=True) if f})
        return real(rs, fit_on, target, configs)

    monkeypatch.setattr(fit, "choose", spy)
    flags, chosen = held_out(recs, 0.05)
    assert seen == [{"s1", "s2", "s3"}, {"s0", "s2", "s3"}, {"s0", "s1", "s3"}, {"s0", "s1", "s2"}]
    wrong = np.array([r["op"] != "ok" for r in recs])
    assert flags[wrong].sum() >= 8 and sum(chosen.values()) == 4  # low margins caught held out


def test_the_written_file_loads_and_damage_is_a_coded_error(tmp_path):
    stand_in(tmp_path, threshold=1.0)  # the prototypes, TTA band and grey views come from it
    recs = [rec(lm=5.0 + i % 7, set_=f"s{i % 3}") for i in range(60)] + [rec("sub", lm=0.2, set_="s1")] * 4
    model = choose(recs, np.ones(len(recs), bool), 0.05, [((*BASE, "loc", "size_all"), 0.7)])
    out = tmp_path / "new"
    out.mkdir()
    write(model, tmp_path / "flag.npz", out / "flag.npz")
    fm = load_flag_model(out)
    assert fm.features == (*FEATURES, "loc", "size_all") and fm.loc_knee == 0.7
    assert fm.weights.tolist() == pytest.approx(list(model["weights"])) and fm.tta_band == 4.0
    assert current(out)["threshold"] == pytest.approx(model["threshold"])
    (out / "flag.npz").write_bytes((out / "flag.npz").read_bytes()[:100])  # truncated
    with pytest.raises(FlagModelError) as e:
        load_flag_model(out)
    assert e.value.code == "flag_model_unreadable"
    bad = FlagModel(fm.prototypes, np.zeros(6), 0.0, 4.0, False, (*FEATURES, "text_agree"), 1.0)
    bad.save(out / "flag.npz")  # a reader's signal the runtime does not compute
    with pytest.raises(FlagModelError) as e:
        load_flag_model(out)
    assert e.value.code == "flag_model_contract"


def test_the_cache_reads_a_part_again_only_when_its_inputs_change(monkeypatch, tmp_path):
    reads: list[str] = []
    print_ = []

    def read_part(reader, part, shared, stand_ins):
        reads.append(part)
        return {"records": [rec(set_=part)], "misses": []}

    monkeypatch.setattr(flag4_records, "read_part", read_part)
    monkeypatch.setattr("vision.reader.TileReader", lambda _d: object())
    monkeypatch.setattr(flag4_records, "fingerprint", lambda _d: "one")
    kw = {"cache": tmp_path, "shared": tmp_path, "log": print_.append}
    recs, _ = flag4_records.records(tmp_path, ("sets_dev", "val"), **kw)
    assert reads == ["sets_dev", "val"] and [r["set"] for r in recs] == ["sets_dev", "val"]
    flag4_records.records(tmp_path, ("sets_dev", "val"), **kw)
    assert reads == ["sets_dev", "val"]  # both from the cache
    assert json.loads((tmp_path / "val.json").read_text())["fingerprint"] == "one"
    monkeypatch.setattr(flag4_records, "fingerprint", lambda _d: "two")  # a reader merged
    flag4_records.records(tmp_path, ("val",), **kw)
    flag4_records.records(tmp_path, ("val",), fresh=True, **kw)
    assert reads == ["sets_dev", "val", "val", "val"]


def test_the_fingerprint_follows_the_models_and_the_readers_code(tmp_path):
    (tmp_path / "classifier.onnx").write_bytes(b"a")
    one = flag4_records.fingerprint(tmp_path)
    assert flag4_records.fingerprint(tmp_path) == one
    (tmp_path / "classifier.onnx").write_bytes(b"b")
    assert flag4_records.fingerprint(tmp_path) != one


def shares(wrong: str, right: str) -> dict:
    return {"wrong": wrong, "right": right}


def test_refit_writes_only_a_flag_that_beats_the_current_one():
    def rep(dev4, val4, pub4) -> dict:
        return {
            "held_out": {
                "flag4": {"sets_dev": shares(*dev4), "val": shares(*val4)},
                "flag2_shipped": {"sets_dev": shares("25/28", "41/397"), "val": shares("16/20", "25/1014")},
            },
            "reported": {"public": {"flag4": shares("0/0", pub4), "flag2_shipped": shares("0/0", "7/895")}},
        }

    assert better(rep(("25/28", "20/397"), ("16/20", "25/1014"), "7/895"))[0]
    assert not better(rep(("22/30", "20/397"), ("16/20", "25/1014"), "7/895"))[0]  # fewer caught
    assert not better(rep(("25/28", "20/397"), ("16/20", "30/1014"), "7/895"))[0]  # val worse
    assert not better(rep(("25/28", "20/397"), ("16/20", "25/1014"), "9/895"))[0]  # judge worse
