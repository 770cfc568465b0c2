"""Loading policy files: valid ones construct, broken ones fail naming file, line, key and fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

import redline.policy
from redline.errors import PolicyError
from redline.policy import Policy, load_policy, parse_policy, policy_hash
from redline.types import Severity, Status

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "policies"

MINIMAL = """\
version: 1
name: acme-support
"""

ONE_RULE = """\
version: 1
name: acme-support
skills:
  - slug: billing
    red_lines:
      - id: no-refund-promise
        rule: Never promise a refund.
        severity: block
"""


def write(tmp_path: Path, text: str, name: str = "policy.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> tuple[str, PolicyError]:
    """The path written and the error loading it raised."""
    path = write(tmp_path, text)
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    return str(path), info.value


# --- valid policies ---------------------------------------------------------------------


def test_policy_package_exports_exactly_its_public_names() -> None:
    assert sorted(redline.policy.__all__) == sorted(
        ["Policy", "load_policy", "parse_policy", "policy_hash", "json_schema"]
    )
    for name in redline.policy.__all__:
        assert getattr(redline.policy, name) is not None


def test_support_policy_loads_its_skills_rules_and_settings() -> None:
    policy = load_policy(FIXTURES / "support.yaml")

    assert policy.name == "acme-support"
    assert [skill.slug for skill in policy.skills] == ["billing", "legal"]
    billing = policy.skills[0]
    assert [line.id for line in billing.red_lines] == [
        "no-refund-promise",
        "no-internal-pricing",
        "no-compensation-credit",
    ]
    assert billing.red_lines[2].severity is Severity.FLAG
    assert billing.red_lines[1].terms == (
        "discount floor",
        "internal pricing",
        "margin",
        "cost price",
    )
    assert policy.auto_send.min_confidence == 0
    assert policy.detectors.technical_content == "escalate"
    assert len(policy.soul.boundaries.escalate) == 2


def test_triage_policy_keeps_pii_off_as_the_string_off() -> None:
    policy = load_policy(str(FIXTURES / "triage.yaml"))

    assert policy.detectors.pii == "off"
    assert policy.detectors.technical_content == "off"
    assert policy.screen.suppress == (
        Status.NEGATED,
        Status.ATTRIBUTED,
        Status.HISTORICAL,
        Status.HYPOTHETICAL,
    )
    assert policy.skills[0].red_lines[3].suppress == ()


def test_minimal_policy_gets_every_default() -> None:
    policy = parse_policy(MINIMAL)

    assert policy.auto_send.min_confidence == 101
    assert policy.screen.suppress == (
        Status.NEGATED,
        Status.ATTRIBUTED,
        Status.HISTORICAL,
        Status.OTHER_EXPERIENCER,
    )
    assert policy.detectors.credentials == "refuse"
    assert policy.detectors.pii == "escalate"
    assert policy.detectors.technical_content == "off"
    assert policy.on_error == "escalate"
    assert policy.judge.kind == "none"
    assert policy.skills == ()


def test_yaml_11_boolean_words_stay_strings() -> None:
    policy = parse_policy(
        ONE_RULE + "        terms: [yes, no, on, off, 1:30, 2024-01-01]\n"
        "detectors:\n  pii: off\n  credentials: flag\n"
    )

    assert policy.skills[0].red_lines[0].terms == ("yes", "no", "on", "off", "1:30", "2024-01-01")
    assert policy.detectors.pii == "off"


def test_hash_is_stable_across_formatting_comments_and_key_order() -> None:
    reordered = """\
    # the same policy, written differently
    skills: [{slug: billing, red_lines: [{severity: block, rule: Never promise a refund.,
                                         id: no-refund-promise}]}]
    name: "acme-support"   # quoted this time
    detectors: {pii: escalate}   # the default, stated
    version: 1
    """
    original = parse_policy(ONE_RULE)
    rewritten = parse_policy(textwrap.dedent(reordered))

    assert original == rewritten
    assert policy_hash(original) == policy_hash(rewritten) == original.hash
    assert original.hash.startswith("sha256:")


def test_hash_changes_when_a_rule_changes() -> None:
    original = parse_policy(ONE_RULE)
    stricter = parse_policy(ONE_RULE.replace("severity: block", "severity: refuse"))
    reworded = parse_policy(ONE_RULE.replace("a refund.", "any refund."))

    assert len({original.hash, stricter.hash, reworded.hash}) == 3


# --- one test per kind of error ---------------------------------------------------------


def test_missing_required_key_names_the_parent_mapping_line_and_the_key_to_add(
    tmp_path: Path,
) -> None:
    path, error = load_error(tmp_path, ONE_RULE.replace("        severity: block\n", ""))

    assert str(error).startswith(f"{path}:6:9: skills[0].red_lines[0].severity: ")
    assert "required key `severity` is missing" in str(error)
    assert "Fix: add `severity: block`" in str(error)
    assert (error.path, error.line, error.column) == (path, 6, 9)
    assert error.key == "skills[0].red_lines[0].severity"


def test_wrong_type_names_line_key_value_and_the_expected_type(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, ONE_RULE + "        terms: refund\n")

    assert str(error).startswith(f"{path}:9:16: skills[0].red_lines[0].terms: ")
    assert "expected a list, got 'refund'" in str(error)
    assert "Fix: write a list here, e.g. [refund]" in str(error)


def test_unknown_severity_names_line_key_and_allowed_values(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, ONE_RULE.replace("severity: block", "severity: blocker"))

    assert str(error).startswith(f"{path}:8:19: skills[0].red_lines[0].severity: ")
    assert "'blocker' is not allowed here" in str(error)
    assert "Fix: did you mean block? use one of block | flag | refuse" in str(error)


def test_unknown_key_lists_allowed_keys_and_suggests_the_closest(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, ONE_RULE + "        pattern: ['refund']\n")

    assert str(error).startswith(f"{path}:9:9: skills[0].red_lines[0].pattern: ")
    assert "unknown key `pattern`" in str(error)
    assert "did you mean `patterns`?" in str(error)
    assert "id, rule, severity, terms, patterns, suppress" in str(error)


def test_duplicate_rule_id_points_at_the_second_id(tmp_path: Path) -> None:
    second = """\
      - id: no-refund-promise
        rule: Never confirm a refund.
        severity: flag
