#!/usr/bin/env python3
"""Benchmark: N concurrent sessions uploading photos to a local `jxmj app` server.

    .venv/bin/python bench/bench_load.py                       # 8 sessions x 3 photos
    .venv/bin/python bench/bench_load.py --sessions 4 --photos jpeg,jpeg --repo ../main
    .venv/bin/python bench/bench_load.py --sessions 16 --photos jpeg,jpeg,jpeg --workers 2   # via nginx
    .venv/bin/python bench/bench_load.py --table-hands 2000 --sessions 8   # 8 phones open a big table

Starts `python -m app app` on a free port of 127.0.0.1 (nothing else is contacted) and drives
it the way the browser does, over Streamlit's own protocol: each session opens the page
(WebSocket `/_stcore/stream`, a script run), then for each photo asks for an upload URL,
PUTs the file as the file uploader does, and reruns with the uploader's new state. All
sessions start together (a barrier) and each step has a time limit, so the run is bounded.

Printed: page latency — open (connect -> first run finished) and photo (upload start -> the
rerun that shows the result finished) as p50 / p95 over all sessions — failed requests
(HTTP errors, closed sockets, timeouts, an exception or error message in the page), and the
server's peak RSS (`VmHWM` of its process; with `--workers N`, the busiest of the N app processes
behind `jxmj parlour`'s nginx), photos per second, the server's CPU seconds per photo (all its
processes), the load average before and after, and the app processes' RSS before, after and (with
`--settle S`) every 5 s for S seconds. Target: peak RSS < 1.5 GB with 8
sessions, no request failed. Photos (from bench/bench_memory.py, generated into bench/out/):
`jpeg` = a 12 MP phone JPEG, `png89` = the 89 MP 16-bit RGBA PNG, and the hostile images of
`bench/hostile_images.py` by name without extension (`cmyk_prog_100mp`, `webp_lossless_7000`,
`webp_canvas`, `png_strip`, `png_strip_48mp`, `png_49mp`, `prog_35mp`; `--photos hostile`: all
of them). With `--refusals-ok` an error message on the page (a photo refused as too large) is
counted as a refusal, not a failure; an exception in the page is still a failure. Target
(issue 24): < 1.5 GB with 8 sessions uploading hostile images.

Issue 37: `--warm` reads one photo first (the reader loaded: "before" is a warmed process, and the
RSS `--settle` S seconds after the burst is printed over it, target <= 1.3x); `--distinct` gives
every upload bytes of its own (a JPEG comment), as at a real table, where nothing is shared by the
photo's hash (the draft's photo store, the boxed photo's cache); the server's database is
`JXMJ_DB`, else a fresh SQLite file in bench/out (never the user's ledger: its drafts may be
full); `--profile FILE` records the burst with py-spy (`pip install py-spy`) for
`bench/profile_summary.py FILE`.

`--table-hands N` (`bench/load_table.py`): instead of photos, a table of N hands is stored in the
server's database (`JXMJ_DB`, else a fresh SQLite file in bench/out) and `--sessions` phones open
`/?table=CODE` at once, `--table-rounds` times: open p50 / p95 the first time (a fresh process)
and after, the server's CPU and the load average of each round. Target (issue 37): p95 <= 1.5 s
with 8 phones on a 2,000-hand table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_memory import OUT, REPO, jpeg_12mp, rgba16_png
from load_server import (
    cpu_seconds,
    free_port,
    memdump,
    peak_rss_mb,
    peak_rss_per_process_mb,
    rss_mb,
    start_profile,
    start_server,
    stop_profile,
    stop_server,
)

TARGET_MB = 1500
REFUSALS_OK = False  # --refusals-ok
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
        self.http = requests.Session()
        self.http.get(f"{self.base}/_stcore/health", timeout=30)
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

    def upload(self, path: Path, number: int, data: bytes | None = None) -> float:
        """Upload `path` (its bytes, or `data`) through the file uploader; seconds until the page
        showed the result."""
        from streamlit.proto.Common_pb2 import FileUploaderState, FileURLsRequest, UploadedFileInfo
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        if not self.uploader_id:
            raise Failed(f"the page has no file uploader; it showed: {' '.join(self.seen)}")
        t0 = time.perf_counter()
        request = FileURLsRequest(request_id=str(number), file_names=[path.name], session_id=self.session_id)
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
        data = data if data is not None else path.read_bytes()
        url = urls.upload_url if urls.upload_url.startswith("http") else self.base + urls.upload_url
        put = self.http.put(
            url, files={"file": (path.name, data)}, headers={"X-Xsrftoken": self.xsrf}, timeout=STEP_SECONDS
        )
        if put.status_code >= 300:
            raise Failed(f"upload answered HTTP {put.status_code}: {put.text[:120]}")
        info = UploadedFileInfo(file_id=urls.file_id, name=path.name, size=len(data), file_urls=urls)
        state = WidgetState(
            id=self.uploader_id, file_uploader_state_value=FileUploaderState(uploaded_file_info=[info])
        )
        self.rerun([state])
        if self.problems:
            raise Failed(self.problems[-1])
        return time.perf_counter() - t0


DISTINCT = False  # --distinct


def distinct(path: Path) -> bytes | None:
    """With `--distinct`, `path`'s JPEG with a comment of its own (a COM segment after SOI): every
    upload a photo of its own, as at a real table (nothing shared by hash); else None."""
    if not DISTINCT:
        return None
    data = path.read_bytes()
    if not data.startswith(b"\xff\xd8"):
        return None
    note = os.urandom(16).hex().encode()
    return data[:2] + b"\xff\xfe" + (len(note) + 2).to_bytes(2, "big") + note + data[2:]


def run_session(port: int, photos: list[Path], barrier: threading.Barrier, out: dict) -> None:
    step = "the barrier"
    try:
        barrier.wait(timeout=120)
        t0 = time.perf_counter()
        step = "opening the page"
        session = Session(port)
        session.rerun()
        out["open"].append(time.perf_counter() - t0)
        if session.problems:  # the page came up with an error (then no uploader, most likely)
            out["failed"].append(f"opening the page: {session.problems[-1]}")
            session.problems.clear()
        for i, photo in enumerate(photos):
            step = f"uploading photo {i + 1}"
            try:
                out["photo"].append(session.upload(photo, i, distinct(photo)))
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--photos", default="jpeg,png89,jpeg", help="per session, in order (jpeg, png89)")
    ap.add_argument("--repo", type=Path, default=REPO, help="checkout whose app runs (default: this one)")
    ap.add_argument("--timeout", type=float, default=600, help="the whole run's limit, seconds")
    ap.add_argument("--refusals-ok", action="store_true", help="an error message on the page is a refusal")
    ap.add_argument("--workers", type=int, default=0, help="N: through `jxmj parlour` (nginx + N processes)")
    ap.add_argument("--settle", type=float, default=0, help="seconds to watch RSS after the burst")
    ap.add_argument("--warm", action="store_true", help="one phone reads one photo before the burst")
    ap.add_argument("--distinct", action="store_true", help="every upload's bytes its own (a JPEG comment)")
    ap.add_argument("--profile", type=Path, help="py-spy's collapsed stacks of the burst into this file")
    ap.add_argument("--gil", action="store_true", help="with --profile: only the thread holding the GIL")
    ap.add_argument("--memdump", type=Path, help="app.memdump's reports: before, after, settled")
    ap.add_argument("--table-hands", type=int, default=0, help="N: open an N-hand table instead (load_table)")
    ap.add_argument("--table-rounds", type=int, default=3, help="with --table-hands: rounds of opens")
    opts = ap.parse_args(argv)
    # every bench phone is 127.0.0.1 (behind nginx too): the per-address token limit is not the load
    os.environ.setdefault("JXMJ_NEW_TOKENS", "100000")
    global REFUSALS_OK, DISTINCT
    REFUSALS_OK, DISTINCT = opts.refusals_ok, opts.distinct
    OUT.mkdir(parents=True, exist_ok=True)
    if opts.memdump:  # the server writes its reports there on SIGUSR1 (app.memdump)
        os.environ["JXMJ_MEMDUMP"] = str(opts.memdump.resolve())
    if opts.table_hands:
        from load_table import table_mode

        def start() -> tuple[subprocess.Popen, int]:
            port = free_port()
            return start_server(opts.repo, port, OUT / "load-server.log", opts.workers), port

        return table_mode(opts, Session, start, stop_server, pct, OUT)
    from hostile_images import NAMES, hostile
    from load_table import table_url

    print(f"  database: {table_url(OUT, 'photo-load')}")  # JXMJ_DB, else a fresh file (not the user's)

    files = {"jpeg": jpeg_12mp(OUT / "jpeg_12mp.jpg"), "png89": rgba16_png(OUT / "rgba16_89mp.png")}
    files.update({Path(p).stem: p for p in hostile(OUT)})
    names = [Path(n).stem for n in NAMES] if opts.photos == "hostile" else opts.photos.split(",")
    photos = [files[name] for name in names if name]
    port = free_port()
    server = start_server(opts.repo, port, OUT / "load-server.log", opts.workers)
    results: dict[str, list] = {"open": [], "photo": [], "failed": [], "shown": [], "refused": []}
    try:
        base_rss = peak_rss_mb(server.pid)
        if opts.warm:  # "before" = the process warmed: the reader loaded, one photo read
            run_session(port, photos[:1], threading.Barrier(1), {k: [] for k in results})
            time.sleep(2)
        if opts.memdump:
            memdump(server.pid, opts.memdump)
        spy = start_profile(server.pid, opts.profile, opts.gil) if opts.profile else None
        before_rss, cpu0, load0 = rss_mb(server.pid), cpu_seconds(server.pid), os.getloadavg()
        barrier = threading.Barrier(opts.sessions)
        threads = [
            threading.Thread(target=run_session, args=(port, photos, barrier, results), daemon=True)
            for _ in range(opts.sessions)
        ]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(0.1, opts.timeout - (time.perf_counter() - t0)))
        wall = time.perf_counter() - t0
        unfinished = sum(t.is_alive() for t in threads)
        peak = peak_rss_mb(server.pid)
        cpu = cpu_seconds(server.pid) - cpu0
        stop_profile(spy)
        peaks, load1, after = peak_rss_per_process_mb(server.pid), os.getloadavg(), rss_mb(server.pid)
        peak = max([peak, *peaks])  # a parlour: its busiest app process
        settled = []
        for _ in range(int(opts.settle // 5)):
            time.sleep(5)
            settled.append(rss_mb(server.pid))
        if opts.memdump:
            memdump(server.pid, opts.memdump)
    finally:
        stop_server(server)
    requests_made = opts.sessions * (1 + len(photos))
    failed = results["failed"] + [f"{unfinished} sessions still running at the time limit"] * bool(unfinished)
    print(
        f"load: {opts.sessions} sessions x {len(photos)} photos ({opts.photos}) on 127.0.0.1, {wall:.1f} s, "
        f"server from {opts.repo.resolve()}"
    )
    for name in ("open", "photo"):
        v = results[name]
        print(
            f"  page latency {name:<5}  n={len(v):>3}  p50 {pct(v, 50):6.2f} s  p95 {pct(v, 95):6.2f} s  "
            f"max {max(v, default=float('nan')):6.2f} s"
        )
    print(
        f"  requests {requests_made}, failed {len(failed)}; page runs showing a photo result: "
        f"{sum(results['shown'])}; photos refused with a message: {sum(results['refused'])}"
    )
    n = len(results["photo"])
    print(
        f"  photos {n} in {wall:.1f} s: {n / wall:.2f} photos/s; server CPU {cpu:.1f} s = "
        f"{cpu / max(1, n):.3f} s per photo ({opts.workers or 1} app process(es)); "
        f"load average {load0[0]:.2f} before, {load1[0]:.2f} after"
    )
    print(
        f"  app RSS {before_rss} MB before, {after} MB after the burst, then every 5 s: {settled}; "
        f"peak per process {peaks} MB"
    )
    if settled:
        ratio = settled[-1] / max(1, before_rss)
        print(f"  RSS {opts.settle:g} s after the burst / before: {ratio:.2f}x (target <= 1.3x)")
    for f in failed[:10]:
        print(f"    - {f}")
    print(
        f"  server peak RSS {peak} MB (idle after start {base_rss} MB; target < {TARGET_MB} MB): "
        f"{'met' if peak < TARGET_MB and not failed else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
