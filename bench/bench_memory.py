#!/usr/bin/env python3
"""Benchmark: peak memory (RSS) and wall time of `jxmj detect` on large photos.

    .venv/bin/python bench/bench_memory.py                 # this checkout
    .venv/bin/python bench/bench_memory.py --repo ../main  # another checkout, same Python

Images, generated into `bench/out/` (git-ignored) on first use:

- `rgba16_89mp.png`: 9459 x 9459 = 89.47 MP, 16-bit RGBA (the largest Pillow opens without its
  bomb warning; ~0.7 MB on disk, 358 MB decoded): green felt with a row of light tiles;
- `jpeg_12mp.jpg`: the bundled sample photo scaled to 4032 x 3024 (a phone photo);
- `tiny.png`: 64 x 64 — the cost of the interpreter, numpy, onnxruntime and the models;
- the 89 MP PNG again with `--full-resolution` (no reduced decode: the worst case).

`--hostile` adds the images of `bench/hostile_images.py` (progressive CMYK, lossless and
animated WebP, a 6,250,000 x 16 PNG strip, the largest PNG and progressive JPEG accepted).

Each runs as its own `python -m app detect IMAGE` process (cwd = `--repo`); its peak RSS is the
child's `ru_maxrss` from `wait4`. Target: every accepted image <= 450 MB peak RSS
(the 89 MP 16-bit PNG is now refused: its decoder alone holds 358 MB).
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "out"
TARGET_MB = 450


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def rgba16_png(path: Path, side: int = 9459) -> Path:
    """A `side` x `side` 16-bit RGBA PNG, streamed row by row (never held in memory)."""
    import numpy as np

    if path.exists():
        return path
    felt = np.array([0x2000, 0x6000, 0x3000, 0xFFFF], ">u2")
    tile = np.array([0xF000, 0xEC00, 0xE000, 0xFFFF], ">u2")
    plain = b"\0" + np.tile(felt, side).tobytes()
    band = np.tile(felt, (side, 1))
    tile_w, gap = side // 18, side // 90
    for i in range(14):  # a row of fourteen light tiles across the middle
        x0 = side // 20 + i * (tile_w + gap)
        band[x0 : x0 + tile_w] = tile
    banded = b"\0" + band.tobytes()
    y0, y1 = side * 2 // 5, side * 2 // 5 + tile_w * 4 // 3
    comp = zlib.compressobj(6)
    with path.open("wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 16, 6, 0, 0, 0)))
        for y in range(side):
            part = comp.compress(banded if y0 <= y < y1 else plain)
            if part:
                fh.write(_chunk(b"IDAT", part))
        fh.write(_chunk(b"IDAT", comp.flush()) + _chunk(b"IEND", b""))
    return path


def jpeg_12mp(path: Path) -> Path:
    from PIL import Image

    if not path.exists():
        with Image.open(REPO / "app" / "assets" / "sample_hand.jpg") as im:
            im.convert("RGB").resize((4032, 3024), Image.LANCZOS).save(path, "JPEG", quality=90)
    return path


def tiny_png(path: Path) -> Path:
    from PIL import Image

    if not path.exists():
        Image.new("RGB", (64, 64), (40, 100, 60)).save(path)
    return path


def measure(repo: Path, image: Path, args: list[str]) -> dict:
    """Run `python -m app detect image` in `repo`; peak RSS (MB), wall time (s), outcome."""
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "app", "detect", str(image), *args], cwd=repo, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    try:
        data = json.loads(text)
        outcome = data["error"] if "error" in data else f"{len(data['detections'])} tiles"
    except (ValueError, KeyError):
        last = (text + errors).strip().splitlines()[-1:] or ["?"]
        outcome = f"no JSON: {last[0][:100]}"
    return {
        "image": image.name,
        "peak_rss_mb": round(usage.ru_maxrss / 1024),
        "seconds": round(seconds, 2),
        "exit": proc.returncode,
        "outcome": outcome,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=REPO, help="checkout whose jxmj runs (default: this one)")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    ap.add_argument("--hostile", action="store_true", help="also the images of bench/hostile_images.py")
    ap.add_argument("--only-hostile", action="store_true", help="only those")
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("detect_args", nargs="*", help="extra options for jxmj detect (after --)")
    opts = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    if opts.generate_only:  # in a child: a child's ru_maxrss counts the parent's memory it forked
        tiny_png(OUT / "tiny.png"), jpeg_12mp(OUT / "jpeg_12mp.jpg"), rgba16_png(OUT / "rgba16_89mp.png")
        if opts.hostile:
            from hostile_images import hostile

            hostile(OUT)
        return 0
    flags = ["--hostile"] if opts.hostile or opts.only_hostile else []
    subprocess.run([sys.executable, __file__, "--generate-only", *flags], check=True)
    images = [OUT / "tiny.png", OUT / "jpeg_12mp.jpg", OUT / "rgba16_89mp.png"]
    print(f"images ready in {time.perf_counter() - t:.1f} s ({images[-1].stat().st_size / 1024:.0f} KiB PNG)")
    print(f"jxmj detect from {opts.repo.resolve()} ({sys.executable})")
    rows = []
    runs = [(image, opts.detect_args) for image in images]
    runs.append((images[-1], [*opts.detect_args, "--full-resolution"]))  # the worst case: no reduction
    if opts.hostile or opts.only_hostile:
        from hostile_images import NAMES

        extra = [OUT / name for name in NAMES]
        runs = runs[:0] if opts.only_hostile else runs
        runs += [(image, opts.detect_args) for image in extra]
        runs += [(image, [*opts.detect_args, "--full-resolution"]) for image in extra]
    for image, args in runs:
        row = measure(opts.repo, image, args)
        row["options"] = " ".join(args)
        rows.append(row)
        label = f"{row['image']} {row['options']}".strip()
        print(
            f"  {label:<36} peak RSS {row['peak_rss_mb']:>5} MB  {row['seconds']:>6.2f} s  "
            f"exit {row['exit']}  {row['outcome']}"
        )
    worst = max(r["peak_rss_mb"] for r in rows)
    accepted = max((r["peak_rss_mb"] for r in rows if r["exit"] == 0), default=0)
    print(
        f"worst peak RSS {worst} MB; of accepted images {accepted} MB "
        f"(target <= {TARGET_MB} MB): {'met' if accepted <= TARGET_MB else 'NOT met'}"
    )
    if opts.json:
        opts.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
