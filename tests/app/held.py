"""AppTest as a browser holds its widgets: a widget's value stays in the browser while the page
draws a widget of the same id, and goes back to the server with the next tap, unless the server
set it (the widget's ``set_value``). AppTest alone sends the values of the page last drawn, so a
widget whose key the server merely dropped reads fresh there while a phone still shows (and
sends) the old value: :class:`Phone` taps as the phone does.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP

KINDS = ("checkbox", "number_input", "segmented_control", "pills", "selectbox")
KINDS += ("text_input", "multiselect", "toggle")


def widgets(at: AppTest) -> list:
    """Every value widget on the page (buttons hold no value)."""
    return [w for kind in KINDS for w in getattr(at, kind)]


class Phone:
    """One phone (a browser session) on a page: `at` is its AppTest."""

    def __init__(self, query: dict[str, str]) -> None:
        self.at = AppTest.from_file(str(APP), default_timeout=60)
        for k, v in query.items():  # "d": the phone's token, kept by its browser (a cookie)
            if k == "d":
                self.at.session_state["test_cookie"] = v
            else:
                self.at.query_params[k] = v
        self.run()

    def run(self) -> None:
        """A tap that changes nothing: the page runs with what the browser holds."""
        held = {w.id: w.value for w in widgets(self.at)}
        self.at.run()
        assert not self.at.exception, [e.value for e in self.at.exception]
        for w in widgets(self.at):  # what the browser keeps showing, to send with the next tap
            if w.id in held and not w.proto.set_value and w.value != held[w.id]:
                w.set_value(held[w.id])

    def click(self, key: str) -> None:
        self.at.button(key=key).click()
        self.run()

    def set(self, kind: str, key: str, value) -> None:
        """Set widget `key` (of AppTest's `kind`, e.g. ``"checkbox"``) as the player does, and run."""
        getattr(self.at, kind)(key=key).set_value(value)
        self.run()

    @property
    def hip(self):
        return self.at.session_state["hip"]
