"""`jxmj detect`: JSON per docs/detect-json.md, --annotate, and a clean exit 2 for every bad image."""

from __future__ import annotations

import io
import json
import os

import numpy as np
import pytest
from PIL import Image

from app import cli, cmd_detect
from tests.vision.conftest import encode, huge_png
from tests.vision.jpeg_bombs import exif_padded, scan_bomb


def run_cli(capsys, *argv):
    status = cli.main(["detect", *argv])
    out = capsys.readouterr()
    return status, json.loads(out.out), out.err


def test_detect_prints_the_contract_json(models_env, scene, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    status, j, err = run_cli(capsys, str(photo))
    assert status == 0 and err == ""
    assert j["image"] == {"width": 1600, "height": 1200}
    assert len(j["detections"]) == len(scene)
    assert {"decode", "detect", "classify"} <= set(j["timing_ms"])
    assert [g["kind_guess"] for g in j["groups"]] == [
        "pung",
        "concealed_kong",
        "bonus",
        "hand",
        "winning_tile",
    ]


def test_detect_annotate_writes_a_png(models_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(encode(scene_pixels, "JPEG", quality=95))
    out = tmp_path / "out.png"
    status, j, _ = run_cli(capsys, str(photo), "--annotate", str(out))
    assert status == 0 and j["detections"]
    im = Image.open(out)
    assert im.format == "PNG" and im.size[0] > 100


def animated_gif() -> bytes:
    frames = [Image.new("RGB", (64, 48), c) for c in ((10, 20, 30), (200, 0, 0))]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=50, loop=0)
    return buf.getvalue()


def animated_webp() -> bytes:
    frames = [Image.new("RGB", (64, 48), c) for c in ((10, 20, 30), (200, 0, 0))]
    buf = io.BytesIO()
    frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=50)
    return buf.getvalue()


