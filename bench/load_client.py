"""The benchmark's phones (`bench/bench_load.py`): one `Session` per browser tab, speaking Streamlit's
protocol (protobuf over a WebSocket), and `run_session`, one phone's open and uploads.

The client runs on the same box as the servers it measures, so what it costs is counted
(`load_cpu`) and kept small: every upload's request body is made before the burst (`prepare`:
the photo's bytes, with `--distinct` a comment of their own, already in the multipart form the
uploader sends); the page's messages are parsed by protobuf's C implementation (upb) and only
their kind and the few elements the benchmark checks are looked at. Measured: 0.007-0.008 s of
CPU a photo in all, 0.03-0.05 of 2 cores at 64 phones (docs/parlour.md).
"""

from __future__ import annotations

import functools
import os
import statistics
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

REFUSALS_OK = False  # --refusals-ok
NICE = 0  # --nice: each phone's thread (and the websocket's, started from it) this much nicer
STEP_SECONDS = 180.0
warnings.filterwarnings("ignore", "connect\\(\\) must be used as a context manager", DeprecationWarning)


class Failed(Exception):
    """One request of a session failed (the message says which and why)."""


class Session:
    """One browser tab, speaking Streamlit's protocol (protobuf over a WebSocket)."""

    def __init__(self, port: int, query: str = "") -> None:
        import requests
        from websockets.sync.client import connect

        self.base = f"http://127.0.0.1:{port}"
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry

        self.http = requests.Session()
        # a browser sends a request again when the kept-alive connection it reused was closed by
        # the server meanwhile (uvicorn closes one idle for 5 s: on a busy box the upload comes
        # later than that after the health check): "Connection reset by peer", 1-2 of 64 phones.
        # GET and PUT (the upload, its body in memory) again, as the browser; no status retried.
        self.http.mount(f"http://127.0.0.1:{port}", HTTPAdapter(max_retries=Retry(total=2, backoff_factor=0)))
        health = self.http.get(f"{self.base}/_stcore/health", timeout=30)
        # behind `jxmj parlour`'s nginx: the process this phone is pinned to (app.parlour.UPSTREAM_HEADER)
        self.upstream = health.headers.get("X-Jxmj-Upstream", "")
        self.xsrf = self.http.cookies.get("_streamlit_xsrf", "")
        cookies = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())  # nginx's route too
        protocols = ["streamlit", self.xsrf] if self.xsrf else ["streamlit"]
        self.ws = connect(
            f"ws://127.0.0.1:{port}/_stcore/stream",
            subprotocols=protocols,
            origin=self.base,
            additional_headers={"Cookie": cookies, "Accept-Language": "zh-CN"},
            max_size=None,
            open_timeout=30,
        )
        self.query = query  # the address's query string: "table=CODE" opens a table
        self.session_id = ""
        self.uploader_id = ""
        self.hands_shown = -1  # the table page's hand count (its header's data-hands), if drawn
        self.problems: list[str] = []
        self.results_shown = 0
        self.refused = 0
        self.seen: list[str] = []  # what the page drew, for a failure's report (the first 40)

    def close(self) -> None:
        self.ws.close()

    def _send(self, **fields) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        self.ws.send(BackMsg(**fields).SerializeToString())

    def rerun(self, widgets: list | None = None) -> float:
        """Run the script (with `widgets` as the widget states); seconds until it finished."""
        from streamlit.proto.ClientState_pb2 import ClientState
        from streamlit.proto.WidgetStates_pb2 import WidgetStates

        t0 = time.perf_counter()
        states = WidgetStates(widgets=widgets or [])
        self._send(rerun_script=ClientState(query_string=self.query, widget_states=states))
        self._until(lambda m: m.WhichOneof("type") == "script_finished" and m.script_finished == 0)
        return time.perf_counter() - t0

    def _until(self, done, deadline: float | None = None):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        deadline = deadline or time.monotonic() + STEP_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failed("no answer within the step's time limit")
            try:
                raw = self.ws.recv(timeout=left)
            except TimeoutError:
                raise Failed("no answer within the step's time limit") from None
            except Exception as exc:
                raise Failed(f"the connection closed: {exc}") from None
            if isinstance(raw, str):
                continue
            msg = ForwardMsg.FromString(raw)
            self._look(msg)
            if done(msg):
                return msg

    def _look(self, msg) -> None:
        kind = msg.WhichOneof("type")
        if len(self.seen) < 40:
            seen = kind
            if kind == "delta":
                seen = msg.delta.WhichOneof("type") or "delta"
                if seen == "new_element":
                    element = msg.delta.new_element
                    seen = element.WhichOneof("type") or "element"
                    seen += f"({element.alert.body[:60]})" if seen == "alert" else ""
            elif kind == "script_finished":
                seen = f"script_finished({msg.script_finished})"
            self.seen.append(seen)
        if kind == "new_session":
            self.session_id = msg.new_session.initialize.session_id or self.session_id
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            which = element.WhichOneof("type")
            if which == "file_uploader":
                self.uploader_id = self.uploader_id or element.file_uploader.id
            elif which == "exception":
                self.problems.append(f"exception in the page: {element.exception.message[:120]}")
            elif which == "alert" and element.alert.format == 1 and REFUSALS_OK:  # st.error
                self.refused += 1
            elif which == "alert" and element.alert.format == 1:  # st.error
                self.problems.append(f"error message in the page: {element.alert.body[:120]}")
            elif which == "markdown" and "jx-timing" in element.markdown.body:
                self.results_shown += 1  # the app's "photo -> result" line
            elif which == "markdown" and 'data-hands="' in element.markdown.body:
                self.hands_shown = int(element.markdown.body.split('data-hands="')[1].split('"')[0])

    def upload(self, photo: Upload, number: int) -> float:
        """Upload `photo` (its request body made before the burst) through the file uploader;
        seconds until the page showed the result."""
        from streamlit.proto.Common_pb2 import FileUploaderState, FileURLsRequest, UploadedFileInfo
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        if not self.uploader_id:
            raise Failed(f"the page has no file uploader; it showed: {' '.join(self.seen)}")
        t0 = time.perf_counter()
        request = FileURLsRequest(request_id=str(number), file_names=[photo.name], session_id=self.session_id)
        self._send(file_urls_request=request)
        answer = self._until(
            lambda m: (
                m.WhichOneof("type") == "file_urls_response"
                and m.file_urls_response.response_id == str(number)
            )
        ).file_urls_response
        if answer.error_msg or not answer.file_urls:
            raise Failed(f"no upload URL: {answer.error_msg}")
        urls = answer.file_urls[0]
        url = urls.upload_url if urls.upload_url.startswith("http") else self.base + urls.upload_url
        headers = {"X-Xsrftoken": self.xsrf, "Content-Type": photo.content_type}
        put = self.http.put(url, data=photo.body, headers=headers, timeout=STEP_SECONDS)
        if put.status_code >= 300:
            raise Failed(f"upload answered HTTP {put.status_code}: {put.text[:120]}")
        info = UploadedFileInfo(file_id=urls.file_id, name=photo.name, size=photo.size, file_urls=urls)
        state = WidgetState(
            id=self.uploader_id, file_uploader_state_value=FileUploaderState(uploaded_file_info=[info])
        )
        self.rerun([state])
        if self.problems:
            raise Failed(self.problems[-1])
        return time.perf_counter() - t0


