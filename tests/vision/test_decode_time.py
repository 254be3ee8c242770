"""A picture that costs time per byte is refused from its markers before it is decoded, and every
decode is stopped past its CPU time (`vision.decode_time`; issue 39, item 2). The JPEGs are built
here (`tests/vision/jpeg_bombs.py`), none is committed."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest
from PIL import Image, ImageFile

from tests.vision.conftest import encode
from tests.vision.jpeg_bombs import exif_padded, scan_bomb
from vision import decode_time, image
from vision.decode_time import MAX_EXIF_SEGMENTS, MAX_SCANS, MAX_SEGMENTS, jpeg_markers
from vision.image import ImageError, decode_cost, open_image, read_cost


def _refused(data: bytes, **kw) -> ImageError:
    with pytest.raises(ImageError) as e:
        open_image(data, **kw)
    return e.value


def test_a_jpeg_of_thousands_of_scans_is_refused_before_any_decoder_runs(monkeypatch):
    bomb = scan_bomb(5000, (2000, 2000))  # ~100 KB; decoding it walks 62,500 blocks 5,000 times
    assert bomb.count(b"\xff\xda") == 5000 and jpeg_markers(bomb).scans == 5000
    Image.open(io.BytesIO(bomb)).verify()  # a JPEG Pillow opens, progressive, 2000 x 2000
    assert Image.open(io.BytesIO(bomb)).info.get("progressive") == 1
    loads = []
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda im: loads.append(im))
    started = time.thread_time()
    err = _refused(bomb, min_side=1000)
    assert time.thread_time() - started < 0.25
    assert (err.code, err.fields) == ("too_many_scans", {"scans": 5000, "limit": MAX_SCANS}) and loads == []
    assert decode_cost(bomb) == read_cost(bomb) == 0  # the photo gate admits it at no cost: it is refused


def test_the_scans_are_what_libjpeg_decodes(monkeypatch):
    small = scan_bomb(3000)  # 64 x 64: decoding every scan is quick
    monkeypatch.setattr(decode_time, "MAX_SCANS", 10**6)
    pixels = open_image(small).pixels
    assert pixels.shape == (64, 64, 3) and abs(int(pixels.mean()) - 128) <= 1  # the flat grey, read


def test_the_scan_limit_is_a_limit():
    assert MAX_SCANS == 100
    assert open_image(scan_bomb(MAX_SCANS)).pixels.shape == (64, 64, 3)
    assert _refused(scan_bomb(MAX_SCANS + 1)).fields == {"scans": 101, "limit": 100}
    baseline, progressive = (encode(Image.new("RGB", (64, 64)), "JPEG", progressive=p) for p in (False, True))
    assert (jpeg_markers(baseline).scans, jpeg_markers(progressive).scans) == (1, 10)  # libjpeg's script


def test_a_jpeg_padded_with_exif_blocks_is_refused_before_pillow_joins_them():
    padded = exif_padded(64)  # 4 MB of EXIF in 64 segments: Pillow copies their sum 64 times
    assert jpeg_markers(padded).exif_segments == 64
    started = time.thread_time()
    err = _refused(padded)
    assert (err.code, err.fields) == ("too_much_metadata", {"segments": 64, "limit": MAX_EXIF_SEGMENTS})
    assert read_cost(padded) == 0 and time.thread_time() - started < 0.1
    assert open_image(exif_padded(MAX_EXIF_SEGMENTS)).pixels.shape == (64, 64, 3)


def test_millions_of_empty_segments_are_refused_without_walking_them_all():
    flat = encode(Image.new("L", (64, 64), 128), "JPEG")
    for empty in (b"\xff\xe1\x00\x02", b"\xff\xfe\x00\x02", b"\xff\xda\x00\x02\x00"):  # APP1, COM, SOS
        data = flat[:2] + empty * 2_000_000 + flat[2:]  # 8-10 MB: a minute to walk, and for Pillow
        started = time.thread_time()
        err = _refused(data)
        assert time.thread_time() - started < 1.0, empty
        said = (err.code, err.fields["limit"])
        assert said in {("too_much_metadata", MAX_SEGMENTS), ("too_many_scans", MAX_SCANS)}
        assert decode_cost(data) == 0


def test_a_marker_walk_skips_what_only_looks_like_a_marker():
    photo = encode(np.random.default_rng(3).integers(0, 256, (256, 256, 3), np.uint8), "JPEG", quality=95)
    assert b"\xff\x00" in photo  # entropy-coded 0xFF bytes, stuffed
    exif = b"Exif\x00\x00" + b"\xff\xda\xff\xe1" * 8  # scan and APP1 markers inside a segment
    app1 = b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif
    found = jpeg_markers(photo[:2] + app1 + photo[2:])
    assert (found.scans, found.exif_segments) == (1, 1) and found.segments == jpeg_markers(photo).segments + 1
    assert jpeg_markers(photo + scan_bomb(500)).scans == 1  # after the end of image: not decoded
    assert jpeg_markers(b"\x89PNG\r\n\x1a\n") is None


def _libjpeg_reads_past(damage: str, bomb: bytes) -> bytes:
    """`bomb` with damage after its APP0 segment that libjpeg passes over with a warning."""
    cut = 4 + int.from_bytes(bomb[4:6], "big")
    return {
        "junk": bomb[:cut] + b"\x00\x12" + bomb[cut:],  # extraneous bytes before a marker
        "length 0": bomb[:cut] + b"\xff\xe1\x00\x00" + bomb[cut:],  # a segment of length 0
        "stuffed": bomb[:cut] + b"\xff\x00" + bomb[cut:],  # an FF 00 between segments
    }[damage]


@pytest.mark.parametrize("damage", ["junk", "length 0", "stuffed"])
def test_damage_libjpeg_reads_past_does_not_hide_the_scans(damage):
    """A junk byte after APP0 stopped the walk at 0 scans: 20,000 scans of 5500 x 5500 reached
    libjpeg and held a core ~3 s until the decode's CPU limit (`jxmj detect`, measured)."""
    bomb = _libjpeg_reads_past(damage, scan_bomb(500, (256, 256)))
    assert jpeg_markers(bomb).scans == 500
    err = _refused(bomb)
    assert (err.code, err.fields) == ("too_many_scans", {"scans": 500, "limit": MAX_SCANS})


