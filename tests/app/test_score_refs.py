"""The score page learns the phone's set (`app.ui.score.learn`): a photo hand that scored teaches
its tiles when the phone takes its next photo, kept under the phone's token (`app.drafts.refs`),
and that phone's next photos are read with them; another phone reads as without.

The painted scenes and stand-in models of tests/app/test_table_refs.py: this set paints its 8s
with the red of a 7s (the model alone reads 7s) and a blue no other tile has.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from app.drafts import open_drafts
from app.drafts import refs as P
from app.drafts.table import drafts, metadata, phone_refs
from app.ui import i18n, refsets, services
from app.ui.state import EditHand, Selection
from ledger.store.refs import TableRef
from tests.app.conftest import APP, token_of
from tests.app.test_table_refs import _odd, _photo, models, paint  # noqa: F401 (models: a fixture)
from tests.ledger.conftest import fresh_url
from vision.refmatch import FACE_KEY

pytest.importorskip("onnx", reason="needs onnx (the train extra)")

WANT = sorted(["7p"] * 3 + ["9s"] * 2 + ["1m", "2m", "3m", "6s", "7s", "8s"] + ["2p"] * 2)


def _open(token: str | None = None) -> AppTest:
    """The score page on a phone; `token`: that phone's cookie (a reload), else a new phone."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    if token:
        at.session_state["test_cookie"] = token
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _captions(at, key: str) -> list[str]:
    line = i18n.catalog("zh")[key].split("{n}")[0]
    return [c.value for c in at.caption if c.value.startswith(line)]


def _fixed_hand(at) -> None:
    """The photo of this set read, its 8s renamed by the player: a whole hand that scores."""
    _photo(at, paint(odd_blue=40))
    assert _odd(at).code == "7s"  # the model alone misreads this set's 8s
    hand: EditHand = at.session_state.hip.hand
    i = next(k for k, t in enumerate(hand.concealed) if t is _odd(at))
    at.session_state.hip.hand = hand.with_tile(Selection(i), "8s")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    hip = at.session_state.hip
    assert isinstance(services.score_hand(hip.hand, hip.cond), services.ScoreResult)


def _kept(token: str, model: str) -> list[str]:
    return sorted(r.tile for r in P.refs_of(open_drafts(), token, model))


@pytest.mark.usefixtures("models")
@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_a_scored_photo_hand_teaches_the_phone_its_set():
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    assert P.state(open_drafts(), token) == (0, 0)  # the sample, and the hand not confirmed yet
    assert _captions(at, "photo.refs_learned") == []

    _photo(at, paint(odd_blue=44))  # the next photo: the hand before it is confirmed
    model = refsets.model_key(refsets.reader())
    assert _kept(token, model) == WANT  # the renamed tile as the player named it; no backs
    assert _kept(token, FACE_KEY) == WANT
    assert _odd(at).code == "8s"  # read with them
    assert _captions(at, "photo.read_with_phone_refs") == [
        i18n.catalog("zh")["photo.read_with_phone_refs"].format(n=13)
    ]
    assert _captions(at, "photo.refs_learned") == [i18n.catalog("zh")["photo.refs_learned"].format(n=13)]

    _photo(at, paint(odd_blue=44))  # a third photo: the second hand (7s read as 8s, scoring) taught
    assert P.state(open_drafts(), token)[0] == 4 * 13

    again = _open(token)  # a reload keeps them: its draft's photo is read with them again
    assert _odd(again).code == "8s"

    b = _open()  # another phone learned nothing of this one's set
    assert token_of(b) != token and P.state(open_drafts(), token_of(b)) == (0, 0)
    _photo(b, paint(odd_blue=44))
    assert _odd(b).code == "7s" and _captions(b, "photo.read_with_phone_refs") == []


@pytest.mark.usefixtures("models")
def test_forget_removes_what_the_hand_taught():
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    _photo(at, paint(odd_blue=44))
    assert P.state(open_drafts(), token)[0] == 26  # 13 tiles: an embedding and a face each
    at.button(key="btn_forget_refs").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert P.state(open_drafts(), token) == (0, 0)
    assert _captions(at, "photo.refs_learned") == []
    _photo(at, paint(odd_blue=48))  # the hand on the page (its 8s read right) is taught now
    assert P.state(open_drafts(), token)[0] == 26


