"""The settlement picture (结算图, `app.settle_png`): a phone-wide PNG of the evening, the same bytes
from the 牌局 page's download and `jxmj table settle CODE --png FILE`, names written as glyphs (never
the font's .notdef box), in zh and en, for a table with no hand too; no CJK font is said by a code."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from app import picture_fonts
from app.picture_fonts import NOTDEF, Fonts, PictureError, font_files, has_glyph
from app.settle_png import WIDTH, draw, settle_png, wrap
from app.ui import i18n
from ledger import Table
from ledger.store import open_store
from tests.ledger.util import json_hand

ROOT = Path(__file__).resolve().parents[2]
SUBSET = ROOT / "vision" / "fonts" / "TileLabels-DroidSansFallback-subset.ttf"  # 一..九, no 张
SEATS = ("张三", "李四", "王五", "赵六")
HAND = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}  # 3 炮 on a discard, 4 self-drawn
ZH, EN = i18n.catalog("zh"), i18n.catalog("en")


def needs_cjk_font() -> None:
    if not font_files():
        pytest.skip("needs a CJK font (Debian: fonts-noto-cjk or fonts-wqy-microhei)")


@pytest.fixture
def store(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    monkeypatch.setenv("JXMJ_DB", url)
    s = open_store(url)
    yield s
    s.close()


def _evening(store, title: str = "周五晚上", seats=SEATS) -> str:
    code = store.create_table(Table("jiujiang", seats, title=title)).table.code
    store.append(code, json_hand(store, code, {"seat": 1, "discarder": 2, "hand": HAND}))  # 李四 +3 from 王五
    store.append(
        code, json_hand(store, code, {"kind": "drawn", "follow": {"followed": True}})
    )  # 跟庄: the next hand x2
    store.append(
        code, json_hand(store, code, {"seat": 0, "hand": HAND})
    )  # 张三 self-draws at x2: +24, the others -8
    return code


def _chunks(png: bytes) -> list[bytes]:
    """The PNG's chunk types, in order."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        out.append(png[at + 4 : at + 8])
        at += 12 + length
    return out