"""
    path, error = load_error(tmp_path, ONE_RULE + second)

    assert str(error).startswith(f"{path}:9:13: skills[0].red_lines[1].id: ")
    assert "duplicate rule id 'no-refund-promise' (first used at line 6)" in str(error)
    assert "Fix: give each entry of `red_lines` a unique `id`" in str(error)


def test_duplicate_skill_slug_points_at_the_second_slug(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, ONE_RULE + "  - slug: legal\n  - slug: billing\n")

    assert str(error).startswith(f"{path}:10:11: skills[2].slug: ")
    assert "duplicate skill slug 'billing' (first used at line 4)" in str(error)
    assert "Fix: give each entry of `skills` a unique `slug`" in str(error)


def test_re2_invalid_pattern_points_at_the_pattern_and_names_what_re2_lacks(
    tmp_path: Path,
) -> None:
    patterns = "        patterns:\n          - '\\brefund\\b'\n          - '(?<!no )refund'\n"
    path, error = load_error(tmp_path, ONE_RULE + patterns)

    assert str(error).startswith(f"{path}:11:13: skills[0].red_lines[0].patterns[1]: ")
    assert "'(?<!no )refund' is not valid RE2" in str(error)
    assert "RE2 has no backreferences" in str(error)
    assert "lookaround" in str(error)
    assert "rewrite the pattern without them" in str(error)



@pytest.mark.parametrize("pattern", ["(a{1000}){1000}", "[\\p{L}]{1,1000}x"])
def test_a_pattern_too_big_for_re2_says_so_not_that_re2_lacks_a_feature(tmp_path: Path, pattern: str) -> None:
    path, error = load_error(tmp_path, ONE_RULE + f"        patterns: ['{pattern}']\n")
    assert str(error).startswith(f"{path}:9:20: skills[0].red_lines[0].patterns[0]: ")
    assert "a repetition count of at most 1,000 and a compiled pattern of at most 8 MB" in str(error)
    assert "backreferences" not in str(error)


def test_missing_file_is_named_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(PolicyError) as info:
        load_policy(path)

    assert str(info.value).startswith(f"{path}: no such file")
    assert "Fix: check the path" in str(info.value)
    assert isinstance(info.value.__cause__, FileNotFoundError)


def test_unreadable_file_says_permission_denied_and_how_to_fix_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, MINIMAL)

    def denied(name: str) -> bytes:
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(redline.policy.load, "_read", denied)  # chmod does not stop root
    with pytest.raises(PolicyError) as info:
        load_policy(path)

    assert str(info.value).startswith(f"{path}: permission denied")
    assert "Fix: make the file readable" in str(info.value)
    assert isinstance(info.value.__cause__, PermissionError)


def test_directory_instead_of_a_file_is_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(PolicyError) as info:
        load_policy(tmp_path)

    assert str(info.value).startswith(f"{tmp_path}: this is a directory")
    assert "Fix: give the path of the policy .yaml file" in str(info.value)


def test_non_utf8_file_names_the_line_and_column_of_the_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"version: 1\nname: caf\xe9\n")
    with pytest.raises(PolicyError) as info:
        load_policy(path)

    assert str(info.value).startswith(f"{path}:2:10: not UTF-8 text: byte 0xe9")
    assert "Fix: save the file as UTF-8" in str(info.value)
    assert isinstance(info.value.__cause__, UnicodeDecodeError)


def test_broken_yaml_uses_the_parser_position_and_keeps_its_cause(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, ONE_RULE.replace("rule: Never", "rule: [Never"))

    assert str(error).startswith(f"{path}:8:17: not valid YAML: expected ',' or ']'")
    assert "while parsing a flow sequence at line 7" in str(error)
    assert "Fix: check the indentation, the quotes" in str(error)
    assert isinstance(error.__cause__, yaml.YAMLError)


def test_tab_indentation_says_to_indent_with_spaces(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, "version: 1\n\tname: acme-support\n")

    assert str(error).startswith(f"{path}:2:1: not valid YAML: ")
    assert "Fix: indent with spaces" in str(error)


def test_empty_file_is_refused_with_how_to_start(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, "# nothing here yet\n")

    assert str(error).startswith(f"{path}:1:1: the file is empty")
    assert "Fix: write the policy, starting with `version: 1`" in str(error)


def test_top_level_list_is_refused_as_not_a_mapping(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, "- version: 1\n- name: acme-support\n")

    assert str(error).startswith(f"{path}:1:1: this is not a redline policy: the top level is a list, not a mapping")
    assert "Fix: write `key: value` lines at the top level" in str(error)


def test_wrong_version_names_the_value_and_the_only_supported_version(tmp_path: Path) -> None:
    path, error = load_error(tmp_path, MINIMAL.replace("version: 1", "version: 2"))

    assert str(error).startswith(f"{path}:1:10: version: version 2 is not supported")
    assert "Fix: write `version: 1`" in str(error)


def test_duplicate_key_in_one_mapping_is_an_error_not_last_one_wins(tmp_path: Path) -> None:
    path, error = load_error(
        tmp_path, MINIMAL + "detectors:\n  pii: off\n  credentials: refuse\n  pii: escalate\n"
    )

    assert str(error).startswith(f"{path}:6:3: detectors.pii: ")
    assert "key `pii` appears twice in this mapping (first at line 4)" in str(error)
    assert "Fix: delete or merge one of them" in str(error)


# --- several errors, causes and values the schema must not coerce ------------------------


def test_several_errors_are_all_listed_with_the_first_in_the_header(tmp_path: Path) -> None:
    text = ONE_RULE.replace("severity: block", "severity: blocker") + "bogus: 1\n"
    path, error = load_error(tmp_path, text)
    message = str(error)

    assert message.startswith(f"{path}:8:19: skills[0].red_lines[0].severity: ")
    assert "2 problems in this policy:" in message
    assert f"  {path}:8:19: skills[0].red_lines[0].severity: 'blocker'" in message
    assert f"  {path}:9:1: bogus: unknown key `bogus` (value 1)" in message


def test_validation_error_keeps_the_pydantic_cause() -> None:
    with pytest.raises(PolicyError) as info:
        parse_policy(MINIMAL.replace("acme-support", "Acme Support"), "inline.yaml")

    assert str(info.value).startswith("inline.yaml:2:7: name: 'Acme Support' may use only")
    assert "Fix: write it as 'acme-support'" in str(info.value)
    assert isinstance(info.value.__cause__, ValidationError)


def test_false_for_a_detector_is_refused_and_lists_off() -> None:
    with pytest.raises(PolicyError) as info:
        parse_policy(MINIMAL + "detectors:\n  pii: false\n")

    assert str(info.value).startswith("<string>:4:8: detectors.pii: false is not allowed")
    assert "refuse | escalate | flag | off" in str(info.value)


def test_version_true_is_not_read_as_version_1() -> None:
    with pytest.raises(PolicyError, match="version true is not supported"):
        parse_policy(MINIMAL.replace("version: 1", "version: true"))


def test_min_confidence_true_is_not_read_as_1() -> None:
    with pytest.raises(PolicyError, match=r"auto_send\.min_confidence: expected a whole number"):
        parse_policy(MINIMAL + "auto_send:\n  min_confidence: true\n")


def test_a_rule_cannot_suppress_affirmed_hits() -> None:
    with pytest.raises(PolicyError) as info:
        parse_policy(ONE_RULE + "        suppress: [negated, affirmed]\n")

    assert str(info.value).startswith(
        "<string>:9:29: skills[0].red_lines[0].suppress[1]: 'affirmed' cannot be suppressed"
    )


def test_parse_policy_returns_a_policy_model() -> None:
    assert isinstance(parse_policy(MINIMAL), Policy)


BOMB = "version: 1\nname: bomb\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{b}: &{b} [{', '.join([f'*{a}'] * 9)}]\n" for a, b in zip("abcdefgh", "bcdefghi")
)


def test_a_yaml_alias_bomb_is_refused_at_once_not_expanded(tmp_path: Path) -> None:
    import time

    started = time.perf_counter()
    path, error = load_error(tmp_path, BOMB)
    assert time.perf_counter() - started < 5, "refused before the expansion, not after"
    assert "alias bomb" in str(error) and str(error).startswith(f"{path}:")


def test_a_small_shared_alias_is_still_allowed() -> None:
    policy = parse_policy(
        "version: 1\nname: shared\nscreen: {suppress: &quiet [negated, historical]}\n"
        "skills:\n  - slug: s\n    red_lines:\n      - {id: a, rule: Never promise a refund., severity: block, suppress: *quiet}\n"
    )
    assert policy.skills[0].red_lines[0].suppress == ("negated", "historical") or list(policy.skills[0].red_lines[0].suppress) == ["negated", "historical"]


SCALARS = """\
version: 1
name: scalars
x: [null, Null, NULL, nul, nulls, NuLL, ~, true, True, TRUE, trUe, false, False, FALSE, Falsey,
    yes, no, on, off, n, t, f, F, 0x1F, 0o17, 1e3, .5, -.inf, +1, 12:30, 2024-01-01, Nope,
    "true", 'null', '~', .x, -x, 0b11, 1_000]
