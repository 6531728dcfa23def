"""YAML read safely: the safe loader only, and absurd documents refused before they are built.

The text is first run through the event parser (which is iterative, so deep nesting cannot
exhaust the stack) to refuse what is too deep, has too many aliases or too many values, or
carries a tag other than YAML's plain ones.  Tables, sessions, schemes and payoff tables are all
read through `load_nodes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from mjscore.model.errors import Location, YamlFormError, excerpt
from mjscore.model.say import _, n_

if TYPE_CHECKING:                  # yaml is imported when a YAML text is read, not at start-up
    from yaml import CSafeLoader, SafeLoader
    from yaml.nodes import Node

MAX_YAML_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 32
MAX_ALIASES = 100
MAX_EVENTS = 2_000_000
MAX_VALUES = 100_000
MAX_DIGITS = 30       # values a data document may expand to, aliases followed


class Mark(Protocol):
    """Where a YAML event or node starts: PyYAML's mark, or libyaml's (another class, the same fields)."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...


_PLAIN = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "bool", "null", "float", "seq", "map", "timestamp")}


def mark_location(file: str, mark: Mark | None) -> Location:
    return Location(file, mark.line + 1, mark.column + 1) if mark is not None else Location(file)


def safe_loader() -> type[SafeLoader] | type[CSafeLoader]:
    """The safe loader, in C when PyYAML was built with libyaml (several times faster)."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_nodes(text: str, file: str) -> list[Node]:
    """The documents of a YAML text as composed nodes, after the safety checks."""
    import yaml

    loader = safe_loader()
    if len(text.encode("utf-8", "surrogatepass")) > MAX_YAML_BYTES:
        raise YamlFormError(_("YAML input is larger than {limit} MiB; split it into several files").format(
            limit=MAX_YAML_BYTES // (1024 * 1024)), Location(file))
    depth = aliases = events = 0
    try:
        for ev in yaml.parse(text, Loader=loader):
            events += 1
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise YamlFormError(_("YAML nested more than {limit} levels deep").format(limit=MAX_DEPTH),
                                        mark_location(file, ev.start_mark))
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(ev, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise YamlFormError(_("more than {limit} YAML aliases: refused (alias bomb?)").format(
                        limit=MAX_ALIASES),
                                        mark_location(file, ev.start_mark))
            if events > MAX_EVENTS:
                raise YamlFormError(_("YAML input has too many values"), mark_location(file, ev.start_mark))
            tag = getattr(ev, "tag", None)
            if tag and tag.startswith("!") and not tag.startswith("tag:yaml.org,2002:"):
                raise YamlFormError(_("YAML tag '{tag}' is not allowed: tables are plain data").format(tag=tag),
                                    mark_location(file, ev.start_mark), tag)
        return list(yaml.compose_all(text, Loader=loader))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        where = mark_location(file, mark) if mark is not None else Location(file, 1, 1)
        if "nesting depth" in str(e):      # libyaml's own limit, met before ours on deep flow brackets
            raise YamlFormError(_("YAML nested more than {limit} levels deep").format(
                limit=MAX_DEPTH), where) from None
        problem = getattr(e, "problem", None) or getattr(e, "context", None) or str(e)
        raise YamlFormError(_("YAML: {problem}").format(problem=problem), where) from None


def load_document(text: str, file: str) -> Any:
    """The one YAML document of a data file (a scheme, the payoff tables) as plain Python values,
    after the same safety checks as hand files, and once its expansion is known to be bounded."""
    nodes = load_nodes(text, file)
    if len(nodes) != 1:
        raise YamlFormError(_("the file holds exactly one YAML document"), Location(file))
    check_expansion(nodes[0], file)
    import yaml

    loader = safe_loader()(text)
    try:
        return loader.construct_document(nodes[0])
    except (yaml.YAMLError, ValueError, TypeError) as e:
        mark = getattr(e, "problem_mark", None)
        raise YamlFormError(_("YAML: a value cannot be read as plain data"),
                            mark_location(file, mark) if mark else Location(file)) from None
    finally:
        loader.dispose()


def check_expansion(root: Node, file: str, limit: int = MAX_VALUES) -> int:
    """How many values the document holds with every alias written out; refused above `limit`
    when that is more than ten times the values written, for a tag other than plain data, or
    for a value that contains itself.

    Aliases share nodes, so a few hundred bytes can stand for billions of values: anything that
    walks the data (a check, a copy, JSON for the cache) would pay for all of them.  Sizes are
    summed over the node graph with each shared node counted once per use but walked once.
    """
    import yaml

    size: dict[int, int] = {}
    busy: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            busy.discard(key)
            children = node.value if isinstance(node, yaml.SequenceNode) else \
                [n for pair in node.value for n in pair]
            size[key] = 1 + sum(size[id(c)] for c in children)
            continue
        if key in size:
            continue
        if node.tag not in _PLAIN:
            raise YamlFormError(_("YAML tag '{tag}' is not allowed: this file is plain data").format(
                tag=excerpt(node.tag)),
                                mark_location(file, node.start_mark))
        if isinstance(node, yaml.ScalarNode):
            if node.tag.endswith(("int", "float")) and len(node.value) > MAX_DIGITS:
                raise YamlFormError(_("a number of more than {limit} digits").format(
                    limit=MAX_DIGITS), mark_location(file, node.start_mark))
            size[key] = 1
            continue
        if key in busy:
            raise YamlFormError(_("a YAML value contains itself"), mark_location(file, node.start_mark))
        busy.add(key)
        stack.append((node, True))
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        stack.extend((c, False) for c in children if id(c) not in size)
    total = size[id(root)]
    # Written out, a document may hold a few times the values it spells (a base's table reused
    # under an alias); an alias bomb holds millions of times as many.
    if total > max(limit, 10 * len(size)):
        raise YamlFormError(n_("YAML expands to {total} value, from {written} written (alias bomb?)",
                               "YAML expands to {total} values, from {written} written (alias bomb?)", total).format(
            total=f"{total:,}", written=f"{len(size):,}"),
                            mark_location(file, root.start_mark))
    return total