def _cli(url: str, code: str, out: Path, *more: str) -> subprocess.CompletedProcess:
    """`jxmj table settle CODE --png OUT` as a process (a fresh interpreter: nothing shared)."""
    return subprocess.run(
        [sys.executable, "-m", "app", "table", "settle", code, "--png", str(out), *more],
        capture_output=True, timeout=120, cwd=ROOT,
        env={**os.environ, "JXMJ_DB": url, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip


def test_the_subset_font_lacks_the_names_and_the_check_sees_it():
    """The .notdef comparison, on the repository's own font (no system font needed): the 4.6 KB
    subset has 一..九 and no 张, so 张 is found in no font and written as ?, said in `missing`."""
    path = str(SUBSET)
    assert has_glyph(path, "一") and has_glyph(path, "九") and has_glyph(path, " ")
    assert not has_glyph(path, "张") and not has_glyph(path, NOTDEF)
    fonts = Fonts((path,))
    assert fonts.file_for("三") == path and fonts.file_for("张") is None
    assert [part for part, _ in fonts.runs("张三", 30)] == ["?三"]  # never a box
    assert fonts.missing == ["张"]


def test_no_cjk_font_is_said_by_its_code_and_nothing_is_locked(store, monkeypatch, tmp_path, capsys):
    from app import cli

    code = _evening(store)
    monkeypatch.setattr(picture_fonts, "CANDIDATES", ())
    monkeypatch.delenv(picture_fonts.FONT_ENV, raising=False)
    assert font_files() == ()
    with pytest.raises(PictureError) as e:
        settle_png(store.get(code).ledger(), "zh")
    assert e.value.code == "no_font" and "fonts-noto-cjk" in e.value.message
    out = tmp_path / "s.png"
    assert cli.main(["table", "--lang", "zh", "settle", code, "--lock", "--png", str(out)]) == 2
    said = capsys.readouterr().out
    assert '"code": "no_font"' in said and ZH["ledger.no_font"] in said and "fonts-noto-cjk" in said
    assert not out.exists() and not store.get(code).table.locked
    monkeypatch.setenv(picture_fonts.FONT_ENV, str(SUBSET))  # a font named in $JXMJ_FONT is taken
    assert font_files() == (str(SUBSET),)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_picture_is_phone_wide_plain_png_in_the_page_language(store, lang):
    needs_cjk_font()
    words = i18n.catalog(lang)
    ledger = store.get(_evening(store)).ledger()
    png = settle_png(ledger, lang)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.mode == "RGB" and img.width == WIDTH == 1080
    assert 1400 <= img.height <= 2200  # one phone screen and a bit: no hands listed
    assert set(_chunks(png)) == {b"IHDR", b"IDAT", b"IEND"}  # no time, no text: the same bytes every time
    assert settle_png(ledger, lang) == png
    texts = [text for text, _ in draw(ledger, lang).drawn]
    assert texts[0] == "周五晚上"
    variant, base = words["variant.jiujiang"], words["table.base_is"].format(base=1)
    day = ledger.table.created.astimezone().date()
    date = words["picture.date"].format(y=day.year, m=day.month, d=day.day)
    assert texts[1] == f"{date} · {variant} · {base} · " + words["picture.hands"].format(n=3)
    assert texts[2:10] == ["张三", "+24", "李四", "-5", "王五", "-11", "赵六", "-8"]
    assert words["table.settlement"] in texts and words["table.chart"] in texts
    at = texts.index(words["table.settlement"])
    assert texts[at + 1 : at + 4] == ["王五 → 张三 11", "赵六 → 张三 8", "李四 → 张三 5"]  # the page's lines
    assert words["table.hand_axis"] in texts and words["table.total_axis"] in texts  # the chart's axes
    assert texts[-1] == words["picture.footer"].format(code=ledger.table.code)
    hands = [text for text, _ in draw(ledger, lang, hands=True).drawn]
    assert words["table.history"] in hands and words["table.history"] not in texts
    won = words["table.won_off"].format(who="李四", off="王五")
    assert f"1. {won} · " + words["table.dealer_short"].format(name="张三") + " · 李四 +3 · 王五 -3" in hands


def test_names_are_written_as_glyphs_not_boxes(store):
    """Each name's box on the picture has ink, and what is drawn there is not the font's .notdef
    glyph: the same text in .notdef boxes looks different."""
    needs_cjk_font()
    canvas = draw(store.get(_evening(store)).ledger(), "zh")
    assert canvas.fonts.missing == []
    assert all(canvas.fonts.file_for(ch) for name in SEATS for ch in name)
    boxes = [(text, box) for text, box in canvas.drawn if text in SEATS]
    assert [text for text, _ in boxes[:4]] == list(SEATS)  # the totals; the legend's again
    for name, box in boxes:
        crop = canvas.img.crop(box).convert("L")
        assert crop.getextrema()[0] < 100  # ink: the name is drawn, not blank
        (part, font), *_ = canvas.fonts.runs(name, 38)
        boxed = Image.new("L", (400, 80), 255)
        ImageDraw.Draw(boxed).text((0, 60), NOTDEF * len(name), font=font, fill=0, anchor="ls")
        glyphs = Image.new("L", (400, 80), 255)
        ImageDraw.Draw(glyphs).text((0, 60), part, font=font, fill=0, anchor="ls")
        assert ImageChops.difference(boxed, glyphs).getbbox() is not None


def test_a_character_no_font_has_is_written_as_a_question_mark_and_said(store):
    needs_cjk_font()
    rare = "\U0001f004"  # 🀄, a nickname's mahjong tile: no CJK font has the emoji
    if any(has_glyph(f, rare) for f in font_files()):
        pytest.skip("needs a machine whose CJK fonts lack U+1F004")
    seats = (f"{rare}张三", *SEATS[1:])
    canvas = draw(store.get(_evening(store, seats=seats)).ledger(), "zh")
    assert canvas.fonts.missing == [rare]
    texts = [text for text, _ in canvas.drawn]
    assert ZH["picture.missing"].format(chars="U+1F004") in texts  # was the very "?" it explains
    [box, *_] = [box for text, box in canvas.drawn if text == seats[0]]  # its total card first
    assert canvas.img.crop(box).convert("L").getextrema()[0] < 100  # "?张三": the name still there


def test_a_table_with_no_hand(store):
    needs_cjk_font()
    code = store.create_table(Table("xinyu", SEATS)).table.code
    ledger = store.get(code).ledger()
    for lang, words in (("zh", ZH), ("en", EN)):
        canvas = draw(ledger, lang, hands=True)
        texts = [text for text, _ in canvas.drawn]
        assert texts[0] == words["table.untitled"]
        assert texts[2:10] == ["张三", "0", "李四", "0", "王五", "0", "赵六", "0"]
        assert words["table.all_square"] in texts and words["picture.no_hands"] in texts
        assert words["table.hand_axis"] not in texts and words["table.history"] not in texts  # no chart
        assert 800 <= Image.open(io.BytesIO(canvas.png())).height <= 1200


@pytest.mark.parametrize(("lang", "more"), [("zh", ()), ("en", ("--hands",))])
def test_the_app_and_the_cli_write_the_same_bytes(store, tmp_path, lang, more):
    needs_cjk_font()
    from app.ui.table import settle_view

    code = _evening(store)
    out = tmp_path / "s.png"
    done = _cli(str(store.engine.url), code, out, "--lang", lang, *more)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    assert f'"png": "{out}"'.encode() in done.stdout and b'"lines": [' in done.stdout
    app = settle_view.picture_file(store.get(code).ledger(), lang, bool(more))()
    assert out.read_bytes() == app
    assert app != settle_view.picture_file(store.get(code).ledger(), lang, not more)()


def test_the_cli_writes_no_picture_onto_the_ledger(store, capsys):
    needs_cjk_font()
    from app import cli

    code = _evening(store)
    db = str(store.engine.url).removeprefix("sqlite:///")
    assert cli.main(["table", "--lang", "en", "settle", code, "--png", db]) == 2
    assert '"code": "output_is_store"' in capsys.readouterr().out
    assert len(store.get(code).hands) == 3  # the ledger whole


def _page(code: str, lang: str):
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.usefixtures("fresh_store")
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_page_offers_the_picture_beside_the_settlement(lang):
    """One tap: a download button under the transfers, in the page's language (the picture is
    made on the tap, never on a run)."""
    needs_cjk_font()
    words = i18n.catalog(lang)
    code = _evening(open_store())
    at = _page(code, lang)
    [button] = [b for b in at.get("download_button") if b.proto.label == words["table.picture"]]
    assert button.proto.id.endswith("tb_png")
    assert button.proto.deferred_file_id and not button.proto.url  # made on the tap, not on the run
    assert words["table.picture_hands"] in [c.label for c in at.checkbox]
    assert not [c for c in at.caption if c.value.startswith(words["table.picture_no_font"][:6])]


@pytest.mark.usefixtures("fresh_store")
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_server_without_a_cjk_font_says_so_where_the_picture_would_be(lang, monkeypatch):
    words = i18n.catalog(lang)
    code = _evening(open_store())
    monkeypatch.setattr("app.ui.table.settle_view.font_files", lambda: ())
    at = _page(code, lang)
    assert not [b for b in at.get("download_button") if b.proto.label == words["table.picture"]]
    said = words["table.picture_no_font"].format(package="fonts-noto-cjk", env="JXMJ_FONT")
    assert said in [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_longest_names_and_title_stay_on_the_page(store, lang):
    """24-character names and an 80-character title are written smaller or over more lines: every
    text inside the page's width, nothing cut at its foot."""
    needs_cjk_font()
    seats = tuple(name * 12 for name in SEATS)  # 24 characters, the most a name may have
    canvas = draw(store.get(_evening(store, title="周五晚上" * 20, seats=seats)).ledger(), lang, hands=True)
    img = Image.open(io.BytesIO(canvas.png()))
    assert img.width == WIDTH
    for text, (x0, _, x1, y1) in canvas.drawn:
        assert 0 <= x0 and x1 <= WIDTH - 30, (text, x1)
        assert y1 < img.height
    texts = [text for text, _ in canvas.drawn]
    assert "周五晚上" * 20 in {"".join(texts[:k]) for k in (2, 3, 4)}  # the title over a few lines
    assert texts[-1] == i18n.catalog(lang)["picture.footer"].format(code=canvas_code(canvas))


def canvas_code(canvas) -> str:
    return canvas.drawn[-1][0].rsplit(" ", 1)[-1]


PAGE_RUN = """
import os, tempfile
os.environ["JXMJ_DB"] = "sqlite:///" + tempfile.mkdtemp() + "/l.sqlite3"
from streamlit.testing.v1 import AppTest
from ledger import Table, read_hands
from ledger.store import open_store
table = Table("jiujiang", ("张三", "李四", "王五", "赵六"))
hand = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}
hands = read_hands(table, [{"seat": 1, "discarder": 2, "hand": hand}])
code = open_store().create_table(table, hands).table.code
at = AppTest.from_file("app/streamlit_app.py", default_timeout=60)
at.query_params["table"] = code
at.run()
assert not at.exception and at.get("download_button")
"""


def test_a_run_of_the_page_imports_no_pillow():
    """The settlement with its picture button costs the page's run nothing: Pillow and the
    drawing load on the tap (the first run of a page imports no Pillow: the README's figures)."""
    from tests.app.test_light_imports import heavy_after

    assert heavy_after(PAGE_RUN, {"PIL", "app"}) == "app"  # the page ran; no PIL
    assert heavy_after(PAGE_RUN + "\nimport app.settle_png", {"PIL"}) == "PIL"  # the probe sees it


def _wrap_measured_whole(fonts, text: str, size: int, width: int = WIDTH - 120, indent: str = "  "):
    """`app.settle_png.wrap` as it was: the line measured whole at every character."""
    lines, line = [], ""
    for char in text:
        if line.strip() and fonts.length(line + char, size) > width:
            cut = line.rfind(" ") if " " in line.strip() else -1
            line, rest = (line[:cut], line[cut + 1 :]) if cut > 2 else (line, "")
            lines.append(line)
            line = indent + rest + char
        else:
            line += char
    return [*lines, line] if line.strip() else lines


class _Counting(Fonts):
    measured = 0

    def length(self, text: str, size: int) -> float:
        self.measured += len(text)
        return super().length(text, size)


@pytest.mark.parametrize(
    "text",
    [
        "长" * 200,
        "W" * 200,
        "=HYPERLINK(1) " * 15,
        "12. 张三 胡 李四 的炮 · 王五 坐庄 · 张三 +3 · 李四 -3 " * 4,
        "a b" * 90,
    ],
)
def test_wrap_measures_a_long_line_a_few_times_not_at_every_character(text):
    """A 200-hand picture took ~12 s, half of it in `wrap` measuring its line whole at each
    character; now the characters' widths are summed and the line measured only near its end:
    the same lines."""
    needs_cjk_font()
    fonts = _Counting()
    assert wrap(fonts, text, 28) == _wrap_measured_whole(Fonts(), text, 28)
    assert fonts.measured < 8 * len(text)  # measured whole at every character: ~20x
