"""`jxmj detect` and `jxmj photo` speak zh and en: every code (and case) they can print, collected
from the code that raises it, has words in both catalogs; `--lang zh|en` (before or after the
image; default: the locale's) gives the Chinese sentence naming the problem, the English one in
`detail`; in en the error object is unchanged."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest

from app import cli, cmd_detect, detect_errors
from app.ui import i18n
from scoring.errors import CODES as SCORING_CODES
from tests.vision.conftest import SCENE_SIZE, encode
from vision import testing
from vision.image import ERROR_CODES as IMAGE_CODES
from vision.modelfiles import CLASSIFIER_FILE
from vision.refs import ERROR_CODES as REFS_CODES
from vision.refs import RefsError, parse_refs

ROOT = Path(__file__).resolve().parents[2]
ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
SOURCES = [  # every module that raises an error these two commands print
    "vision/image.py",
    "vision/decode_time.py",
    "vision/room.py",
    "vision/refs.py",
    "vision/refembed.py",
    "vision/reader.py",
    "app/cmd_detect.py",
    "app/detect_annotate.py",
    "app/cmd_photo.py",
]
WORD = re.compile(r"[a-z]+(?:_[a-z]+)*")  # a code or a case; a sentence has spaces
ERROR_CALLS = {"ImageError": (0, None), "RefsError": (1, 2), "error": (3, 4), "_fail": (3, None)}
"""The calls that name a code: where the code and the case stand among their arguments."""


def _text(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and WORD.fullmatch(node.value):
        return node.value
    return None


def _raised() -> set[tuple[str, str | None]]:
    """Every ``(code, case)`` the sources give: the calls of `ERROR_CALLS`, the 4-tuples
    `check_annotate_path` returns, and the ``code`` / ``case`` of an exception class."""
    found: set[tuple[str, str | None]] = set()
    for name in SOURCES:
        for node in ast.walk(ast.parse((ROOT / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if called not in ERROR_CALLS:
                    continue
                at, case_at = ERROR_CALLS[called]
                code = _text(node.args[at]) if len(node.args) > at else None
                case = _text(node.args[case_at]) if case_at is not None and len(node.args) > case_at else None
                case = case or next((_text(k.value) for k in node.keywords if k.arg == "case"), None)
                if code:
                    found.add((code, case))
            elif (
                isinstance(node, ast.Return)
                and isinstance(node.value, ast.Tuple)
                and len(node.value.elts) == 4
            ):
                code, case = _text(node.value.elts[1]), _text(node.value.elts[2])
                if code:
                    found.add((code, case))
            elif isinstance(node, ast.ClassDef):
                given = {
                    t.id: _text(n.value)
                    for n in node.body
                    if isinstance(n, ast.Assign)
                    for t in n.targets
                    if isinstance(t, ast.Name) and t.id in ("code", "case")
                }
                if given.get("code"):
                    found.add((given["code"], given.get("case")))
    return found


RAISED = _raised()


def test_every_code_raised_is_listed_and_every_listed_code_is_raised():
    codes = {code for code, _ in RAISED}
    assert {"too_small", "refs_bad_json", "annotate_onto_input", "no_winning_tile"} <= codes  # the walk reads
    assert sorted(codes - set(detect_errors.photo_codes())) == []
    assert sorted(set(detect_errors.photo_codes()) - codes - {cli.USAGE_CODE}) == []
    assert {
        ("refs_bad_json", "xyxy"),
        ("refs_too_many", "photos"),
        ("annotate_onto_input", "input"),
    } <= RAISED
    assert detect_errors.REFS_ERROR_CODES == REFS_CODES == cmd_detect.REFS_ERROR_CODES
    assert detect_errors.detect_codes() == (*IMAGE_CODES, *cmd_detect.ERROR_CODES, *REFS_CODES, "bad_usage")


KEYS = sorted(
    {f"detect.{c}" for c in detect_errors.photo_codes()} | {f"detect.{c}.{k}" for c, k in RAISED if k}
)


@pytest.mark.parametrize("key", KEYS)
def test_every_code_and_case_has_words_in_both_languages_and_they_differ(key):
    zh, en = ZH.get(key, "").strip(), EN.get(key, "").strip()
    assert zh and en and zh != en
    assert set(re.findall(r"\{(\w+)\}", zh)) == set(re.findall(r"\{(\w+)\}", en))  # the same values named


@pytest.mark.parametrize(("code", "case"), sorted(RAISED, key=str))
def test_each_case_finds_its_own_words(code, case):
    assert detect_errors.catalog_key(code, case) == (f"detect.{code}.{case}" if case else f"detect.{code}")


def test_the_catalog_holds_no_detect_words_for_nothing():
    extra = {"detect.stdin", "detect.hand_not_scored", "detect.hand_shown"}
    assert sorted(k for k in ZH if k.startswith("detect.") and k not in {*KEYS, *extra}) == []


@pytest.mark.parametrize("code", sorted(SCORING_CODES))
def test_a_hand_that_cannot_be_scored_is_said_with_the_engines_words(code):
    why = detect_errors.scoring_fields(code)["why"]
    assert why == ZH[f"code.{code}"]
    said = detect_errors.error_object("x", code, "zh", fields={"why": why}, key=detect_errors.NOT_SCORED)
    assert said["error"] == f"照片读出的这手牌算不了分：{why}"


def _refs(doc) -> RefsError:
    with pytest.raises(RefsError) as e:
        parse_refs(doc if isinstance(doc, str) else json.dumps(doc), Path("."))
    return e.value


GOOD = {"image": "a.jpg", "xyxy": [0, 0, 9, 9], "tile": "1m"}
FILE_TWICE = '参考牌文件 r.json 里有一个对象把键 "refs" 写了两次：只写一次。'
MANY_PHOTOS = {"refs": [{**GOOD, "image": f"{n}.jpg"} for n in range(101)]}
REFS_FAULTS = [  # REFS.json, code, the Chinese sentence (the file is r.json)
    ("{refs", "refs_bad_json", "参考牌文件 r.json 不是 JSON。"),
    ('{"refs": [], "refs": []}', "refs_bad_json", FILE_TWICE),
    ({"ref": []}, "refs_bad_json", '参考牌文件 r.json 要是一个对象 {"refs": [...]}。'),
    ({"refs": [GOOD, 3]}, "refs_bad_json", '第 2 个参考牌要是带 "image"、"xyxy" 和 "tile" 的对象。'),
    ({"refs": [{**GOOD, "image": ""}]}, "refs_bad_json", '第 1 个参考牌的 "image" 要是一张照片的路径。'),
    ({"refs": [GOOD, {**GOOD, "xyxy": [1, 2]}]}, "refs_bad_json",
     '第 2 个参考牌的 "xyxy" 要是四个数 [x0, y0, x1, y1]。'),
    ({"refs": [{**GOOD, "tile": 6}]}, "refs_bad_tile", '第 1 个参考牌的 "tile" 要是牌名，比如 "6m"。'),
    ({"refs": [GOOD, GOOD, {**GOOD, "tile": "10m"}]}, "refs_bad_tile", '第 3 个参考牌的 "10m" 不是牌名。'),
    ({"refs": [GOOD] * 2001}, "refs_too_many", "参考牌有 2001 个：最多读 2000 个。"),
    (MANY_PHOTOS, "refs_too_many", "参考牌来自 101 张照片：最多 100 张。"),
]  # fmt: skip


@pytest.mark.parametrize(("doc", "code", "zh"), REFS_FAULTS)
def test_a_refs_fault_in_chinese_names_what_the_english_names(doc, code, zh):
    e = _refs(doc)
    said = detect_errors.error_object(str(e), e.code, "zh", e.case, {"file": "r.json", **e.fields})
    assert said == {"error": zh, "code": code, "detail": str(e)}
    if m := re.match(r"reference (\d+)", str(e)):  # the same reference, counting from 1
        assert zh.startswith(f"第 {m[1]} 个参考牌")


def test_a_ref_given_a_key_twice_is_named():
    e = _refs('{"refs": [{"image": "a.jpg", "xyxy": [0, 0, 9, 9], "tile": "1m", "tile": "2m"}]}')
    said = detect_errors.error_object(str(e), e.code, "zh", e.case, e.fields)
    assert said["error"] == '第 1 个参考牌把键 "tile" 写了两次：只写一次。'
    assert said["detail"] == 'reference 1 gives the key "tile" twice: give it once'


# --- end to end, in zh: real failures through `jxmj detect` / `jxmj photo` ---


@pytest.fixture
def jx(models_env, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # an English locale: --lang decides

    def run(*argv: str) -> tuple[int, dict]:
        rc = cli.main(list(argv))
        return rc, json.loads(capsys.readouterr().out)

    return run


def _png(path: Path, w: int, h: int) -> str:
    path.write_bytes(encode(np.full((h, w, 3), 90, np.uint8), "PNG"))
    return str(path)


@pytest.mark.parametrize("command", [("detect",), ("photo", "--variant", "xingzi", "--json")])
@pytest.mark.parametrize("where", ["before", "after"])
def test_a_missing_photo_in_chinese(jx, tmp_path, command, where):
    photo = str(tmp_path / "gone.jpg")
    argv = [*command, "--lang", "zh", photo] if where == "before" else [*command, photo, "--lang", "zh"]
    rc, out = jx(*argv)
    assert rc == 2
    assert out == {"error": f"找不到文件 {photo}。", "code": "no_file", "detail": f"no such file: {photo}"}


@pytest.fixture(scope="module")
def shipped_crop_models(tmp_path_factory, scene):
    """Stand-in models with the shipped classifier's crop height (64 px: a tile needs 32 px)."""
    where = testing.build_models(tmp_path_factory.mktemp("models64"), scene, SCENE_SIZE)
    testing.build_classifier(where / CLASSIFIER_FILE, size=(64, 44), embedding=True)  # reads with refs
    return where


