"""Memory returned (issue 37): a session does not hold its phone's photos once the draft does —
neither in the hand in progress nor in Streamlit's uploaded-file store — and what needs the
bytes later (a table learning its set) reads them back from the draft."""

from __future__ import annotations

from app.drafts import open_drafts
from app.ui import drafting
from app.ui.hand import photo as photo_section
from tests.app.conftest import token_of

SAMPLE = drafting.services.SAMPLE_PHOTO


def test_an_uploaded_photo_is_let_go_once_its_draft_holds_it(at, monkeypatch):
    data = SAMPLE.read_bytes()
    at.session_state["pending_photo"] = data  # read as an upload
    at.run()
    assert not at.exception
    h = at.session_state.hip
    assert h.photo is not None and h.photo_src == "upload"
    assert (h.photo_bytes, h.photo_stored) == (None, True)  # not in the session ...
    key = f"token:{token_of(at)}"
    assert open_drafts().load(key)[1] == data  # ... in the draft
    monkeypatch.setattr(drafting.session, "hip", lambda: h)
    assert drafting.photo_data() == data  # read back when needed (牌局: learning the set)


def test_a_photo_not_saved_yet_stays_in_the_session(monkeypatch):
    from app.ui.state.progress import HandInProgress

    h = HandInProgress()
    h.show_photo(object(), "camera", b"jpeg")
    monkeypatch.setattr(drafting.session, "hip", lambda: h)
    monkeypatch.setattr(drafting, "store", lambda: (_ for _ in ()).throw(AssertionError("no store")))
    assert drafting.photo_data() == b"jpeg"


def test_an_upload_read_is_dropped_from_streamlits_file_store(monkeypatch):
    """Streamlit kept every file a session uploaded until the session ended (2 minutes after
    its phone left): ~1.3 MB a photo, three photos a phone."""
    import streamlit.runtime.scriptrunner as runner
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.uploaded_file_manager import UploadedFileRec

    mgr = MemoryUploadedFileManager("/upload")
    mgr.add_file("s1", UploadedFileRec("f1", "a.jpg", "image/jpeg", b"x" * 100))
    mgr.add_file("s1", UploadedFileRec("f2", "b.jpg", "image/jpeg", b"y" * 100))

    class Ctx:
        session_id, uploaded_file_mgr = "s1", mgr

    monkeypatch.setattr(runner, "get_script_run_ctx", lambda: Ctx())
    photo_section._release("uploader_not_drawn", "f1")
    assert [f.file_id for f in mgr.get_files("s1", ["f1", "f2"])] == ["f2"]


def test_the_released_file_the_browser_still_names_is_not_read_again(monkeypatch):
    """Once released, the uploader's next run holds Streamlit's `DeletedFile` for the file_id the
    browser still sends: it was read already (before: AttributeError, "出了点问题" on the next tap)."""
    from streamlit.runtime.uploaded_file_manager import DeletedFile

    read = []
    monkeypatch.setattr(photo_section, "ss", {"uploader": DeletedFile("f1"), "camera": DeletedFile("f2")})
    monkeypatch.setattr(photo_section, "ingest_photo", lambda *a: read.append(a))
    photo_section.take_new_photos()
    assert read == []
