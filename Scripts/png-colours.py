#!/usr/bin/env python3
"""Counts the colours of a PNG screenshot, so tests can tell a rendered page from a blank one
and find a themed colour in it, with nothing but Python's standard library (no PIL on CI).

Reads 8-bit RGB or RGBA, non-interlaced PNGs (what Chromium's --screenshot writes) and prints
one JSON object:

  {"width": 390, "height": 844, "distinctColours": 412, "dominantColour": "FFFFFF",
   "dominantFraction": 0.91, "match": {"colour": "FF00FF", "tolerance": 8, "pixels": 17000}}

"match" is there only with --colour: the pixels whose red, green and blue each differ from
the colour by at most --tolerance. Alpha is ignored (Chromium's screenshots are opaque).

Usage: png-colours.py FILE.png [--colour RRGGBB] [--tolerance N]
"""
import argparse
import json
import struct
import sys
import zlib
from collections import Counter

SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PNGError(Exception):
    """The file is not a PNG this script reads; the message says why."""


def read_chunks(data):
    if not data.startswith(SIGNATURE):
        raise PNGError("not a PNG (bad signature)")
    position = len(SIGNATURE)
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if len(body) != length:
            raise PNGError(f"chunk {kind!r} is cut short")
        yield kind, body
        position += 12 + length  # length, type, body, CRC
        if kind == b"IEND":
            return
    raise PNGError("no IEND chunk")


def paeth(left, up, up_left):
    estimate = left + up - up_left
    to_left, to_up, to_up_left = abs(estimate - left), abs(estimate - up), abs(estimate - up_left)
    if to_left <= to_up and to_left <= to_up_left:
        return left
    return up if to_up <= to_up_left else up_left


def decode(data):
    """Returns (width, height, channels, rows), each row a bytearray of raw samples."""
    header = None
    compressed = bytearray()
    for kind, body in read_chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
    if header is None:
        raise PNGError("no IHDR chunk")
    width, height, depth, colour_type, _compression, _filter, interlace = header
    channels = {2: 3, 6: 4}.get(colour_type)
    if depth != 8 or channels is None:
        raise PNGError(f"only 8-bit RGB or RGBA is read (bit depth {depth}, colour type {colour_type})")
    if interlace != 0:
        raise PNGError("interlaced PNGs are not read")
    raw = zlib.decompress(bytes(compressed))
    stride = width * channels
    if len(raw) < height * (stride + 1):
        raise PNGError("image data is shorter than the header says")
    rows = []
    previous = bytearray(stride)
    zero_row = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        filter_type = raw[start]
        row = bytearray(raw[start + 1:start + 1 + stride])
        # Each filter predicts a byte from the one `channels` to the left, the one above, or both.
        if filter_type == 1:
            for i in range(channels, stride):
                row[i] = (row[i] + row[i - channels]) & 0xFF
        elif filter_type == 2:
            # Most of a screenshot's rows: a row that repeats the one above is all zeros.
            row = bytearray(previous) if row == zero_row else bytearray((a + b) & 0xFF for a, b in zip(row, previous))
        elif filter_type == 3:
            for i in range(stride):
                left = row[i - channels] if i >= channels else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif filter_type == 4:
            for i in range(stride):
                left = row[i - channels] if i >= channels else 0
                up_left = previous[i - channels] if i >= channels else 0
                row[i] = (row[i] + paeth(left, previous[i], up_left)) & 0xFF
        elif filter_type != 0:
            raise PNGError(f"unknown filter type {filter_type} on row {y}")
        rows.append(row)
        previous = row
    return width, height, channels, rows


def colour_argument(text):
    text = text.lstrip("#")
    if len(text) != 6:
        raise argparse.ArgumentTypeError("a colour is six hex digits, RRGGBB")
    try:
        return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        raise argparse.ArgumentTypeError("a colour is six hex digits, RRGGBB") from None


def main():
    parser = argparse.ArgumentParser(description="Counts the colours of an 8-bit RGB(A) PNG.")
    parser.add_argument("png")
    parser.add_argument("--colour", type=colour_argument, help="RRGGBB: count the pixels near this colour")
    parser.add_argument("--tolerance", type=int, default=8, help="per channel, 0-255 (default 8)")
    arguments = parser.parse_args()
    try:
        with open(arguments.png, "rb") as file:
            width, height, channels, rows = decode(file.read())
    except (OSError, PNGError, zlib.error) as error:
        print(f"png-colours.py: {arguments.png}: {error}", file=sys.stderr)
        return 1
    counts = Counter()
    # A screenshot repeats many rows (background, the inside of a button): each is counted once.
    for row, repeats in Counter(bytes(row) for row in rows).items():
        row = bytearray(row)
        # Alpha dropped: one key per pixel of its three colour bytes.
        if channels == 4:
            del row[3::4]
        for pixel, count in Counter(bytes(row[i:i + 3]) for i in range(0, len(row), 3)).items():
            counts[pixel] += count * repeats
    total = width * height
    dominant, dominant_count = counts.most_common(1)[0] if counts else (b"\0\0\0", 0)
    result = {
        "width": width,
        "height": height,
        "distinctColours": len(counts),
        "dominantColour": dominant.hex().upper(),
        "dominantFraction": dominant_count / total if total else 0,
    }
    if arguments.colour is not None:
        red, green, blue = arguments.colour
        near = arguments.tolerance
        pixels = sum(
            count for colour, count in counts.items()
            if abs(colour[0] - red) <= near and abs(colour[1] - green) <= near and abs(colour[2] - blue) <= near)
        result["match"] = {"colour": "%02X%02X%02X" % arguments.colour, "tolerance": near, "pixels": pixels}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