def test_a_photo_too_small_in_chinese(jx, tmp_path, shipped_crop_models, monkeypatch):
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(shipped_crop_models))
    photo = _png(tmp_path / "small.png", 60, 24)
    zh = f"{photo} 太小，看不清牌：60×24 像素（每边至少要 32 像素）。"
    rc, out = jx("detect", photo, "--lang", "zh")
    assert rc == 2 and out["code"] == "too_small" and out["error"] == zh
    assert out["detail"] == "image is too small to hold a readable tile: 60x24 pixels (need 32+ on each side)"
    rc, out = jx("photo", photo, "--variant", "jiujiang", "--json", "--lang", "zh")
    assert (rc, out["code"], out["error"]) == (2, "too_small", zh)


def test_refs_with_a_key_twice_in_chinese(jx, tmp_path):
    photo = _png(tmp_path / "hand.png", 64, 64)
    refs = tmp_path / "refs.json"
    refs.write_text(
        '{"refs": [{"image": "hand.png", "xyxy": [0, 0, 9, 9], "tile": "1m", "xyxy": [1, 1, 9, 9]}]}'
    )
    rc, out = jx("detect", "--lang", "zh", photo, "--refs", str(refs))
    assert rc == 2 and out["code"] == "refs_bad_json"
    assert out["error"] == '第 1 个参考牌把键 "xyxy" 写了两次：只写一次。'
    assert out["detail"] == 'reference 1 gives the key "xyxy" twice: give it once'
    refs.write_text('{"refs": [], "refs": []}')
    rc, out = jx("photo", photo, "--variant", "xinyu", "--json", "--refs", str(refs), "--lang", "zh")
    assert (rc, out["code"]) == (2, "refs_bad_json")
    assert out["error"] == f'参考牌文件 {refs} 里有一个对象把键 "refs" 写了两次：只写一次。'


