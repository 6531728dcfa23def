"""The QR code `mjscore serve` prints on a terminal, read back as a phone reads it: the printed
text drawn to an image the way a terminal draws it (its half blocks, its colour codes, and the
terminal's own colours wherever none is given), on a light terminal and on a dark one, and that
image decoded by zbar's `zbarimg`.

zbarimg (Debian's zbar-tools) is installed by `.ci/run`; where it is missing these tests skip,
unless MJSCORE_REQUIRE_BROWSER is set (as CI sets it), when they fail.
"""

import os
import re
import shutil
import struct
import subprocess
import zlib

import pytest

from mjscore.cli.commands import _qr

ZBARIMG = shutil.which("zbarimg")
if ZBARIMG is None and os.environ.get("MJSCORE_REQUIRE_BROWSER"):
    raise RuntimeError("MJSCORE_REQUIRE_BROWSER is set, but there is no zbarimg on PATH (Debian's zbar-tools)")
pytestmark = pytest.mark.skipif(ZBARIMG is None, reason="zbar-tools is not installed (.ci/run installs it)")

# An address as `serve --lan` prints it, with a token kept in a file (secrets.token_urlsafe(32)).
ADDRESS = "http://192.168.1.20:8000/?token=6L4GLFjwKL5GHlyawRnFKGhZF3kZ_-JNaxySt8FXi-c"

# xterm's eight colours (SGR 30-37 and 40-47); a terminal's default ink and paper are its theme's.
PALETTE = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
           (229, 229, 229)]
LIGHT = {"ink": (0, 0, 0), "paper": (255, 255, 255)}
DARK = {"ink": (229, 229, 229), "paper": (0, 0, 0)}
MARGIN = 8                  # modules of the terminal's own paper around the printed text, as on a screen
PIXELS = 6                  # a module's side: a cell 6 pixels wide and 12 high, two modules tall


def screen(printed, ink, paper):
    """The printed text as a terminal shows it, in module rows: each character cell's upper and
    lower halves, in the colours the codes met so far set (kept from line to line, as a terminal
    keeps them), or the terminal's `ink` and `paper` where none is set."""
    fg = bg = None
    rows = []
    for line in printed.splitlines():
        upper, lower = [], []
        for codes, char in re.findall(r"\x1b\[([0-9;]*)m|(.)", line):
            if not char:
                for n in map(int, codes.split(";") if codes else [0]):
                    if n == 0:
                        fg = bg = None
                    elif 30 <= n <= 49 and n % 10 != 8:        # 39 and 49: back to the terminal's own
                        colour = PALETTE[n % 10] if n % 10 < 8 else None
                        fg, bg = (colour, bg) if n < 40 else (fg, colour)
                    else:
                        raise AssertionError(f"an SGR code this terminal does not draw: {n}")
                continue
            assert char in " ▀▄█", repr(char)
            fore, back = fg or ink, bg or paper
            upper.append(fore if char in "▀█" else back)
            lower.append(fore if char in "▄█" else back)
        rows += [upper, lower]
    width = max(map(len, rows))
    rows = [row + [paper] * (width - len(row)) for row in rows]
    edge = [[paper] * (width + 2 * MARGIN)] * MARGIN
    return edge + [[paper] * MARGIN + row + [paper] * MARGIN for row in rows] + edge


def png(modules, path):
    """`modules` as an RGB PNG, each module PIXELS square (zlib and the PNG chunks by hand)."""
    lines = [b"\0" + b"".join(bytes(colour) * PIXELS for colour in row) for row in modules for _ in range(PIXELS)]

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", len(modules[0]) * PIXELS, len(modules) * PIXELS, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(lines)))
                     + chunk(b"IEND", b""))


def decoded(path):
    """What zbarimg reads in the image as a QR code ('' when it finds none)."""
    r = subprocess.run([ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode in (0, 4), r.stderr                # 4: the image holds no code it reads
    return r.stdout.rstrip("\n")


def light(colour):
    return sum(colour) > 3 * 128


@pytest.mark.parametrize("terminal", [LIGHT, DARK], ids=["light", "dark"])
def test_a_phone_reads_the_address_on_a_light_and_on_a_dark_terminal(terminal, tmp_path, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    modules = screen(_qr(ADDRESS), **terminal)
    png(modules, tmp_path / "terminal.png")
    assert decoded(tmp_path / "terminal.png") == ADDRESS


def test_the_code_has_its_four_module_quiet_zone_on_a_dark_terminal(monkeypatch):
    """Around the code's dark modules, 4 light ones that the code paints itself: the terminal's
    dark paper beyond them is no part of the quiet zone (the last line's lower half, under an odd
    number of rows, may add one more below)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    modules = screen(_qr(ADDRESS), **DARK)
    painted = [(y, x) for y, row in enumerate(modules) for x, colour in enumerate(row) if light(colour)]
    top, bottom = min(y for y, _ in painted), max(y for y, _ in painted)
    left, right = min(x for _, x in painted), max(x for _, x in painted)
    code = [(y, x) for y in range(top, bottom + 1) for x in range(left, right + 1) if not light(modules[y][x])]
    assert min(y for y, _ in code) - top == 4
    assert min(x for _, x in code) - left == 4 and right - max(x for _, x in code) == 4
    assert bottom - max(y for y, _ in code) in (4, 5)


def test_with_no_color_the_code_has_no_escape_codes_and_reads_on_a_light_terminal(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    printed = _qr(ADDRESS)
    assert "\x1b" not in printed
    png(screen(printed, **LIGHT), tmp_path / "terminal.png")
    assert decoded(tmp_path / "terminal.png") == ADDRESS
