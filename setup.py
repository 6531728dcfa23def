"""The build's one choice that pyproject.toml cannot state: an optional compiled core.

`pip install .` builds a pure-Python wheel.  `MJSCORE_COMPILE=1 pip install .` also compiles the
hot modules of a batch with mypyc (a C compiler and Python's headers are needed); their `.py`
files are installed beside the compiled ones, which the import system prefers.  The in-tree
backend (backend/mjscore_build.py) asks for mypy only then.
"""

import os

from setuptools import setup

# The hot modules of a batch that mypyc compiles to the same results.  Left pure:
# model/settings.py (its declarations read each field's annotation, `int | None`, which a
# compiled dataclass gives as a bare type), rules/situation.py (its `once` values are kept in
# the instance's __dict__, which a compiled class has not), evening/batch.py (the pool of
# workers: no scoring of its own), and everything the command line and the page run once.
MODULES = [
    "mjscore/io/notation.py",
    "mjscore/io/reader.py",
    "mjscore/io/text.py",
    "mjscore/hand/shapes.py",
    "mjscore/hand/arrange.py",
    "mjscore/hand/waits.py",
    "mjscore/hand/validate.py",
    "mjscore/scoring/score.py",
    "mjscore/rules/conditions.py",
    "mjscore/rules/features.py",
    "mjscore/rules/scheme.py",
    "mjscore/model/money.py",
    "mjscore/model/plain.py",
    "mjscore/settle.py",
    "mjscore/pipeline.py",
    "mjscore/model/tiles.py",
    "mjscore/model/table.py",
]

# Read by tests/test_compiled.py, which runs this file under another name: no build then.
if __name__ == "__main__":
    ext_modules = []
    if os.environ.get("MJSCORE_COMPILE") == "1":
        from mypyc.build import mypycify

        # group_name puts the group's shared library inside the package (mjscore/core__mypyc.*.so),
        # not at the top level under a hash, where an editable install would not find it.
        ext_modules = mypycify(MODULES, group_name="mjscore.core", opt_level="3")
    setup(ext_modules=ext_modules)