@pytest.mark.usefixtures("models")
def test_the_sample_and_an_unscored_hand_teach_nothing():
    at = _open()
    token = token_of(at)
    assert at.session_state.hip.photo_src == "sample"
    _photo(at, paint(odd_blue=40))  # over the sample
    assert P.state(open_drafts(), token) == (0, 0)
    at.session_state.hip.hand = EditHand.typed(["1m", "2m"])  # not a whole hand
    at.run()
    _photo(at, paint(odd_blue=44))
    assert P.state(open_drafts(), token) == (0, 0)


def _ref(tile: str, model: str = "m") -> TableRef:
    return TableRef(tile, model, 1, b"\0\0\x80?")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL of each kind, the drafts' tables dropped too."""
    yield from fresh_url(request, tmp_path, (metadata,))


def test_a_phone_keeps_its_newest_references_and_they_expire_with_its_drafts(db_url):
    store = open_drafts(db_url)
    a, b = store.issue(), store.issue()
    for k in range(3):  # 3 hands of 79 embeddings: the first 37 go
        P.add(store, a, [_ref(f"{k}:{j}") for j in range(79)] + [_ref("1m", FACE_KEY)])
    kept = P.refs_of(store, a, "m")
    assert len(kept) == P.MAX_PHONE_REFS == 200 and kept[0].tile == "0:37" and kept[-1].tile == "2:78"
    assert len(P.refs_of(store, a, FACE_KEY)) == 3  # each model bounded on its own
    batch = P.add(store, b, [_ref("2m")])
    assert P.refs_of(store, a, "m") == kept  # another phone's references are its own
    P.drop(store, b, batch)
    assert P.state(store, b) == (0, 0)
    with store.engine.begin() as conn:  # phone a's draft last saved a day ago: expired (24 hours)
        conn.execute(
            drafts.update().where(drafts.c.key == f"token:{a}").values(updated="2000-01-01T00:00:00")
        )
    P.add(store, b, [_ref("3m")])  # the next write deletes the references of a phone no draft lives of
    assert P.state(store, a) == (0, 0) and P.state(store, b)[0] == 1
    store.close()


def test_a_database_of_an_older_release_gets_the_phones_table_on_open(db_url):
    open_drafts(db_url).close()
    with sa.create_engine(db_url).begin() as conn:  # as a release before this one left it
        phone_refs.drop(conn)
    store = open_drafts(db_url)
    token = store.issue()
    assert P.add(store, token, [_ref("1m")]) > 0 and P.state(store, token)[0] == 1
    store.close()


@pytest.mark.usefixtures("models")
def test_a_phone_without_a_draft_learns_nothing():
    at = _open()
    token = token_of(at)
    at.session_state["drafts_off"] = True  # its address had too many new tokens (`drafting._issue`)
    _fixed_hand(at)
    _photo(at, paint(odd_blue=44))
    assert P.state(open_drafts(), token) == (0, 0) and _odd(at).code == "7s"


@pytest.mark.parametrize(
    ("reads", "doubt", "hand", "taught"),
    [
        (["1m", "2m"], [False, False], ["1m", "2m"], False),  # read right and sure: nothing new
        (["1m", "2m"], [False, False], ["1m", "3m"], True),  # a tile renamed: a fix
        (["1m", "2m"], [False, True], ["1m", "2m"], True),  # a tile in doubt, confirmed
        (["1m", "2m"], [False, False], ["1m", "2m", "5p"], False),  # a tile added by hand: no box
    ],
)
def test_only_a_fixed_or_doubted_hand_is_worth_its_cost(reads, doubt, hand, taught):
    """Learning costs the server a decode and the classifier again (a photo's CPU doubled on a
    burst: bench/bench_load.py), so a hand read right and sure teaches nothing."""
    from types import SimpleNamespace as N

    from app.ui.score.learn import fixed_or_doubted

    result = N(detections=[N(tile=c, uncertain=u) for c, u in zip(reads, doubt, strict=True)])
    tiles = [N(code=c, detection=k if k < len(reads) else None) for k, c in enumerate(hand)]
    assert fixed_or_doubted(N(tiles=tiles), result) is taught
