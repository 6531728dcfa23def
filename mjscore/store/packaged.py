"""What travels in the package besides the code: the schemes, the documents and the sample hands.

In the repository they sit in the top-level `schemes/`, `docs/` and `sample_hands/` folders;
the build installs them as the packages `mjscore.schemes`, `mjscore.docs` and
`mjscore.sample_hands` (see pyproject.toml), so that a wheel, pipx and an editable install all
find them the same way, through the import system, from any folder.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from pathlib import Path

from mjscore.model.errors import InputError, Location, excerpt
from mjscore.model.say import _, language

# Each data package and the folder of the source tree it is built from (pyproject.toml's
# package-dir).
SOURCE_FOLDERS = {"mjscore.schemes": "schemes", "mjscore.docs": "docs", "mjscore.sample_hands": "sample_hands"}


@cache
def data_folder(package: str) -> Path | None:
    """The folder of one of mjscore's data packages, or None when it is not to be found.

    Read from the import system's spec of the package (what `importlib.resources.files()`
    answers for a package installed as files, without importing importlib.resources, 3 ms of
    every start).  When the package in use is a source tree's (`python -m mjscore` run in the
    repository's folder finds `./mjscore` before the installed one), its data are the folders
    the build would install, beside it.  Remembered either way, so a failure is looked up once
    per process, not once per table."""
    spec = find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    root = Path(__file__).resolve().parent.parent.parent
    beside = root / SOURCE_FOLDERS[package]
    return beside if (root / "pyproject.toml").is_file() and beside.is_dir() else None


def package_folder(package: str) -> Path:
    """`data_folder`, or an InputError when the package is not to be found."""
    folder = data_folder(package)
    if folder is None:
        raise InputError(_("{package} is not installed: install mjscore (pip install .) rather than copying its "
                           "source folder").format(package=package), Location(package))
    return folder


def help_topics() -> dict[str, str]:
    """Each document by topic name (`notation`, `rules`, `schemes`), with its first heading (the
    heading of its translation, where the language in use has one)."""
    out = {}
    for path in sorted(package_folder("mjscore.docs").glob("*.md")):
        out[path.stem] = _title(_translated(path))
    out["schemes"] = _title(package_folder("mjscore.schemes") / "README.md")
    return out


def _translated(path: Path) -> Path:
    """A document in the language in use, where it has been translated (docs/<lang>/NAME.md:
    the notation in brief); else the English one."""
    there = path.parent / language() / path.name
    return there if there.is_file() else path


def help_document(topic: str) -> str:
    """The Markdown text of a document by topic name; an InputError naming the topics if none."""
    topics = help_topics()
    if topic not in topics:
        raise InputError(_("no help topic '{topic}': choose from {topics}").format(topic=excerpt(topic),
                                                                                  topics=", ".join(topics)),
                         Location("mjscore help"), topic)
    folder = package_folder("mjscore.schemes") if topic == "schemes" else package_folder("mjscore.docs")
    if topic == "schemes":
        return (folder / "README.md").read_text(encoding="utf-8")
    return _translated(folder / f"{topic}.md").read_text(encoding="utf-8")


def _samples() -> dict[str, Path]:
    """Each sample file by name: `win-on-discard` (the compact file), `win-on-discard.yaml`."""
    folder = package_folder("mjscore.sample_hands")
    return {path.stem if path.suffix == ".mj" else path.name: path
            for path in sorted(folder.glob("*.mj")) + sorted(folder.glob("*.yaml"))}


def example_names() -> dict[str, str]:
    """Each sample file by name, with what its first comment says."""
    return {name: _first_comment(path) for name, path in _samples().items()}


def example_text(name: str) -> str:
    """The text of a sample file by name (`.mj` may be given); an InputError naming them if none."""
    # Looked up among the samples there are, not by making a path of what was typed (a name
    # too long to be a file's name would make the file system fail).
    path = _samples().get(name[:-3] if name.endswith(".mj") else name)
    if path is None:
        raise InputError(_("no example '{name}': 'mjscore example' lists them").format(name=excerpt(name)),
                         Location("mjscore example"), name)
    return path.read_text(encoding="utf-8")


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def _first_comment(path: Path) -> str:
    """The first sentence of the comment the file opens with."""
    said = []
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        said.append(stripped.lstrip("#").strip())
    text = " ".join(said)
    end = text.find(". ")
    return text[:end + 1] if end > 0 else text