def test_a_reference_photo_missing_or_a_box_outside_in_chinese(
    jx, tmp_path, shipped_crop_models, monkeypatch
):
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(shipped_crop_models))
    photo = _png(tmp_path / "hand.png", 64, 64)
    refs = tmp_path / "refs.json"
    refs.write_text(json.dumps({"refs": [GOOD | {"image": "hand.png"}, GOOD | {"image": "gone.jpg"}]}))
    rc, out = jx("detect", photo, "--refs", str(refs), "--lang", "zh")
    gone = tmp_path / "gone.jpg"
    assert (rc, out["code"]) == (2, "ref_photo_unreadable")
    assert out["error"] == f"第 2 个参考牌的照片用不了：找不到文件 {gone}。"
    assert out["detail"] == f"reference 2: the photo {gone} cannot be read: no such file: {gone}"
    refs.write_text(json.dumps({"refs": [GOOD | {"image": "hand.png", "xyxy": [0, 0, 99, 9]}]}))
    rc, out = jx("detect", photo, "--refs", str(refs), "--lang", "zh")
    assert (rc, out["code"]) == (2, "ref_box_outside")
    assert out["error"] == "第 1 个参考牌的框 [0.0, 0.0, 99.0, 9.0] 不在照片 hand.png（64×64）里面。"
    assert out["detail"] == "reference 1: the box [0.0, 0.0, 99.0, 9.0] is not inside hand.png (64x64)"


