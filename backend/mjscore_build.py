"""The build backend: setuptools', asking for mypy (whose mypyc compiles the hot modules) only
when the compiled core is asked for with MJSCORE_COMPILE=1 (setup.py); a plain `pip install .`
needs nothing but setuptools, as before."""

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook not changed here is setuptools' own)

# The mypy the compiled core is built and tested with: another may compile the same code otherwise.
MYPY = "mypy==2.4.1"
# What mypyc reads to type the modules it is given, in a build's own fresh environment: the YAML
# library's stubs, and the Windows lock's library (store/lock.py imports it there).
TYPES = ["types-PyYAML", "filelock>=3.30"]


def _compiler() -> list[str]:
    return [MYPY, *TYPES] if os.environ.get("MJSCORE_COMPILE") == "1" else []


def _requires(hook, config_settings):  # type: ignore[no-untyped-def]
    # setuptools runs setup.py to read its requirements: not asked to compile then, since mypy,
    # which it would import, is what is being asked for.
    compiling = os.environ.pop("MJSCORE_COMPILE", None)
    try:
        return hook(config_settings)
    finally:
        if compiling is not None:
            os.environ["MJSCORE_COMPILE"] = compiling


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    return _compiler() + _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    return _compiler() + _requires(_setuptools.get_requires_for_build_editable, config_settings)
