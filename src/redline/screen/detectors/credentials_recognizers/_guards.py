"""What every credential recognizer asks of a candidate value: is it random, or a placeholder?

A secret is a string nobody would type twice. The tests here turn that into numbers and
shapes: Shannon entropy measured against what a random string of the same length and
alphabet would score, how often the character class switches, and the marks of text a
person wrote as an example (`xxxxxxxx`, `<your-api-key>`, `${SECRET}`, `********`,
`abcdefghij`, `EXAMPLE`). Every function is total and linear in its argument.
"""

from __future__ import annotations

import math
import re
from collections import Counter

# entropy (bits per character) that 98 in 100 uniformly random strings of this length
# reach, measured on 2,000 random strings per cell; lengths in between interpolate.
# columns: alphabet of 62+ symbols (upper, lower, digits), 36 (one case and digits), 16 (hex)
_LENGTHS = (12, 16, 20, 24, 32, 40, 64, 100)
_RANDOM_FLOOR = {
    64: (2.92, 3.33, 3.65, 3.89, 4.20, 4.44, 4.90, 5.25),
    36: (2.75, 3.08, 3.41, 3.58, 3.89, 4.11, 4.48, 4.73),
    16: (2.36, 2.73, 2.87, 3.04, 3.26, 3.40, 3.63, 3.76),
}
# share of steps at which the character class switches that 98 in 100 random strings
# reach, measured the same way. Letters of one case with digits switch far less often
# than base62 (a digit is 10 of 36 symbols): a 30-character random lower-case key
# switches at about 0.4, and one in six falls under 0.3, the base62 floor.
_SWITCH_FLOOR = {
    64: (0.30,) * 8,
    36: (0.09, 0.13, 0.15, 0.17, 0.19, 0.20, 0.25, 0.28),
}

_FILLER = re.compile(r"([xX*#•.0_\-])\1{5,}|(?:xX|Xx){3,}")  # xxxxxx, ******, 000000, ######
_MASK_CHARS = frozenset("*#•xX")
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_HEX = re.compile(r"[0-9a-fA-F]+")
# bounded runs and a look-behind, so a long run of digits cannot make `re` backtrack
_VERSION = re.compile(r"(?<![\d.])\d{1,6}\.\d{1,6}(?:\.\d|[-_.])|[-_.]v?\d{1,6}\.\d{1,6}$|SNAPSHOT|RELEASE", re.I)
# a value that only names where the secret lives: ${X}, {{ x }}, $X, %X%, <x>, [X], @X@,
# {0}, %s, $(cmd), process.env.X, os.environ["X"], var.x, ENV["X"]
_REFERENCE = re.compile(
    r"\$\{[^}]*\}?|\$\{\{.*\}\}|\{\{.*\}\}|\$\(.*\)|\$[A-Za-z_][\w.]*|%[A-Za-z_][\w.]*%"
    r"|<[^>]*>|\[[^\]]*\]|@[A-Za-z_]\w*@|\{\d*\}|%[sdr]|\{[a-z_][a-z0-9_.]*\}|\{[A-Z_][A-Z0-9_.]*\}",
)
# a value cut at the first space that opens a template: `<Openverse API token>`, `$(gcloud auth …)`
_OPENS_TEMPLATE = ("<", "${", "$(", "{{", "%(")
_CODE_REF = re.compile(
    r"(?:process\.env|os\.environ|os\.getenv|getenv|System\.getenv|ENV|env|var|vars|secrets|"
    r"config|settings|params|args|self|this)[.\[(]",
)
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")
_WORDS = frozenset(
    """password passwd pass pwd secret secrets token apikey api_key key credential credentials
    changeme changeit example sample dummy fake placeholder redacted removed hidden none null
    nil true false undefined todo tbd test testing string value default required optional
    mypassword yourpassword my_password your_password your-password mysecret yoursecret
    your_token your-token your_api_key your-api-key api-key secret-key secret_key access_key
    notapassword notasecret foobar foo bar baz enter insert replace""".split()
)
_PLACEHOLDER_WORDS = re.compile(
    r"example|sample|dummy|placeholder|redacted|changeme|your[_\- ]?(?:own[_\- ]?)?"
    r"(?:api|secret|key|token|pass|app|client|access|private)|(?:insert|enter|replace|put|add)"
    r"[_\- ](?:your|the|a|here)|_here$|-here$|here_?$",
    re.I,
)
_SEQUENCE = "abcdefghijklmnopqrstuvwxyz"
_SEGMENT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def name_segments(name: str) -> list[str]:
    """Lower-case words of an identifier: `X-Octopus-ApiKey` -> x, octopus, api, key."""
    return [s.lower() for s in _SEGMENT.findall(name)]