def test_refs_with_a_classifier_that_cannot_embed_in_chinese(jx, tmp_path):
    photo = _png(tmp_path / "hand.png", 64, 64)
    refs = tmp_path / "refs.json"
    refs.write_text(json.dumps({"refs": [GOOD | {"image": "hand.png"}]}))
    rc, out = jx("detect", photo, "--refs", str(refs), "--lang", "zh")
    assert (rc, out["code"]) == (2, "refs_unsupported")
    assert out["error"].startswith("识别模型 classifier.onnx 不能用参考牌来读")


def test_english_is_unchanged_and_the_locale_decides_without_lang(jx, tmp_path, monkeypatch):
    photo = str(tmp_path / "gone.jpg")
    assert jx("detect", photo) == (2, {"error": f"no such file: {photo}", "code": "no_file"})
    assert jx("detect", photo, "--lang", "en")[1] == {"error": f"no such file: {photo}", "code": "no_file"}
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert jx("detect", photo)[1]["error"] == f"找不到文件 {photo}。"
    assert jx("photo", photo, "--variant", "xinyu", "--json", "--lang", "en")[1]["error"].startswith(
        "no such"
    )


@pytest.mark.parametrize(
    ("argv", "detail"),
    [
        (["detect", "--lang", "zh"], "jxmj detect: the following arguments are required: image"),
        (["detect", "x.png", "--lang", "zh", "--conf", "2"], "jxmj detect: argument --conf: must lie in"),
        (["photo", "x.jpg", "--json", "--lang", "zh"], "jxmj photo: the following arguments are required"),
    ],
)
def test_usage_errors_in_chinese(argv, detail, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C")
    assert cli.main(argv) == 2
    out = json.loads(capsys.readouterr().out)
    assert out == {"error": ZH["detect.bad_usage"], "code": "bad_usage", "detail": out["detail"]}
    assert out["detail"].startswith(detail)


def test_photo_without_json_says_it_in_chinese_then_english(models_env, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C")
    photo = str(tmp_path / "gone.jpg")
    assert cli.main(["photo", photo, "--variant", "xingzi", "--lang", "zh"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"jxmj photo: 找不到文件 {photo}。", f"  no such file: {photo}"]
    assert cli.main(["photo", photo, "--lang", "zh"]) == 2  # a usage error: the same two lines
    err = capsys.readouterr().err.splitlines()
    assert err[-2:] == [
        f"jxmj photo: {ZH['detect.bad_usage']}",
        "jxmj photo: the following arguments are required: --variant",
    ]


def test_photo_without_tiles_and_a_hand_that_cannot_be_scored_in_chinese(jx, tmp_path, scene_pixels):
    blank = tmp_path / "blank.jpg"
    blank.write_bytes(encode(np.full((480, 640, 3), (30, 90, 40), np.uint8), "JPEG"))
    rc, out = jx("photo", str(blank), "--variant", "xingzi", "--json", "--lang", "zh")
    assert (rc, out["code"], out["error"], out["detail"]) == (
        2, "no_tiles", "照片里没有找到牌。", "no tiles found in the photo"
    )  # fmt: skip
    assert "detect" in out  # the rest of the object as in en
    hand = tmp_path / "hand.png"
    hand.write_bytes(encode(scene_pixels, "PNG"))
    rc, out = jx("photo", str(hand), "--variant", "xingzi", "--json", "--winning-tile", "0x", "--lang", "zh")
    assert rc == 2 and out["code"] in SCORING_CODES and {"detect", "hand", "notes"} <= set(out)
    assert out["error"] == "照片读出的这手牌算不了分：" + ZH[f"code.{out['code']}"]
    assert out["detail"].startswith("the hand read from the photo cannot be scored: ")


def test_an_annotate_target_that_is_the_photo_in_chinese(jx, tmp_path):
    photo = _png(tmp_path / "hand.png", 64, 64)
    rc, out = jx("detect", photo, "--annotate", photo, "--lang", "zh")
    assert (rc, out["code"]) == (2, "annotate_onto_input")
    assert out["error"] == f"--annotate {photo} 就是输入的照片：请换个文件名（或加 --force）。"
    rc, out = jx("detect", photo, "--annotate", str(tmp_path / "none" / "a.png"), "--lang", "zh")
    assert out["error"] == f"--annotate {tmp_path / 'none' / 'a.png'}：文件夹 {tmp_path / 'none'} 不存在。"
    assert detect_errors.MISSING not in out["error"]