def test_damaged_but_decodable_jpegs_still_decode():
    """What libjpeg passes over is not refused by itself: the same damage on a plain photo decodes."""
    for damage in ("junk", "length 0", "stuffed"):
        assert open_image(_libjpeg_reads_past(damage, scan_bomb(10))).pixels.shape == (64, 64, 3), damage


def test_millions_of_fill_bytes_are_walked_in_one_step():
    """A run of 0xFF fill bytes was walked a byte at a time in Python: 20 MB took 2.3 s."""
    flat = encode(Image.new("L", (64, 64), 128), "JPEG")
    data = flat[:2] + b"\xff" * 5_000_000 + flat[2:]
    started = time.thread_time()
    found = jpeg_markers(data)
    assert time.thread_time() - started < 0.2 and found == jpeg_markers(flat)


def test_every_decode_stops_past_its_cpu_time(monkeypatch):
    png = encode(Image.new("RGB", (64, 64)), "PNG")
    monkeypatch.setattr(image, "DECODE_SECONDS", -1.0)  # spent before the first read
    for data in (png, scan_bomb(6)):
        err = _refused(data)
        assert (err.code, err.fields) == ("too_slow", {"limit": -1.0})
    monkeypatch.setattr(decode_time, "MAX_SCANS", 10**6)  # let a bomb through the marker check
    monkeypatch.setattr(decode_time, "MAX_SEGMENTS", 10**6)
    monkeypatch.setattr(image, "DECODE_SECONDS", 0.3)
    bomb = scan_bomb(12_000, (2000, 2000))  # ~2.6 s to decode whole; 0.25 MB, read 64 KB at a time
    started = time.thread_time()
    assert _refused(bomb, min_side=1000).code == "too_slow"
    assert time.thread_time() - started < 2.0  # stopped at the first read past 0.3 s


def test_a_photo_costed_then_decoded_walks_its_markers_once(monkeypatch):
    """`read_cost` (its two plans) then `open_image` of the same bytes: one walk of the markers,
    not three (issue 37: ~0.7 ms each for a 12 MP photo); bytes that differ, or a buffer that may
    change, are walked again, and the decode lets the bytes go."""
    walks = []
    real = decode_time.jpeg_markers
    monkeypatch.setattr(decode_time, "jpeg_markers", lambda data: walks.append(len(data)) or real(data))
    data = encode(np.full((300, 400, 3), 90, np.uint8), "JPEG")
    read_cost(data, 200)
    assert open_image(data, min_side=200).pixels.shape == (150, 200, 3)
    assert walks == [len(data)]
    assert decode_time._last.walk is None  # not held after the decode
    other = data[:2] + b"\xff\xfe\x00\x04hi" + data[2:]  # the same picture with a comment
    read_cost(other, 200)
    read_cost(bytearray(other), 200)
    read_cost(bytearray(other), 200)
    assert walks == [len(data), len(other), len(other), len(other)]


def test_a_scan_bomb_is_refused_however_often_it_is_checked():
    bomb = scan_bomb(500, (64, 64))
    for _ in range(2):
        with pytest.raises(ImageError) as e:
            decode_time.check_jpeg(bomb)
        assert e.value.code == "too_many_scans"
    assert _refused(bomb).code == "too_many_scans"