"""


def test_core_schema_scalars_read_the_same_whichever_loader_reads_them() -> None:
    """libyaml's loader skips the regexes for most scalars: each scalar still gets the type
    YAML 1.2's core schema gives it, as the Python loader (all regexes) reads it."""
    from redline.policy import load

    expected = [None, None, None, "nul", "nulls", "NuLL", None, True, True, True, "trUe", False, False,
                False, "Falsey", "yes", "no", "on", "off", "n", "t", "f", "F", 31, 15, 1000.0, 0.5,
                float("-inf"), 1, "12:30", "2024-01-01", "Nope", "true", "null", "~", ".x", "-x", "0b11", "1_000"]
    for loader in (load._Yaml12CLoader, load._Yaml12Loader):
        root = yaml.compose(SCALARS, Loader=loader)
        assert load._Converter("<t>").value(root, ())["x"] == expected, loader.__name__


def test_a_text_without_aliases_converts_as_one_with_them() -> None:
    """Without a `*` no value can be reached twice, and the walk skips that bookkeeping:
    the values, and the depth limit, are the same either way."""
    from redline.policy import load

    text = (FIXTURES.parent.parent.parent / "examples" / "policy.yaml").read_text(encoding="utf-8")
    assert "*" not in text
    root = yaml.compose(text, Loader=load._Yaml12CLoader)
    assert load._Converter("<t>", aliases=False).value(root, ()) == load._Converter("<t>").value(root, ())
    assert parse_policy(text).hash == parse_policy(text + "# a comment with a * in it\n").hash
    deep = yaml.compose("x: " + "[" * 70 + "v" + "]" * 70 + "\n", Loader=load._Yaml12CLoader)
    for aliases in (False, True):
        with pytest.raises(PolicyError, match="nested more than 64") as info:
            load._Converter("<t>", aliases=aliases).value(deep, ())
        assert info.value.line == 1 and info.value.column == 68


