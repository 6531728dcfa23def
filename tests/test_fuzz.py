"""Fuzzers: mutated scheme files, whole tables through scoring and settlement, batches of mixed
bytes.  Whatever comes in, the answer is a result or one of our own errors; never another
exception, never a wrong sum."""

import itertools
import json
import random
import re
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.io.notation import print_table
from mjscore.model.errors import MjError
from mjscore.model.settings import given as given_settings
from mjscore.pipeline import evaluate
from mjscore.rules import scheme as scheme_module
from mjscore.rules.scheme import load_scheme
from mjscore.rules.shipped import scheme_dir, shipped_schemes
from mjscore.model.settings import Paying

PAYING = [p.value for p in Paying]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import random_table  # noqa: E402

runner = CliRunner()
SHIPPED = {name: (scheme_dir() / f"{name}.yaml").read_text() for name in shipped_schemes()}
SAMPLE_TABLES = [t for p in sorted(Path("sample_hands").glob("*.mj")) if "session" not in p.name
                 for t in __import__("mjscore").parse(p.read_text(), name=str(p))]
VALUES = ["-1", "0", "1", "1000000000", "99999999999999999999999999999999999", ".inf", "-.inf", ".nan", "1.5",
          "x", "[]", "{}", "null", "true", "''", "[1, 2]", "{a: 1}", "&a 1", "*a", "!!str 5", "\"\\e[2J\""]
WORDS = ["points", "doubles", "limit", "when", "scope", "per", "id", "text", "extends", "rules", "shapes",
         "sets", "pairs", "settlement", "payoffs", "rotation", "rounding", "standard", "nine-gates", "self_drawn",
         "calling", "sets", "count", "tiles", "dragon", "winner", "loser", "every", "hand", "set", "mahjong",
         "zz", "\u202e", "\x00"]
NUMBER = re.compile(r"(?<![\w.-])-?\d+(\.\d+)?(?![\w.])")
WORD = re.compile(r"[a-z_][a-z_-]+")
_counter = itertools.count()


@st.composite
def mutated_scheme(draw):
    lines = SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))].split("\n")
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["number", "word", "delete", "duplicate", "swap", "insert", "truncate"]))
        line = lines[n]
        if kind == "number" and NUMBER.search(line):
            spots = list(NUMBER.finditer(line))
            m = spots[draw(st.integers(0, len(spots) - 1))]
            lines[n] = line[:m.start()] + draw(st.sampled_from(VALUES)) + line[m.end():]
        elif kind == "word" and WORD.search(line):
            spots = list(WORD.finditer(line))
            m = spots[draw(st.integers(0, len(spots) - 1))]
            lines[n] = line[:m.start()] + draw(st.sampled_from(WORDS)) + line[m.end():]
        elif kind == "delete":
            del lines[n]
        elif kind == "duplicate":
            lines.insert(n, line)
        elif kind == "swap":
            m = draw(st.integers(0, len(lines) - 1))
            lines[n], lines[m] = lines[m], lines[n]
        elif kind == "insert":
            lines.insert(n, draw(st.text(max_size=40)))
        elif kind == "truncate":
            lines[n] = line[:draw(st.integers(0, len(line)))]
        if not lines:
            lines = [""]
    return "\n".join(lines)


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutated_scheme(), st.sampled_from(PAYING))
def test_a_mutated_scheme_is_refused_cleanly_or_scores_cleanly(tmp_path_factory, monkeypatch, text, paying):
    monkeypatch.setenv("MJSCORE_CACHE_DIR", "")
    path = tmp_path_factory.getbasetemp() / f"mutant-{next(_counter)}.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    tracemalloc.start()
    start = time.process_time()
    try:
        scheme = load_scheme(str(path))
    except MjError:
        scheme = None
    if scheme is not None:
        for table in SAMPLE_TABLES[:6]:
            try:
                result = evaluate(table, str(path), given_settings({"paying": paying}))
            except MjError:
                continue
            if result.settlement is not None and paying != "add-up":
                assert sum(result.net.values()) == 0
            json.dumps(result.to_dict())
    cpu = time.process_time() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert cpu < 1.0, f"{cpu:.2f} s of CPU for one scheme"        # a hostile file must not hang a batch
    assert peak < 200 * 1024 * 1024, f"{peak / 2**20:.0f} MiB for one scheme"


