"""Read a policy file into a `Policy`, or fail naming file, line, column, key, value and fix.

Validate, then construct: the YAML is composed into a node tree (which keeps the position
of every value), turned into plain Python, validated by `Policy`, and each pydantic error
`loc` is walked back through the nodes to the line it came from.

Scalars follow the YAML 1.2 core schema, not PyYAML's YAML 1.1: only true/false are
booleans, so the detector setting `pii: off` stays the string "off"; `1:30` is not a
number and `2024-01-01` is not a date. A key written twice in one mapping is an error.
"""

from __future__ import annotations

import difflib
import enum
import errno
import os
import re
import stat
import types
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import re2
import yaml
from pydantic import BaseModel, ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from redline.errors import PolicyError
from redline.policy.building import collector_paused
from redline.policy.guards import unguarded_rules
from redline.policy.judge_check import judge_problems
from redline.policy.schema import JUDGE_KEYS, SHAPE_TAGS, Policy

Loc = tuple[str | int, ...]
MAX_POLICY_BYTES = 16 * 1024 * 1024
# An alias (`*shared`) may repeat what its anchor holds, up to this many values in all:
# enough for shared lists, and a "billion laughs" bomb is refused instead of expanded.
MAX_ALIAS_VALUES = 10_000
MAX_DEPTH = 64
# A top-level mapping with none of these keys is not a redline policy: its errors do not
# quote it (it may be any file that a link or a mistake put in the policies folder).
_POLICY_KEYS = frozenset({"version", "name", "skills", "soul", "detectors"})