def entropy(value: str) -> float:
    """Shannon entropy of `value` in bits per character (0.0 for the empty string)."""
    n = len(value)
    if n == 0:
        return 0.0
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def alphabet_size(value: str) -> int:
    """The alphabet a random generator of `value` most plausibly drew from: 16 for hex,
    36 for one letter case with digits, 64 for both cases."""
    if _HEX.fullmatch(value):
        return 16
    upper = any("A" <= c <= "Z" for c in value)
    lower = any("a" <= c <= "z" for c in value)
    return 64 if upper and lower else 36


def random_floor(length: int, alphabet: int) -> float:
    """Entropy that nearly every random string of this length and alphabet reaches."""
    return _interpolate(_RANDOM_FLOOR[alphabet], length)


def switch_floor(length: int, alphabet: int) -> float:
    """Class-switch rate that nearly every random string of this length and alphabet reaches."""
    return _interpolate(_SWITCH_FLOOR[alphabet], length)


def _interpolate(row: tuple[float, ...], length: int) -> float:
    if length <= _LENGTHS[0]:
        return row[0]
    for i in range(1, len(_LENGTHS)):
        if length <= _LENGTHS[i]:
            lo, hi = _LENGTHS[i - 1], _LENGTHS[i]
            return row[i - 1] + (row[i] - row[i - 1]) * (length - lo) / (hi - lo)
    return row[-1]