@dataclass(frozen=True)
class Upload:
    """One photo's upload, ready to send: the multipart form the uploader PUTs (made by
    `requests` itself, byte for byte what `files=` sends), made before the burst."""

    name: str
    body: bytes
    content_type: str
    size: int  # the photo's own bytes


def prepare(path: Path) -> Upload:
    """`path`'s upload (with `--distinct`, bytes of its own: `distinct`)."""
    from requests.models import RequestEncodingMixin

    data = distinct(path)
    data = data if data is not None else path.read_bytes()
    body, content_type = RequestEncodingMixin._encode_files({"file": (path.name, data)}, {})
    return Upload(path.name, body, content_type, len(data))


DISTINCT = False  # --distinct
PIXELS = False  # --pixels
_made = 0  # uploads made distinct so far (--pixels: which photo of its own each is)


def distinct(path: Path) -> bytes | None:
    """With `--distinct`, `path`'s JPEG with a comment of its own (a COM segment after SOI): every
    upload a photo of its own, as at a real table (nothing shared by hash); else None. The pixels
    are the same, so what the server keys on them (`draw_boxes`' cache of the boxed photo) is hit
    after the first: with `--pixels` each upload's pixels differ too (`own_pixels`)."""
    global _made
    if not DISTINCT:
        return None
    data = path.read_bytes()
    if not data.startswith(b"\xff\xd8"):
        return None
    if PIXELS:
        data, _made = own_pixels(data, _made), _made + 1
    note = os.urandom(16).hex().encode()
    return data[:2] + b"\xff\xfe" + (len(note) + 2).to_bytes(2, "big") + note + data[2:]


OWN = 64  # --pixels: photos of their own pixels made per path, taken in turn (draw_boxes keeps 16)


def own_pixels(jpeg: bytes, n: int) -> bytes:
    """`jpeg` decoded, its pixels moved by one level in stripes 128 rows high that spell `n % OWN`
    in binary (green +1: no reader sees it, every region of the photo differs), encoded again at
    q90 as `jpeg_12mp` was: a phone's next photo, not the same pixels under other bytes. Made once
    per `n % OWN` (~0.15 s of client CPU each, before the burst)."""
    return _own_pixels(jpeg, n % OWN)


@functools.lru_cache(maxsize=OWN)
def _own_pixels(jpeg: bytes, n: int) -> bytes:
    import io

    import numpy as np
    from PIL import Image

    pixels = np.array(Image.open(io.BytesIO(jpeg)).convert("RGB"))
    stripe = (np.arange(pixels.shape[0]) // 128) % 7
    rows = ((n + 1) >> stripe) & 1 == 1
    green = pixels[rows, :, 1]
    pixels[rows, :, 1] = np.where(green < 255, green + 1, green - 1)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=90)
    return out.getvalue()


def run_session(port: int, uploads: list[Upload], barrier: threading.Barrier, out: dict) -> None:
    step = "the barrier"
    if NICE:  # Linux: a thread's own niceness (the threads it starts inherit it)
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + NICE))
    try:
        barrier.wait(timeout=120)
        t0 = time.perf_counter()
        step = "opening the page"
        session = Session(port)
        session.rerun()
        out["open"].append(time.perf_counter() - t0)
        out.setdefault("upstream", []).append(session.upstream)
        if session.problems:  # the page came up with an error (then no uploader, most likely)
            out["failed"].append(f"opening the page: {session.problems[-1]}")
            session.problems.clear()
        for i, photo in enumerate(uploads):
            step = f"uploading photo {i + 1}"
            try:
                out["photo"].append(session.upload(photo, i))
            except Failed as exc:
                out["failed"].append(f"{photo.name}: {exc}")
                session.problems.clear()
        out["shown"].append(session.results_shown)
        out["refused"].append(session.refused)
        session.close()
    except Exception as exc:  # a failure to connect is a failed request too
        out["failed"].append(f"session, {step}: {type(exc).__name__}: {exc}")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]
