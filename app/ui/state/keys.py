"""Every key the app keeps in ``st.session_state``, declared once (no Streamlit here).

The rule (`tests/test_architecture.py::test_session_keys_are_declared_in_one_module`): outside
this module, a session access — ``ss[K]``, ``ss.get(K)``, ``ss.pop(K)``, ``ss.setdefault(K)``,
``K in ss``, ``del ss[K]``, on ``st.session_state`` or a name bound to it — never spells its key:
``K`` is no string literal, no f-string and no module constant of a string; it comes from here
(a constant, or a function of a per-table or per-field key), or from a caller that was given it
(a widget key passed as an argument). ``ss.name`` attribute access is refused too. A widget's own
``key="…"`` is the widget's name, not a session access: widgets keep their keys where they are
drawn (the catalog of the hand's widget keys is in `app.ui.hand.session`).
"""

from __future__ import annotations

# -- the hand in progress (`app.ui.hand.session`, `app.ui.drafting`) ---------------------------
HIP = "hip"
"""The current `HandInProgress`."""
HIP_PARKED = "hip_parked"
"""``{ns: HandInProgress}``: the other pages' and tables' hands, waiting (`session.use`)."""
DRAFT_TOKEN = "draft_token"
"""This session's draft token (kept by the browser in a cookie: `app.ui.drafting`)."""
DRAFTS_OFF = "drafts_off"
"""True: this session keeps no draft (its client had too many new tokens: `app.drafts.ratelimit`)."""
PENDING_PHOTO = "pending_photo"
"""Bytes read as an upload: the tests' way in (AppTest cannot upload)."""
WIDGET = "w_"
"""The prefix of the hand's condition widgets (``w_variant``, ``w_{seat}_{count}``)."""


TABLE_WIDGET = "tw_"
"""The prefix of the 牌局 page's per-hand widgets, bound to `TableChoices` (``tw_winner``)."""


def table_widget(name: str) -> str:
    """The key of the 牌局 page's widget bound to `TableChoices.<name>` (`session.bind_choice`)."""
    return f"{TABLE_WIDGET}{name}"


def took(draft_key: str) -> str:
    """Set once this session read the draft `draft_key` back (`drafting.restore`)."""
    return f"_took:{draft_key}"


def widget(name: str) -> str:
    """The key of the hand's widget `name` (``w_variant``, ``w_east_kongs``)."""
    return f"{WIDGET}{name}"


# -- widgets read outside their own drawing ------------------------------------------------------
TYPED = "typed"
"""② the tile string's box."""
UPLOADER = "uploader"
CAMERA_ON = "camera_on"
PAYERS_OPEN = "payers_open"
"""③ the 吃炮 panel's expander (its own widget key)."""
PANEL_OPEN = "payers_was_open"
"""The 吃炮 panel as the player left it last run."""
PAYERS_TAB = "payers_tab"
PAYER_TAB = "payers_seat"
TAB_DEFAULT = "payers_tab_default"

# -- number fields (`app.ui.hand.numbers`) ------------------------------------------------------
BAD_FIELDS = "num_bad_fields"
NAMES = "num_names"
RESET = "num_reset"

# -- the app (`app.streamlit_app`) --------------------------------------------------------------
LANG = "lang"
PAGE = "page"
NAV_TO = "nav_to"

# -- the Learn page ----------------------------------------------------------------------------
PRACTICE = "practice"
"""The `app.ui.state.practice.Practice` shown."""
PRACTICE_GUESS = "practice_guess"
LEARN_TAB = "learn_tab"
LEARN_TAB_ID = "learn_tab_id"
LEARN_TAB_ASKED = "learn_tab_asked"

# -- the table page ----------------------------------------------------------------------------
TABLE_CODE = "table_code"
EDIT = "tbl_edit"
"""The edit panel's `app.ui.state.edit_choices.EditChoices` (`app.ui.table.edit_draft`)."""
EDIT_OPEN = "tw_edit_open"
"""The edit panel's expander, open or not."""
EDIT_N = "tw_edit_n"
"""The number of the hand the edit panel changes."""
UNDO_ASKED = "tw_undo_asked"
"""The number of hands the table showed when undo was tapped over a hand being entered: the page
asks before that hand is replaced (`app.ui.table.record`); forgotten with the hand (``tw_``)."""
TABLE_VIEW = "tbl_view"
"""The `app.ui.table.view.TableView`: the table replayed, the revisions shown and begun."""
IMPORTED = "tbl_import_said"
"""(the export's code, the code it was stored under, the code of the page it was imported on)."""
IMPORT_REFUSED = "tbl_import_refused"
"""(files refused so far, the last one's Flash | None)."""
IMPORT_SEEN = "tb_imported"
"""The file id of the export read last."""
REFSET = "tbl_refset"
"""((url, code, model, state), RefSet | None, count): the table's learned tile set."""
PHONE_REFSET = "phone_refset"
"""((url, token, model, state), RefSet | None, count): the phone's learned tile set (score page)."""
PHONE_LEARNED = "phone_learned"
"""(token, batch, tiles): what the score page learned last of the phone's set, until undone."""
PHONE_UNKEPT = "phone_unkept"
"""[`app.ui.score.learn.Unkept`]: hands whose references the store refused, written again each run."""
PHONE_GAVE_UP = "phone_gave_up"
"""True once: the score page gave up writing a hand's references (said on the next line drawn)."""
PHOTO_REFS = "photo_refs"
"""A callable returning the reference set a photo is read with (`services`)."""
NEW_TABLE_RULES = "tn_rules"
NEW_TABLE_CHOSEN = "tn_chosen"
NEW_TABLE_OPTIONS = "tn_options"
NEW_TABLE_VARIANT = "tn_variant"
NEW_TABLE_BASE = "tn_base"
NEW_TABLE_TITLE = "tn_title"
OPEN_CODE = "to_code"


def new_table_seat(i: int) -> str:
    """The name box of seat `i` on the new-table form."""
    return f"tn_seat{i}"


def refs_held(code: str) -> str:
    """The photos of table `code`'s hand held for learning until it is recorded."""
    return f"tbl_refs_held:{code}"