_CLASSES = str.maketrans(
    {**{c: "a" for c in "abcdefghijklmnopqrstuvwxyz"}, **{c: "A" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
     **{c: "0" for c in "0123456789"}, **{chr(i): "." for i in range(128) if not chr(i).isalnum()}}
)
_RUNS = re.compile(r"a+|A+|0+|[^aA0]+")


def class_switch_rate(value: str) -> float:
    """Share of neighbouring characters whose class (lower, upper, digit, other) differs:
    about 0.6 for random base62, under 0.2 for identifiers, paths and words."""
    if len(value) < 2:
        return 0.0
    return (len(_RUNS.findall(value.translate(_CLASSES))) - 1) / (len(value) - 1)


def has_letter_run(value: str, length: int = 8) -> bool:
    """True when `value` holds `length` consecutive letters of the alphabet (abcdefgh,
    KLMNOPQR): hand-typed example keys do, random ones practically never."""
    low = value.lower()
    return any(_SEQUENCE[i : i + length] in low for i in range(len(_SEQUENCE) - length + 1))


_DIGITS = "01234567890123456789"
# the same 4-8 characters three times (`1234-1234-1234`, `abcdabcdabcd`); Python `re` with
# a backreference, so only ever run on a bounded value
_REPEATED = re.compile(r"([A-Za-z0-9]{4,8})[-_.]?\1[-_.]?\1")
_ELIDED = ("...", "\u2026", "..[", "[redacted]", "[REDACTED]", "[Redacted]")
_PIECE = re.compile(r"[A-Za-z0-9=]+")
_TAGGED = re.compile(r"([A-Za-z]{2,10}[_-](?:[A-Za-z]{1,10}[_-]){0,2})([A-Za-z0-9]{16,})")
_DIGEST_TAGS = frozenset({"sha", "md", "blake", "crc", "git", "hash", "digest", "checksum"})
_UUID_LIKE = re.compile(r"[0-9a-fA-F]{8}[-_](?:[0-9a-fA-F]{4}[-_]){3}[0-9a-fA-F]{12}")


def is_hand_typed(value: str, sequences: bool = True) -> bool:
    """Marks of a value a person typed as an example or cut short: an ellipsis or a
    `[redacted]` where the rest of the value was; with `sequences`, also six ascending
    digits in a row (`123456`, `7890123`) or one group typed three times. (A password is
    judged without `sequences`: `Welcome123456` is a weak password, still a password.)"""
    if any(mark in value for mark in _ELIDED) or value.endswith(".."):
        return True
    if not sequences:
        return False
    if any(_DIGITS[i : i + 6] in value for i in range(10)):
        return True
    return len(value) <= 512 and _REPEATED.search(value) is not None


def split_tag(core: str) -> tuple[str, str]:
    """(`sk_`, body) when `core` is one short tag of letters (three words at most), a `_` or `-`,
    and a body of 16+ letters and digits with no further separator: the shape vendors
    give their keys (`sk_1dcc…`, `pul-9f3a…`, `aio_qZjx…`). A digest's algorithm name
    (`sha-…`) is not such a tag. Else ("", core)."""
    match = _TAGGED.fullmatch(core)
    if match is None or match.group(1).lower().rstrip("_-") in _DIGEST_TAGS:
        return "", core
    return match.group(1), match.group(2)


def compound_identifier(core: str) -> bool:
    """A name made of parts, not key material: a UUID written with any separator, a path
    (`/archive/gifs/api-c99e…`), or parts joined by `_ - + .` of which half or more
    are plain words or numbers and none a long random run (`struct_X509_pubkey_st`,
    `jetbrains.mps.v8_elimination`; not `gp3tq8lh-tZaYP9yu`, not a tagged key
    `sk_1dcc…`, not a random run that happens to hold a `-`)."""
    if _UUID_LIKE.search(core):
        return True
    if split_tag(core)[0]:
        return False
    if core.startswith("/") or core.count("/") >= 2:
        return True
    pieces = _PIECE.findall(core)
    if len(pieces) < 2:
        return False
    plain = [p for p in pieces if p.isdigit() or (p.isalpha() and (p.islower() or p.isupper() or p.istitle()))]
    if max((len(p) for p in pieces if p not in plain), default=0) >= 16:
        return False
    return len(plain) * 2 >= len(pieces)


def is_filler(value: str) -> bool:
    """A mask or filler run (xxxxxx, ******, ######, 000000, ......) or a value made
    mostly of one character."""
    if _FILLER.search(value):
        return True
    if not value:
        return True
    top = Counter(value).most_common(1)[0][1]
    return len(value) >= 8 and top / len(value) > 0.6


def is_reference(value: str) -> bool:
    """The value names where a secret lives instead of holding one: a template or shell
    variable, an environment lookup, a function call, an <angle-bracket> stand-in."""
    stripped = value.strip("\"'` ")
    if _REFERENCE.fullmatch(stripped) or _CODE_REF.match(stripped) or stripped.startswith(_OPENS_TEMPLATE):
        return True
    return bool(_CALL.match(stripped)) and stripped.endswith((")", ");", "),"))


def is_placeholder(value: str) -> bool:
    """A value written to stand for a secret rather than be one."""
    stripped = value.strip("\"'` ")
    if not stripped or stripped.lower() in _WORDS:
        return True
    if is_filler(stripped) or is_reference(stripped):
        return True
    return bool(_PLACEHOLDER_WORDS.search(stripped))


def is_uuid(value: str) -> bool:
    return bool(_UUID.fullmatch(value))


def is_hex(value: str) -> bool:
    return bool(_HEX.fullmatch(value))


def looks_like_version(value: str) -> bool:
    return bool(_VERSION.search(value))


_CAMEL_WORD = re.compile(r"[A-Z]?[a-z]{3,}")


def word_coverage(value: str) -> float:
    """Share of `value` in runs of three or more lower-case letters (with a capital in
    front): 0.9 for `OAuth2PasswordRequestForm`; 98 in 100 random base62 strings of 20+
    characters stay under 0.65, 999 in 1,000 under 0.85 (measured). Meaningful for mixed
    case only: a random lower-case key is one long run of letters and digits."""
    return sum(len(w) for w in _CAMEL_WORD.findall(value)) / len(value) if value else 0.0


def looks_random(value: str, min_length: int = 20) -> tuple[bool, str]:
    """Whether `value` reads as machine-generated key material, and why (or why not).

    Random strings of 20+ characters mix letters and digits, switch character class at
    almost every step and score near the entropy of a random string of their length;
    words, identifiers, paths, hashes of one case and example keys do not."""
    n = len(value)
    if n < min_length:
        return False, f"{n} characters, under {min_length}"
    classes = value.translate(_CLASSES)
    if "0" not in classes or ("a" not in classes and "A" not in classes):
        return False, "does not mix letters and digits"
    core = value.rstrip("=")
    alphabet = alphabet_size(core)
    score = entropy(core)
    floor = random_floor(len(core), alphabet) - 0.15
    if score < floor:
        return False, f"entropy {score:.2f} under {floor:.2f} for {len(core)} random characters"
    switches = class_switch_rate(core)
    if alphabet != 16 and switches < switch_floor(len(core), alphabet):
        return False, f"character class switches at {switches:.2f} of steps, like words"
    if has_letter_run(core) or _PLACEHOLDER_WORDS.search(core) or is_filler(core) or is_hand_typed(core, sequences=False):
        return False, "reads as a hand-typed example"
    if alphabet == 64 and word_coverage(core) >= 0.8:
        return False, "reads as words joined in camelCase"
    return True, f"entropy {score:.2f} bits/char (random floor {floor:.2f}), class switches {switches:.2f}"


def trailing_mask(text: str, end: int) -> bool:
    """True when the token at `end` runs on into a mask (xoxp-1234-…-##########): a
    partly redacted credential that no longer grants anything."""
    return end < len(text) and text[end] in _MASK_CHARS and text[end : end + 4] == text[end] * 4