_TAG = "tag:yaml.org,2002:"
_CORE_RESOLVERS = [  # YAML 1.2.2 section 10.3.2, in the order they are tried
    ("null", r"~|null|Null|NULL|", "~nN"),
    ("bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
    (
        "float",
        r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
        "-+0123456789.",
    ),
]
_SCALAR_TAGS = ("str", "null", "bool", "int", "float")
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_EXAMPLES = {
    "version": "1",
    "name": "acme-support",
    "slug": "billing",
    "id": "no-refund-promise",
    "rule": "Never promise a refund.",
}
_NUMBER, _LIST, _MAPPING = "a whole number", "a list", "a mapping of keys"
_EXPECTED = {
    "string_type": "text",
    "int_type": _NUMBER,
    "int_parsing": _NUMBER,
    "int_from_float": _NUMBER,
    "tuple_type": _LIST,
    "list_type": _LIST,
    "model_type": _MAPPING,
    "dict_type": _MAPPING,
}


class _Yaml12Loader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML ships no types
    """Composes with YAML 1.2 core-schema tags; `_Converter` does the constructing."""


# libyaml's C parser and composer (many times the pure-Python one on a 10,000-rule
# policy) where PyYAML was built with it; its nodes keep their marks, so positions stay.
# A file it refuses is composed again by the Python loader, whose messages say more.
class _Yaml12CLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same resolvers over libyaml."""


for _loader in (_Yaml12Loader, _Yaml12CLoader):
    _loader.yaml_implicit_resolvers = {}
    for _name, _regexp, _first in _CORE_RESOLVERS:
        _first_chars = [*_first, ""] if _name == "null" else list(_first)
        _loader.add_implicit_resolver(_TAG + _name, re.compile(f"^(?:{_regexp})$"), _first_chars)

_RESOLVABLE = frozenset(c for _, _, first in _CORE_RESOLVERS for c in first)
_STR_TAG = _TAG + "str"
_resolve_core = _Yaml12CLoader.resolve


_CORE_WORDS = frozenset("null Null NULL true True TRUE false False FALSE".split())


def _fast_resolve(self: Any, kind: Any, value: Any, implicit: Any) -> Any:
    """Most scalars of a policy are prose ("Never promise a refund.") or keys (`terms`): a
    plain scalar is a string, with no regex tried, when its first character starts no
    core-schema type, or is a letter and the scalar is none of the nine words that are
    nulls or booleans; a quoted scalar is always one (these loaders have no path resolvers)."""
    if kind is ScalarNode:
        if not implicit[0]:
            return _STR_TAG
        if value and (value[0] not in _RESOLVABLE or (value[0].isalpha() and value not in _CORE_WORDS)):
            return _STR_TAG
    return _resolve_core(self, kind, value, implicit)


_Yaml12CLoader.resolve = _fast_resolve


def _read(name: str) -> bytes:
    """The file's bytes, never more than MAX_POLICY_BYTES, and only from a regular file:
    opened without blocking, so a FIFO or a device named `*.yaml` cannot hang a reload."""
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", name)
        if not stat.S_ISREG(info.st_mode):
            raise PolicyError("not a regular file (a device, a pipe or a socket). Fix: give the path of a .yaml file", path=name)
        if info.st_size > MAX_POLICY_BYTES:
            raise PolicyError(
                f"the file is {info.st_size} bytes, over the limit of {MAX_POLICY_BYTES}. Fix: split the policy", path=name
            )
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(MAX_POLICY_BYTES + 1)
    finally:
        os.close(fd)
    if len(raw) > MAX_POLICY_BYTES:  # it grew while being read
        raise PolicyError(f"the file is over the limit of {MAX_POLICY_BYTES} bytes. Fix: split the policy", path=name)
    return raw


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """Read and validate the policy file at `path`."""
    name = os.fsdecode(path)
    return parse_policy(read_yaml_text(name), name)


def read_yaml_text(name: str) -> str:
    """The text of the YAML file `name`, or a PolicyError naming the file and the fix."""
    try:
        raw = _read(name)
    except FileNotFoundError as exc:
        raise PolicyError(
            f"no such file. Fix: check the path (relative to {os.getcwd()})", path=name
        ) from exc
    except IsADirectoryError as exc:
        raise PolicyError(
            "this is a directory. Fix: give the path of the policy .yaml file inside it", path=name
        ) from exc
    except PermissionError as exc:
        raise PolicyError(
            "permission denied. Fix: make the file readable by this user (chmod u+r)", path=name
        ) from exc
    except OSError as exc:
        raise PolicyError(
            f"cannot read the file ({exc.strerror}). Fix: check the path", path=name
        ) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        raise PolicyError(
            f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded. "
            "Fix: save the file as UTF-8",
            path=name,
            line=raw.count(b"\n", 0, exc.start) + 1,
            column=exc.start - line_start + 1,
        ) from exc
    return text


def parse_policy(text: str, path: str = "<string>") -> Policy:
    """Validate policy YAML given as text; `path` names it in error messages."""
    with collector_paused():
        policy, root = _parse(text, path, Policy, "policy")
        base_dir = Path(path).resolve().parent if Path(path).is_file() else None
        _refuse_unusable(policy, root, path, base_dir)
        # the node tree goes while the collector still waits: its first pass afterwards
        # walks only what the policy keeps, not a node and two marks per value
        del root
    policy._source_dir = base_dir
    policy._source_path = path
    return policy


def _refuse_unusable(policy: Policy, root: Node, path: str, base_dir: Path | None) -> None:
    """A PolicyError at the line of the first rule that guards nothing, or of the judge
    setting that cannot run on this machine."""
    unguarded = unguarded_rules(policy)
    if unguarded:
        first_rule = unguarded[0]
        mark = _node_at(root, first_rule.loc).start_mark
        message = first_rule.message
        if len(unguarded) > 1:
            others = ", ".join(u.rule_id for u in unguarded[1:])
            message += f"\n{len(unguarded) - 1} more rule(s) guard nothing: {others}"
        raise PolicyError(
            message, path=path, line=mark.line + 1, column=mark.column + 1, key=_dotted(first_rule.loc)
        )
    for key, problem in judge_problems(policy.judge, base_dir):
        mark = _node_at(root, ("judge", key)).start_mark
        raise PolicyError(problem, path=path, line=mark.line + 1, column=mark.column + 1, key=f"judge.{key}")


M = TypeVar("M", bound=BaseModel)


def parse_yaml_model(text: str, path: str, model: type[M], *, what: str = "policy") -> M:
    """YAML text validated by `model`, or a PolicyError naming line, column, key and fix."""
    with collector_paused():
        return _parse(text, path, model, what)[0]


def _parse(text: str, path: str, model: type[M], what: str) -> tuple[M, Node]:
    root = _compose(text, path)
    if root is None or (isinstance(root, ScalarNode) and root.value == ""):
        raise PolicyError(
            f"the file is empty. Fix: write the {what}, starting with `version: 1` and `name: ...`",
            path=path,
            line=1,
            column=1,
        )
    if not isinstance(root, MappingNode) or not any(
        isinstance(k, ScalarNode) and k.value in _POLICY_KEYS for k, _ in root.value
    ):
        what = {MappingNode: "a mapping without policy keys", SequenceNode: "a list"}.get(type(root), "text")
        raise PolicyError(  # the content is not quoted: this may be any file at all
            f"this is not a redline policy: the top level is {what}, not a mapping with `version` and `name`. "
            "Fix: write `key: value` lines at the top level, starting with `version: 1`",
            path=path,
            line=root.start_mark.line + 1,
            column=root.start_mark.column + 1,
        )
    data = _Converter(path, aliases="*" in text).value(root, ())
    try:
        validated = model.model_validate(data)
    except ValidationError as exc:
        unique = {str(p): p for p in (_explain(dict(e), root, data, path, model) for e in exc.errors())}
        problems = sorted(unique.values(), key=lambda p: (p.line or 0, p.column or 0, str(p)))
        first = problems[0]
        message = first.problem
        if len(problems) > 1:
            listing = "\n".join(f"  {p}" for p in problems)
            message += f"\n{len(problems)} problems in this {what}:\n{listing}"
        raise PolicyError(
            message, path=path, line=first.line, column=first.column, key=first.key
        ) from exc
    return validated, root


def yaml_position(text: str, loc: Loc) -> tuple[int, int] | None:
    """The 1-based line and column of the value at `loc` in YAML `text` (None: not found)."""
    try:
        root = _compose(text, "<position>")
    except PolicyError:
        return None
    if root is None:
        return None
    mark = _node_at(root, loc).start_mark
    return mark.line + 1, mark.column + 1


def _compose(text: str, path: str) -> Node | None:
    try:
        fast: Node | None = yaml.compose(text, Loader=_Yaml12CLoader)
        return fast
    except yaml.YAMLError:
        pass  # composed again below, for the Python loader's message
    try:
        node: Node | None = yaml.compose(text, Loader=_Yaml12Loader)
        return node
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        if exc.context and exc.problem and exc.context_mark:
            problem += f" ({exc.context} at line {exc.context_mark.line + 1})"
        if "'\\t'" in problem:
            fix = "indent with spaces; YAML does not allow tabs"
        else:
            fix = "check the indentation, the quotes and the `key: value` colons here"
        raise PolicyError(
            f"not valid YAML: {problem}. Fix: {fix}",
            path=path,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        ) from exc
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise PolicyError(
            f"not valid YAML: control character U+{code:04X} is not allowed. Fix: delete it",
            path=path,
            line=line,
            column=column,
        ) from exc
    except yaml.YAMLError as exc:
        raise PolicyError(f"not valid YAML: {exc}", path=path) from exc
    except RecursionError as exc:
        raise PolicyError(f"nested too deeply to read. Fix: flatten the policy (at most {MAX_DEPTH} levels)", path=path) from exc


_SEQ, _MAP = _TAG + "seq", _TAG + "map"


class _Converter:
    """Plain Python from a node tree: dicts, lists and core scalars; refuses duplicate keys,
    nesting deeper than MAX_DEPTH and aliases that repeat more than MAX_ALIAS_VALUES.

    A 10,000-rule policy has some 60,000 values, so the walk does little per scalar: the
    position (`loc`) of a value is built only for an error, and the ancestors a
    recursive alias would revisit are one set, added to and taken from. A text with no
    `*` has no alias, so no node is reached twice: `aliases=False` skips that bookkeeping."""

    __slots__ = ("active", "aliases", "path", "repeated", "seen")

    def __init__(self, path: str, aliases: bool = True) -> None:
        self.path = path
        self.aliases = aliases
        self.seen: set[int] = set()  # every node reached once; again means through an alias
        self.repeated = 0  # how many values aliases have repeated so far
        self.active: set[int] = set()  # the collections being converted: a node's ancestors

    def fail(self, message: str, at: Node, where: Loc) -> PolicyError:
        mark = at.start_mark
        return PolicyError(
            message, path=self.path, line=mark.line + 1, column=mark.column + 1, key=_dotted(where)
        )

    def _visit(self, node: Node, loc: Loc) -> None:
        """The checks every node passes before it is converted."""
        if not self.aliases:
            if len(loc) > MAX_DEPTH:
                raise self.fail(f"nested more than {MAX_DEPTH} levels deep. Fix: flatten the policy", node, loc)
            return
        key = id(node)
        if key in self.active:
            raise self.fail("an alias refers to itself. Fix: remove the recursive alias", node, loc)
        if len(loc) > MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} levels deep. Fix: flatten the policy", node, loc)
        if key in self.seen:  # reached again: through an alias
            self.repeated += 1
            if self.repeated > MAX_ALIAS_VALUES:
                raise self.fail(
                    f"aliases repeat more than {MAX_ALIAS_VALUES} values (a YAML alias bomb?). "
                    "Fix: write the values out, or use fewer aliases",
                    node,
                    loc,
                )
        else:
            self.seen.add(key)

    def value(self, node: Node, loc: Loc) -> Any:
        self._visit(node, loc)
        if type(node) is ScalarNode:
            return node.value if node.tag == _STR_TAG else self._scalar(node, loc)
        if isinstance(node, SequenceNode) and node.tag == _SEQ:
            self.active.add(id(node))
            items = [self._item(item, loc, i) for i, item in enumerate(node.value)]
            self.active.discard(id(node))
            return items
        if isinstance(node, MappingNode) and node.tag == _MAP:
            self.active.add(id(node))  # cheap beside a mapping's keys, so kept in both modes
            mapping = self._mapping(node, loc)
            self.active.discard(id(node))
            return mapping
        if isinstance(node, ScalarNode):
            return self._scalar(node, loc)
        raise self.fail(f"unsupported YAML tag {node.tag!r}. Fix: remove the tag", node, loc)

    def _item(self, node: Node, loc: Loc, part: str | int) -> Any:
        """The value of a list item or a key: a prose scalar (most of a policy) at once."""
        if type(node) is ScalarNode and node.tag == _STR_TAG and len(loc) < MAX_DEPTH:
            if not self.aliases:
                return node.value
            if id(node) not in self.seen:
                self.seen.add(id(node))
                return node.value
        return self.value(node, (*loc, part))

    def _mapping(self, node: MappingNode, loc: Loc) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, Node] = {}
        seen, shallow, aliases = self.seen, len(loc) < MAX_DEPTH, self.aliases
        for key_node, value_node in node.value:
            if type(key_node) is not ScalarNode and not isinstance(key_node, ScalarNode):
                raise self.fail("a key must be plain text. Fix: write `key: value`", key_node, loc)
            key = str(key_node.value)
            if key in first_seen:
                first_line = first_seen[key].start_mark.line + 1
                raise self.fail(
                    f"key `{key}` appears twice in this mapping (first at line {first_line}); "
                    "YAML would silently keep only the last. Fix: delete or merge one of them",
                    key_node,
                    (*loc, key),
                )
            first_seen[key] = key_node
            if type(value_node) is ScalarNode and value_node.tag == _STR_TAG and shallow \
                    and not (aliases and id(value_node) in seen):  # `_item`, inline: most values are prose
                if aliases:
                    seen.add(id(value_node))
                result[key] = value_node.value
            else:
                result[key] = self.value(value_node, (*loc, key))
        return result

    def _scalar(self, node: ScalarNode, loc: Loc) -> Any:
        value, tag = str(node.value), node.tag.removeprefix(_TAG)
        if tag not in _SCALAR_TAGS:
            raise self.fail(f"unsupported YAML tag {node.tag!r}. Fix: remove the tag", node, loc)
        try:
            if tag == "str":
                return value
            if tag == "null" and re.fullmatch(_CORE_RESOLVERS[0][1], value):
                return None
            if tag == "bool" and value.lower() in ("true", "false"):
                return value.lower() == "true"
            if tag == "int":
                return int(value, 0) if value[:2] in ("0o", "0x") else int(value, 10)
            if tag == "float":
                return float(value.lower().replace(".inf", "inf").replace(".nan", "nan"))
        except ValueError:
            pass
        message = f"{value!r} is not a valid {tag}. Fix: drop the tag or quote the value"
        raise self.fail(message, node, loc)


def _explain(err: dict[str, Any], root: Node, data: Any, path: str, model: type[BaseModel] = Policy) -> PolicyError:
    """One pydantic error as a located message with the value and the fix."""
    kind, value = err["type"], err.get("input")
    loc = tuple(part for part in err["loc"] if part not in SHAPE_TAGS)  # a union's tag is no key
    pinpointed = _pinpoint(loc, root, data) if kind == "value_error" else None
    if pinpointed:
        loc, message = pinpointed
        node = _node_at(root, loc)
    elif kind == "missing":
        name = str(loc[-1])
        node = _node_at(root, loc[:-1])
        choices = _choices(_annotation(loc, model))
        example = _EXAMPLES.get(name, choices.split(" | ")[0] if choices else "...")
        also = f" (one of {choices})" if " | " in choices else ""
        message = f"required key `{name}` is missing. Fix: add `{name}: {example}`{also} here"
    elif kind == "extra_forbidden":
        name = str(loc[-1])
        node = _node_at(root, loc, want_key=True)
        parent = _unwrap(_annotation(loc[:-1], model))
        parent = next((m for m in _members(parent) if _is_model(m)), parent)  # the mapping form of a union
        allowed = list(parent.model_fields) if _is_model(parent) else []
        close = difflib.get_close_matches(name, allowed, n=1)
        hint = f"did you mean `{close[0]}`? " if close else ""
        if loc[:1] == ("judge",) and re.search(r"key|token|secret|password", name, re.IGNORECASE):
            close, hint = [], (
                "a secret never goes in the policy file: export it in the environment "
                "(OPENAI_API_KEY, ANTHROPIC_API_KEY) or name its variable in `api_key_env`. "
            )
        message = (
            f"unknown key `{name}` (value {_show(value)}). Fix: {hint}the keys allowed here are: "
            + ", ".join(allowed)
        )
    else:
        node = _node_at(root, loc)
        message = _value_message(kind, loc, value, err, model)
    mark = node.start_mark
    return PolicyError(
        message, path=path, line=mark.line + 1, column=mark.column + 1, key=_dotted(loc) or None
    )


def _value_message(kind: str, loc: Loc, value: Any, err: dict[str, Any], model: type[BaseModel] = Policy) -> str:
    if loc == ("version",):
        return f"version {_show(value)} is not supported. Fix: write `version: 1`, the only version"
    if kind in ("enum", "literal_error"):
        choices = _choices(_annotation(loc, model))
        close = difflib.get_close_matches(str(value), choices.split(" | "), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        return f"{_show(value)} is not allowed here. Fix: {hint}use one of {choices}"
    if kind in _EXPECTED:
        fix = f"write {_EXPECTED[kind]} here"
        if kind in ("tuple_type", "list_type") and isinstance(value, str):
            fix += f", e.g. [{value}] or one `- item` per line"
        elif kind == "string_type" and isinstance(value, (bool, int, float)):
            fix += f", in quotes: '{_show(value)}'"
        return f"expected {_EXPECTED[kind]}, got {_show(value)}. Fix: {fix}"
    if kind == "string_pattern_mismatch":
        suggestion = re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-") or "billing"
        return (
            f"{_show(value)} may use only lowercase letters, digits and hyphens. "
            f"Fix: write it as {suggestion!r}"
        )
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = err["msg"].replace("Input should be ", "")
        return f"{_show(value)} is out of range. Fix: use a number {bound}"
    if kind == "string_too_short":
        return "empty text is not allowed here. Fix: write the text or delete the entry"
    if kind == "string_too_long":
        limit = err["ctx"]["max_length"]
        if loc[-1] == "rule" or "boundaries" in loc:
            return (
                f"the rule is {len(value):,} characters, over the limit of {limit:,}: a rule is a sentence or "
                "two. Fix: write each thing it forbids as a rule of its own"
            )
        return f"the text is {len(value):,} characters, over the limit of {limit:,}. Fix: shorten it"
    if kind == "value_error":
        return f"{err['ctx']['error']} (got {_show(value)})"
    return f"{err['msg']} (got {_show(value)}). Fix: see `redline schema` for this key"


def _pinpoint(loc: Loc, root: Node, data: Any) -> tuple[Loc, str] | None:
    """The item a list- or model-level check objected to: pydantic names only its parent."""
    value = _get(data, loc)
    if loc == ("judge",) and isinstance(value, dict):
        return _judge_pinpoint(value)
    if loc and loc[-1] == "patterns" and isinstance(value, list):
        for i, pattern in enumerate(value):
            try:
                re2.compile(pattern, _RE2_OPTIONS)
            except Exception as exc:  # re2.error, TypeError for a non-string
                reason = exc.args[0] if exc.args else exc
                reason = reason.decode() if isinstance(reason, bytes) else reason
                if "repetition" in str(reason) or "too large" in str(reason):
                    # RE2 bounds a count at 1,000 and a compiled pattern at 8 MB: the
                    # pattern is valid, only too big for a linear-time matcher
                    fix = ("RE2 allows a repetition count of at most 1,000 and a compiled pattern of "
                           "at most 8 MB; use a smaller count, or `+`/`*` instead of a large one")
                else:
                    fix = ("RE2 has no backreferences (\\1) or lookaround ((?=, (?!, (?<=, (?<!); "
                           "rewrite the pattern without them, or list the phrases under `terms`")
                return (*loc, i), f"pattern {pattern!r} is not valid RE2 ({reason}). Fix: {fix}"
    if loc and loc[-1] == "terms" and isinstance(value, list):
        for i, term in enumerate(value):
            if isinstance(term, str) and not any(ch.isalnum() for ch in term):
                return (*loc, i), (
                    f"term {term!r} has no letters or digits to match. Fix: delete it or "
                    "write the word or phrase to match"
                )
    if loc and loc[-1] == "suppress" and isinstance(value, list) and "affirmed" in value:
        return (*loc, value.index("affirmed")), (
            "'affirmed' cannot be suppressed: an affirmed hit always fires. "
            "Fix: delete it from the list"
        )
    for field, child, what in (("skills", "slug", "skill slug"), ("red_lines", "id", "rule id")):
        items = value.get(field) if isinstance(value, dict) else None
        seen: dict[Any, int] = {}
        for i, item in enumerate(items if isinstance(items, list) else []):
            name = item.get(child) if isinstance(item, dict) else None
            if name is not None and name in seen:
                first = _node_at(root, (*loc, field, seen[name], child)).start_mark.line + 1
                return (*loc, field, i, child), (
                    f"duplicate {what} {name!r} (first used at line {first}). "
                    f"Fix: give each entry of `{field}` a unique `{child}`"
                )
            seen.setdefault(name, i)
    return None


def _judge_pinpoint(value: dict[str, Any]) -> tuple[Loc, str] | None:
    """The `judge:` key that does not fit its kind, or the kind that lacks its model."""
    kind = value.get("kind", "none")
    allowed = JUDGE_KEYS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return None
    extra = [k for k in value if k != "kind" and k not in allowed]
    if extra:
        reads = f"; {kind} reads only: {', '.join(sorted(allowed))}" if allowed else ""
        return ("judge", extra[0]), f"judge kind {kind!r} does not read `{extra[0]}`. Fix: remove it{reads}"
    if kind in ("openai", "anthropic") and value.get("model") is None:
        example = "gpt-4o-mini" if kind == "openai" else "claude-3-5-haiku-latest"
        return ("judge", "kind"), f"judge kind {kind!r} needs a model. Fix: add `model: {example}` under judge"
    return None


def _node_at(root: Node, loc: Loc, want_key: bool = False) -> Node:
    """The deepest node along `loc` (the mapping itself when a key is missing)."""
    node = root
    for part in loc:
        if isinstance(node, MappingNode):
            pair = next((p for p in node.value if p[0].value == part), None)
            if pair is None:
                break
            node = pair[0] if want_key and part == loc[-1] else pair[1]
        elif isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        else:
            break
    return node


def _get(data: Any, loc: Loc) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _annotation(loc: Loc, model: type[BaseModel] = Policy) -> Any:
    """The type the schema expects at `loc`, or None where it cannot say."""
    tp: Any = model
    for part in loc:
        tp = _unwrap(tp)
        if isinstance(part, int) and get_args(tp):
            tp = get_args(tp)[0]
        elif isinstance(part, str) and _is_model(tp) and part in tp.model_fields:
            tp = tp.model_fields[part].annotation
        elif isinstance(part, str) and (model := _member_with(tp, part)) is not None:
            tp = model.model_fields[part].annotation  # `pii: {action: …}`: the mapping form
        else:
            return None
    return tp


def _members(tp: Any) -> tuple[Any, ...]:
    return tuple(_unwrap(a) for a in get_args(tp)) if get_origin(tp) in (Union, types.UnionType) else ()


def _member_with(tp: Any, field: str) -> Any:
    """The model among a union's members that has `field`, or None."""
    return next((m for m in _members(tp) if _is_model(m) and field in m.model_fields), None)


def _unwrap(tp: Any) -> Any:
    while True:
        origin = get_origin(tp)
        members = [a for a in get_args(tp) if a is not type(None)]
        if origin is Annotated:
            tp = get_args(tp)[0]
        elif origin in (Union, types.UnionType) and len(members) == 1:
            tp = members[0]
        else:
            return tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _choices(tp: Any) -> str:
    tp = _unwrap(tp)
    literal = next((m for m in _members(tp) if get_origin(m) is Literal), None)
    if literal is not None:
        tp = literal  # `pii: escalate | {action, allow}`: the plain form's choices
    if get_origin(tp) is Literal:
        return " | ".join(str(v) for v in get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return " | ".join(str(m.value) for m in tp)
    return ""


def _dotted(loc: Loc) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "...'"