def test_deep_nesting_is_a_policy_error_not_a_crash(tmp_path: Path) -> None:
    _, error = load_error(tmp_path, "version: 1\nname: deep\nskills: " + "[" * 5_000 + "]" * 5_000 + "\n")
    assert "nested" in str(error)
    _, error = load_error(tmp_path, "version: 1\nname: deep\nskills: " + "[" * 200 + "]" * 200 + "\n")
    assert "nested more than" in str(error)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redline.policy.load, "MAX_POLICY_BYTES", 1024)
    path, error = load_error(tmp_path, MINIMAL + "# " + "x" * 2048 + "\n")
    assert "over the limit of 1024" in str(error)


def test_a_fifo_named_yaml_is_refused_without_blocking(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(PolicyError, match="not a regular file"):
        load_policy(fifo)


def test_a_file_that_is_not_a_policy_is_never_quoted(tmp_path: Path) -> None:
    secret = "root:$6$Zq8sALT$hashhashhash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"
    for content in (secret, "services:\n  db:\n    password: hunter2-very-secret\n", "- " + secret):
        path, error = load_error(tmp_path, content)
        message = str(error).removeprefix(path)
        assert "not a redline policy" in message or "not valid YAML" in message
        for fragment in ("root", "$6$", "hunter2", "daemon", "services"):
            assert fragment not in message


def test_a_rule_longer_than_a_paragraph_is_refused_with_its_length_and_the_fix(tmp_path: Path) -> None:
    # reading a rule for its topics costs more than its length: a pasted page would stall
    # the load, so it is refused at once, by line, with the limit
    page = "Never promise a refund for a cancelled ticket. " * 100
    path, error = load_error(tmp_path, ONE_RULE.replace("Never promise a refund.", page.strip()))
    assert str(error).startswith(f"{path}:7:15: skills[0].red_lines[0].rule: ")
    assert f"the rule is {len(page.strip()):,} characters, over the limit of 2,000" in str(error)
    assert "Fix: write each thing it forbids as a rule of its own" in str(error)
    boundary = MINIMAL + f"soul:\n  boundaries:\n    never:\n      - {page.strip()}\n"
    path, error = load_error(tmp_path, boundary)
    assert "soul.boundaries.never[0]: the rule is" in str(error)
    # a rule of a few sentences loads as before
    assert load_policy(write(tmp_path, ONE_RULE.replace("Never promise a refund.", page[:1900].strip())))