def jpeg_truncated() -> bytes:
    data = encode(np.random.default_rng(0).integers(0, 255, (300, 400, 3), np.uint8), "JPEG")
    return data[: len(data) // 3]


def sixteen_bit_png() -> bytes:
    return encode(Image.fromarray(np.full((64, 64), 30000, np.uint16)), "PNG")


BAD = {
    "not_an_image": lambda: b"%PDF-1.4 not a photo",
    "truncated_jpeg": jpeg_truncated,
    "zero_bytes": lambda: b"",
    "one_by_one": lambda: encode(np.zeros((1, 1, 3), np.uint8), "PNG"),
    "20000x20000_png": huge_png,
    "animated_gif": animated_gif,  # not a format phones make: refused by name
    "scan_bomb": lambda: scan_bomb(5000, (1000, 1000)),  # 5,000 progressive scans: minutes per MB
    "exif_padded": lambda: exif_padded(64),  # 64 EXIF blocks: Pillow's joining is quadratic
}
BAD_CODES = {  # docs/detect-json.md "Errors"
    "not_an_image": "unsupported_format",
    "truncated_jpeg": "corrupt",
    "zero_bytes": "empty",
    "one_by_one": "too_small",
    "20000x20000_png": "too_many_pixels",
    "animated_gif": "unsupported_format",
    "scan_bomb": "too_many_scans",
    "exif_padded": "too_much_metadata",
}

NO_TILES = {  # valid images without tiles: a sane empty result
    "grayscale": lambda: encode(Image.new("L", (320, 240), 60), "PNG"),
    "cmyk": lambda: encode(Image.new("CMYK", (320, 240), (0, 0, 0, 200)), "JPEG"),
    "rgba": lambda: encode(Image.new("RGBA", (320, 240), (0, 0, 0, 255)), "PNG"),
    "16_bit_png": sixteen_bit_png,
    "animated_webp": animated_webp,
    "photo_without_tiles": lambda: encode(np.full((480, 640, 3), (30, 90, 40), np.uint8), "JPEG"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_image_exits_2_with_an_error(models_env, name, tmp_path, capsys):
    p = tmp_path / "in.img"
    p.write_bytes(BAD[name]())
    status, j, err = run_cli(capsys, str(p))
    assert status == 2
    assert set(j) == {"error", "code"} and j["error"] and j["code"] == BAD_CODES[name]
    assert "Traceback" not in err


@pytest.mark.parametrize("name", list(NO_TILES))
def test_odd_but_valid_images_give_an_empty_result(models_env, name, tmp_path, capsys):
    p = tmp_path / "in.img"
    p.write_bytes(NO_TILES[name]())
    status, j, err = run_cli(capsys, str(p))
    assert status == 0, j
    assert j["detections"] == [] and j["groups"] == []
    assert "Traceback" not in err


def test_missing_file(models_env, tmp_path, capsys):
    status, j, _ = run_cli(capsys, str(tmp_path / "nope.jpg"))
    assert status == 2 and "no such file" in j["error"]


def test_stdin(models_env, scene_pixels, monkeypatch, capsys):
    data = encode(scene_pixels, "PNG")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, j, _ = run_cli(capsys, "-")
    assert status == 0 and len(j["detections"]) > 10


def test_missing_models_exit_1_with_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(tmp_path))
    p = tmp_path / "x.png"
    p.write_bytes(encode(np.zeros((64, 64, 3), np.uint8), "PNG"))
    status, j, _ = run_cli(capsys, str(p))
    assert status == 1 and "localizer.onnx" in j["error"]


def test_full_resolution_option_gives_the_same_boxes(models_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(encode(scene_pixels, "JPEG", quality=95))
    _, fast, _ = run_cli(capsys, str(photo))
    _, full, _ = run_cli(capsys, str(photo), "--full-resolution")
    assert len(fast["detections"]) == len(full["detections"])
    for a, b in zip(fast["detections"], full["detections"], strict=True):
        assert np.allclose(a["xyxy"], b["xyxy"], atol=4)


def test_a_closed_pipe_is_not_a_traceback():
    import subprocess
    import sys

    code = "from app.cliio import emit; emit('x' * 2_000_000)"  # more than a pipe holds
    cmd = f"'{sys.executable}' -c \"{code}\" | head -c 10"
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert out.stdout == "x" * 10
    assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr


@pytest.mark.parametrize("value", ["-1", "5", "nan", "inf", "abc", "0", "1e-320", "0.001", "1", "0.995"])
def test_conf_outside_its_range_is_a_usage_error_naming_the_range(value, capsys):
    """0 and 1e-320 kept every box (up to max_detections), 1 only scores rounded up to 1."""
    status, j, err = run_cli(capsys, "x.png", "--conf", value)
    assert status == 2 and j["code"] == "bad_usage" and "argument --conf" in j["error"]
    assert "usage: jxmj detect" in err
    if value not in ("abc",):
        assert j["error"] == f"jxmj detect: argument --conf: must lie in 0.01..0.99, got {value}"


@pytest.mark.parametrize("command", ["detect", "photo"])
def test_conf_range_in_the_help_is_the_readers(command, capsys):
    from vision.boxes import LIMITS

    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    lo, hi = LIMITS["conf_threshold"]
    assert f"minimum localizer score, {lo:g}..{hi:g} (default 0.3)" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0.01", "0.99", "0.3"])
def test_conf_at_the_ends_of_its_range_is_taken(value):
    assert cmd_detect.conf_value(value) == float(value)


@pytest.mark.parametrize(
    ("target", "fragment"),
    [
        ("", "image file name"),
        ("DIR", "image file name"),
        ("out.txt", "must end in"),
        ("no/such/x.png", "folder"),
    ],
)
def test_annotate_path_is_checked_before_detecting(
    models_env, scene_pixels, tmp_path, capsys, target, fragment
):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    out = {"DIR": str(tmp_path), "": ""}.get(target, str(tmp_path / target))
    status, j, _ = run_cli(capsys, str(photo), "--annotate", out)
    assert status == 2
    assert fragment in j["error"]


def test_stdin_stream_larger_than_the_byte_limit_is_refused(models_env, monkeypatch, capsys):
    from vision import image

    monkeypatch.setattr(image, "MAX_BYTES", 1000)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\0" * 5000)))
    status, j, _ = run_cli(capsys, "-")
    assert status == 2
    assert "too large" in j["error"]


# -- --annotate never overwrites the input photo; the write is atomic --------


@pytest.mark.parametrize("how", ["same_path", "symlink_to_input", "hard_link", "relative_path"])
def test_annotate_refuses_to_write_onto_the_input(
    models_env, scene_pixels, tmp_path, capsys, how, monkeypatch
):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    before = photo.read_bytes()
    target = {"same_path": photo, "relative_path": photo, "symlink_to_input": tmp_path / "link.png"}.get(
        how, tmp_path / "hard.png"
    )
    if how == "symlink_to_input":
        target.symlink_to(photo)
    elif how == "hard_link":
        target.hardlink_to(photo)
    elif how == "relative_path":
        monkeypatch.chdir(tmp_path)
        target = "./hand.png"
    status, j, _ = run_cli(capsys, str(photo), "--annotate", str(target))
    assert status == 2 and "is the input photo" in j["error"] and "--force" in j["error"]
    assert photo.read_bytes() == before


def test_annotate_refuses_any_symlink(models_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    (tmp_path / "elsewhere.png").write_bytes(b"precious")
    (tmp_path / "out.png").symlink_to(tmp_path / "elsewhere.png")
    status, j, _ = run_cli(capsys, str(photo), "--annotate", str(tmp_path / "out.png"))
    assert status == 2 and "symbolic link" in j["error"]
    assert (tmp_path / "elsewhere.png").read_bytes() == b"precious"


def test_annotate_with_force_replaces_the_input_and_keeps_a_symlinks_target(
    models_env, scene_pixels, tmp_path, capsys
):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    link = tmp_path / "link.png"
    link.symlink_to(photo)
    before = photo.read_bytes()
    status, _, _ = run_cli(capsys, str(photo), "--annotate", str(link), "--force")
    assert status == 0
    assert not link.is_symlink() and Image.open(link).format == "PNG"  # the link was replaced ...
    assert photo.read_bytes() == before  # ... never written through
    status, _, _ = run_cli(capsys, str(photo), "--annotate", str(photo), "--force")
    assert status == 0 and photo.read_bytes() != before


def test_annotate_is_atomic_when_writing_fails(models_env, scene_pixels, tmp_path, capsys, monkeypatch):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    out = tmp_path / "boxes.png"
    out.write_bytes(b"the old annotation")

    def failing_save(self, fp, *args, **kwargs):
        fp.write(b"half a PNG")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Image.Image, "save", failing_save)
    status, j, _ = run_cli(capsys, str(photo), "--annotate", str(out))
    assert status == 2 and j == {
        "error": f"cannot write {out}: [Errno 28] No space left on device",
        "code": "annotate_not_written",
    }
    assert out.read_bytes() == b"the old annotation"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boxes.png", "hand.png"]  # no temp file left


def test_annotate_writes_an_ordinary_file(models_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(encode(scene_pixels, "JPEG"))
    old = os.umask(0o022)
    try:
        status, _, _ = run_cli(capsys, str(photo), "--annotate", str(tmp_path / "a.webp"))
    finally:
        os.umask(old)
    assert status == 0 and Image.open(tmp_path / "a.webp").format == "WEBP"
    assert (tmp_path / "a.webp").stat().st_mode & 0o777 == 0o644


# --refs (docs/detect-json.md "--refs"; the reading itself: tests/vision/test_refs.py)


@pytest.fixture(scope="module")
def embedding_models(tmp_path_factory, scene):
    """The stand-ins, the classifier with its `embedding` output (models 0.6.3 on)."""
    from vision import testing
    from vision.modelfiles import CLASSIFIER_FILE

    d = testing.build_models(tmp_path_factory.mktemp("emb_models"), scene, (1600, 1200))
    testing.build_classifier(d / CLASSIFIER_FILE, size=(48, 32), embedding=True)
    return d


@pytest.fixture
def embedding_env(embedding_models, monkeypatch):
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(embedding_models))
    return embedding_models


def write_refs(path, refs) -> str:
    path.write_text(json.dumps({"refs": refs}))
    return str(path)


def test_empty_refs_print_the_same_json_as_without(embedding_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    refs = write_refs(tmp_path / "refs.json", [])
    status, plain, _ = run_cli(capsys, str(photo))
    status2, with_refs, _ = run_cli(capsys, str(photo), "--refs", refs)
    assert status == status2 == 0
    plain.pop("timing_ms"), with_refs.pop("timing_ms")
    assert json.dumps(plain) == json.dumps(with_refs)


@pytest.mark.parametrize(
    "refs, code",
    [
        ([{"image": "gone.jpg", "xyxy": [0, 0, 10, 10], "tile": "1m"}], "ref_photo_unreadable"),
        ([{"image": "hand.png", "xyxy": [0, 0, 1700, 10], "tile": "1m"}], "ref_box_outside"),
        ([{"image": "hand.png", "xyxy": [0, 0, 10, 10], "tile": "10m"}], "refs_bad_tile"),
        ([{"image": "hand.png", "xyxy": [0, 0, 10], "tile": "1m"}], "refs_bad_json"),
    ],
)
def test_unusable_refs_exit_2_with_a_code(embedding_env, scene_pixels, tmp_path, capsys, refs, code):
    (tmp_path / "hand.png").write_bytes(encode(scene_pixels, "PNG"))
    sub = tmp_path / "table"
    sub.mkdir()
    for r in refs:  # relative to REFS.json's folder
        r["image"] = "../" + r["image"]
    status, j, _ = run_cli(capsys, str(tmp_path / "hand.png"), "--refs", write_refs(sub / "refs.json", refs))
    assert status == 2 and j["code"] == code and set(j) == {"error", "code"}
    assert j["error"].startswith("reference 1: ")  # counted from 1, as hands and melds (was "reference 0")
    assert code in cmd_detect.REFS_ERROR_CODES


def test_refs_file_missing_or_not_json(embedding_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    status, j, _ = run_cli(capsys, str(photo), "--refs", str(tmp_path / "nope.json"))
    assert status == 2 and j["code"] == "refs_unreadable"
    (tmp_path / "bad.json").write_text("{refs")
    status, j, _ = run_cli(capsys, str(photo), "--refs", str(tmp_path / "bad.json"))
    assert status == 2 and j["code"] == "refs_bad_json"


def test_refs_with_a_classifier_without_embedding_is_a_coded_error(
    models_env, scene, scene_pixels, tmp_path, capsys
):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    refs = write_refs(
        tmp_path / "refs.json", [{"image": "hand.png", "xyxy": list(scene[0][0]), "tile": scene[0][1]}]
    )
    status, j, _ = run_cli(capsys, str(photo), "--refs", refs)
    assert status == 2 and j["code"] == "refs_unsupported" and "embedding" in j["error"]


def test_photo_takes_refs_too(embedding_env, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    refs = write_refs(tmp_path / "refs.json", [{"image": "gone.jpg", "xyxy": [0, 0, 9, 9], "tile": "1m"}])
    status = cli.main(["photo", str(photo), "--variant", "xingzi", "--json", "--refs", refs])
    j = json.loads(capsys.readouterr().out)
    assert status == 2 and j["code"] == "ref_photo_unreadable"


def test_refs_of_the_photo_itself_read_it_as_without(embedding_env, scene, scene_pixels, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(scene_pixels, "PNG"))
    status, plain, _ = run_cli(capsys, str(photo))
    refs = [{"image": "hand.png", "xyxy": d["xyxy"], "tile": d["tile"]} for d in plain["detections"]]
    status2, j, _ = run_cli(capsys, str(photo), "--refs", write_refs(tmp_path / "refs.json", refs))
    assert status == status2 == 0
    assert [d["tile"] for d in j["detections"]] == [d["tile"] for d in plain["detections"]]
    assert len(refs) == len(scene)


def test_refs_codes_are_the_readers():
    from vision.refs import ERROR_CODES

    assert cmd_detect.REFS_ERROR_CODES == ERROR_CODES


def test_every_refs_error_code_is_documented():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "detect-json.md").read_text()
    section = doc.split("## `--refs`", 1)[1]
    table = set(re.findall(r"^\s*\| `([a-z_]+)` \|", section, re.M))
    assert table == set(cmd_detect.REFS_ERROR_CODES)
