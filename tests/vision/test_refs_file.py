"""REFS.json as `jxmj detect --refs` reads it (`vision.refs.parse_refs`): the exact sentence of
each refusal, a reference named by its place counting from 1, a key given twice refused."""

from __future__ import annotations

import json

import pytest

from vision.refs import RefsError, check_box, parse_refs, position

GOOD = {"image": "a.jpg", "xyxy": [1, 2, 30, 40], "tile": "6m"}


def doc(*refs: str) -> str:
    """A REFS.json text of the references `refs`, each JSON text as written."""
    return '{"refs": [' + ", ".join(refs) + "]}"


ONE = json.dumps(GOOD)


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        (doc('{"image": "a.jpg"}'), "refs_bad_json",
         'reference 1 must be an object with "image", "xyxy" and "tile"'),
        (doc(ONE, '{"image": "", "xyxy": [1, 2, 3, 4], "tile": "6m"}'), "refs_bad_json",
         "reference 2: image must be a photo's path"),
        (doc(ONE, ONE, '{"image": "a.jpg", "xyxy": [1, 2, 3], "tile": "6m"}'), "refs_bad_json",
         "reference 3: xyxy must be four numbers [x0, y0, x1, y1]"),
        (doc('{"image": "a.jpg", "xyxy": [1, 2, 3, 4], "tile": "6x"}'), "refs_bad_tile",
         'reference 1: "6x" is not a tile code'),
        (doc(ONE, '{"image": "a.jpg", "xyxy": [1, 2, 3, 4], "tile": true}'), "refs_bad_tile",
         'reference 2: tile must be a tile code, a string such as "6m"'),  # was 'True' (Python's)
        (doc('{"image": "a.jpg", "xyxy": [0, 0, 1e400, 4], "tile": "6m"}'), "refs_bad_json",
         "reference 1: xyxy must be four numbers [x0, y0, x1, y1]"),  # was read as inf
        # a key given twice: refused, named (it was "the last one wins")
        ('{"refs": [], "refs": [' + ONE + "]}", "refs_bad_json",
         'the references give the key "refs" twice: give it once'),
        (doc(ONE, '{"image": "a.jpg", "xyxy": [1, 2, 3, 4], "tile": "6m", "tile": "7m"}'), "refs_bad_json",
         'reference 2 gives the key "tile" twice: give it once'),
        (doc('{"image": "a.jpg", "image": "b.jpg", "xyxy": [1, 2, 3, 4], "tile": "6m"}'), "refs_bad_json",
         'reference 1 gives the key "image" twice: give it once'),
        ('{"refs": [' + ONE + '], "note": {"by": "a", "by": "b"}}', "refs_bad_json",
         'the references give the key "by" twice in one object'),  # in a field the reader ignores
        ('{"refs": [], "番": 1, "番": 2}', "refs_bad_json",
         'the references give the key "番" twice: give it once'),
        ('{"refs": [], "\\ud800": 1, "\\ud800": 2}', "refs_bad_json",
         'the references give the key "\\ud800" twice: give it once'),  # not text: escaped
    ],
)  # fmt: skip
def test_each_refusal_says_what_and_counts_references_from_1(tmp_path, text, code, message):
    with pytest.raises(RefsError) as e:
        parse_refs(text, tmp_path)
    assert (e.value.code, str(e.value)) == (code, message)


def test_a_key_given_once_in_each_of_several_objects_is_fine(tmp_path):
    refs = parse_refs(doc(ONE, json.dumps({**GOOD, "tile": "7m"})), tmp_path)
    assert [r.tile for r in refs] == ["6m", "7m"]


@pytest.mark.parametrize(
    ("index", "said"), [(0, "reference 1"), (1, "reference 2"), (1999, "reference 2000")]
)
def test_position_counts_from_1(index, said):
    assert position(index) == said


def test_a_box_outside_its_photo_names_the_reference_from_1(tmp_path):
    refs = parse_refs(doc(ONE, json.dumps({**GOOD, "xyxy": [0, 0, 700, 10]})), tmp_path)
    check_box(refs[0], 0, 640, 480)
    with pytest.raises(RefsError) as e:
        check_box(refs[1], 1, 640, 480)
    assert e.value.code == "ref_box_outside"
    assert str(e.value) == "reference 2: the box [0.0, 0.0, 700.0, 10.0] is not inside a.jpg (640x480)"