# -- whole tables through scoring and settlement --------------------------------------------

SCHEMES = shipped_schemes()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(SCHEMES), st.sampled_from(PAYING),
       st.sampled_from(["chinese-classical", "chinese-modern", "japanese"]), st.booleans(),
       st.sampled_from([None, 10, 100]), st.sampled_from([None, 50, 500]))
def test_every_generated_table_scores_and_settles_under_every_scheme(seed, name, paying, payoff, east_double,
                                                                     round_up, diff_limit):
    table = random_table(random.Random(seed), max_chows=load_scheme(name).max_chows, claimed_kongs=True)
    settings = given_settings({"paying": paying, "payoff": payoff, "east_double": east_double,
                      "round_payments_up": round_up, "loser_difference_limit": diff_limit})
    result = evaluate(table, name, settings)           # the generator deals legal tables the scheme accepts
    assert result.settlement is not None, result.settlement_error
    net = result.net
    if paying == "add-up":
        assert not result.payments
        return
    assert sum(net.values()) == 0
    matrix = {}
    for p in result.payments:
        assert p.amount > 0 and p.payer is not p.payee
        matrix[p.payer, p.payee] = matrix.get((p.payer, p.payee), 0) + p.amount
    for seat, gain in net.items():               # the matrix equals the nets
        assert gain == sum(a for (_, to), a in matrix.items() if to is seat) - \
            sum(a for (fr, _), a in matrix.items() if fr is seat)
    assert all(p.payer is not result.winner for p in result.payments)
    json.dumps(result.to_dict())


# -- batches of mixed bytes --------------------------------------------------------------------

GOOD = [print_table(random_table(random.Random(n), claimed_kongs=n % 2 == 1)) for n in range(12)]
CHUNKS = st.one_of(
    st.sampled_from(GOOD),
    st.sampled_from(["E: 12x\n", "E: 5555p ...\nW: 5p ...\n", "E: <5555p ...\n", "E: <555p> ...\n", "round Q\nE: ...\n",
                     "# only a comment\n", "\n"]),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
    st.text(max_size=60),
)
ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(CHUNKS, min_size=1, max_size=8), ENDINGS, st.booleans(), st.binary(max_size=8))
@pytest.mark.usefixtures("unwrapped")
def test_a_batch_of_mixed_bytes_answers_every_table_as_score_does(tmp_path, chunks, ending, bom, junk):
    text = "---\n".join(c if c.endswith("\n") else c + "\n" for c in chunks)
    data = (b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", ending).encode("utf-8", "surrogatepass")
    if junk:
        data += b"---" + ending.encode() + junk
    f = tmp_path / "mixed.mj"
    f.write_bytes(data)
    batch = runner.invoke(app, ["batch", str(f)])
    rows = [json.loads(line) for line in batch.stdout.splitlines()]
    assert [r["table"] for r in rows] == list(range(1, len(rows) + 1))
    score = runner.invoke(app, ["score", str(f), "--format", "json"])
    scored = [json.loads(line) for line in score.stdout.splitlines()]
    errors = [line for line in score.stderr.splitlines() if ": error: " in line]
    # inputs = results + error rows, and the same tables both ways
    assert [{k: v for k, v in r.items() if k not in ("table", "file", "line")} for r in rows if "error" not in r] \
        == scored
    assert sum("error" in r for r in rows) == len(errors)
    assert "Traceback" not in batch.stderr + score.stderr and "internal error" not in batch.stderr + score.stderr
    assert batch.exit_code == (1 if errors else 0) == score.exit_code


@pytest.fixture(autouse=True)
def _fresh_schemes():
    scheme_module._load.cache_clear()
    yield
    scheme_module._load.cache_clear()
