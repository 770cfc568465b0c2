"""Credentials recall on vendors and layouts nobody on the project wrote, and FPR on prose.

    git clone https://github.com/mongodb/kingfisher /tmp/kingfisher
    git -C /tmp/kingfisher checkout ee7c0db3ef87575768f817820c24736249ffcdef
    PYTHONPATH=src python benchmarks/credentials_layouts.py /tmp/kingfisher ../shared/benchmarks [--json]

Where the vendors come from: Kingfisher (MongoDB, Apache-2.0) publishes one YAML rule
per vendor, with a pattern and examples. This script reads the rules (not their values):
for each example it samples a NEW random value from the rule's own capture group (so the
shape is the vendor's: prefix, alphabet, length), swaps it into the example ("native"
layout), and writes the same value into the layouts below, with the vendor's name where
code would put it. Nothing is copied into the project: the set is rebuilt from a
Kingfisher checkout each run, seeded, so two runs see the same strings.

- A vendor is *seen* when one of our vendor rules fires on the bare value, else *unseen*:
  its recall comes from the generic nets (named assignments, structures, random strings).
- Vendors are split in two halves by a hash of their name; the mechanisms were developed
  on `dev` only, and `held_out` is reported beside it.
- Families are value shapes (hex, lower-case alnum, mixed base62, upper alnum, UUID,
  prefixed, JWT-like, with symbols, URL).
- A row is caught when a detection overlaps the value.
- Rules whose name says the value identifies rather than opens (client IDs, user names,
  domains, hosts, account names, password hashes) are left out.
- FPR on prose: the share of texts on which the detector fires anything, over prose
  from the shared benchmarks (NegEx clinical sentences, presidio-research synthetic
  sentences, deepset prompts, NotInject benign prompts), over support prose that talks
  about credentials, and over the same layouts filled with placeholders and identifiers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import string
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import re._constants as sre_constants  # the stdlib's regex parser: sample a string for a pattern
import re._parser as sre_parse

import yaml

try:
    import redline  # noqa: F401
except ImportError:  # run from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from redline.screen.detectors.credentials import CredentialsDetector
from redline.screen.detectors.credentials_recognizers import vendor

RECALL_TARGET, FPR_TARGET = 0.95, 0.05
# rules whose value identifies rather than opens, and password hashes (not credentials)
_NOT_A_SECRET = re.compile(
    r"(?i)\b(?:id|user ?name|user|domain|host|hash|name|email|identifier|region|org|organization|"
    r"instance url|search url|jfrog url|bot id|account)\b(?!.*\b(?:key|token|secret|password)\b)"
)
_SKIP_FILES = frozenset({"hashes"})
# a sampled value that is one token of key characters (the sampler can walk into the
# parts of a pattern that match a whole connection string or a URL)
_VALUE_SHAPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+/=.~-]{7,}")
_ALNUM = string.ascii_letters + string.digits

# ------------------------------------------------------------------ sampling from a rule


def _category(cat: Any) -> str:
    C = sre_constants
    if cat == C.CATEGORY_DIGIT:
        return string.digits
    if cat == C.CATEGORY_WORD:
        return _ALNUM + "_"
    if cat == C.CATEGORY_SPACE:
        return " "
    return ""


def _gen(items: Iterable[Any], rng: random.Random, flags: int) -> str:
    return "".join(_one(op, av, rng, flags) for op, av in items)


def _one(op: Any, av: Any, rng: random.Random, flags: int) -> str:
    C = sre_constants
    if op is C.LITERAL:
        return chr(av)
    if op is C.NOT_LITERAL:
        return rng.choice([c for c in _ALNUM if c != chr(av)])
    if op is C.ANY:
        return rng.choice(_ALNUM)
    if op is C.IN:
        chars: list[str] = []
        negate = False
        for o, a in av:
            if o is C.NEGATE:
                negate = True
            elif o is C.LITERAL:
                chars.append(chr(a))
            elif o is C.RANGE:
                chars.extend(chr(c) for c in range(a[0], a[1] + 1))
            elif o is C.CATEGORY:
                chars.extend(_category(a))
        if negate:
            chars = [c for c in _ALNUM if c not in chars]
        return rng.choice(chars)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
        lo, hi, sub = av
        if hi is C.MAXREPEAT or hi > lo + 40:
            hi = max(lo, min(lo + 40, 64))
        return "".join(_gen(sub, rng, flags) for _ in range(rng.randint(lo, hi)))
    if op is C.SUBPATTERN:
        return _gen(av[3], rng, flags | av[1])
    if op is C.BRANCH:
        return _gen(rng.choice(av[1]), rng, flags)
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT, C.GROUPREF):
        return ""
    if op is C.CATEGORY:
        chars = _category(av)
        return rng.choice(chars) if chars else ""
    raise ValueError(f"cannot sample {op}")


def _group_one(parsed: Any) -> Any:
    """The parse tree of capture group 1."""
    C = sre_constants
    for op, av in parsed:
        if op is C.SUBPATTERN:
            if av[0] == 1:
                return av[3]
            found = _group_one(av[3])
        elif op is C.BRANCH:
            found = next((f for b in av[1] if (f := _group_one(b)) is not None), None)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            found = _group_one(av[2])
        else:
            continue
        if found is not None:
            return found
    return None


def kingfisher_rows(root: Path, rng: random.Random) -> list[dict[str, Any]]:
    rows = []
    for path in sorted((root / "data" / "rules").glob("*.yml")):
        if path.stem in _SKIP_FILES:
            continue
        for rule in (yaml.safe_load(path.read_text("utf-8")) or {}).get("rules", []):
            if _NOT_A_SECRET.search(rule["name"]):
                continue
            try:
                regex = re.compile(rule["pattern"])
                group = _group_one(sre_parse.parse(rule["pattern"]))
            except (re.error, RecursionError):
                continue
            if group is None:
                continue
            for example in (rule.get("examples") or [])[:2]:
                match = regex.search(example)
                if match is None or not match.group(1):
                    continue
                for _ in range(20):  # a sample that the rule itself accepts in the example
                    try:
                        value = _gen(group, rng, regex.flags)
                    except (ValueError, IndexError):
                        break
                    native = example[: match.start(1)] + value + example[match.end(1) :]
                    again = regex.search(native)
                    if again is not None and again.group(1) == value and _VALUE_SHAPE.fullmatch(value):
                        rows.append({"vendor": path.stem, "rule": rule["id"], "value": value, "native": native,
                                     "at": match.start(1), "example": example, "example_value": match.group(1),
                                     "example_at": match.start(1)})
                        break
    return rows


# ------------------------------------------------------------------ layouts

def _words(vendor_name: str) -> dict[str, str]:
    v = re.sub(r"[^a-z0-9]", "", vendor_name.lower()) or "acme"
    return {"v": v, "V": v.upper(), "Vc": v.capitalize()}


# (layout, template); {s} is the value. Every template is a way keys are written in
# config, code, logs, tables and chat that the issue tracker or peers' docs show.
LAYOUTS: tuple[tuple[str, str], ...] = (
    ("env", "{V}_API_KEY={s}"),
    ("bare Key=", "Key={s}"),
    ("bare key:", "key: {s}"),
    ("json", '{{"{v}_token": "{s}"}}'),
    ("yaml nested", "{v}:\n  api_key: {s}\n  timeout: 30"),
    ("go typed", 'const {v}Key string = "{s}"'),
    ("kotlin typed", 'val key: String = "{s}"'),
    ("rust typed", 'let token: &str = "{s}";'),
    ("typescript typed", "const {v}ApiKey: string = '{s}';"),
    ("c# typed", 'private const string {Vc}Secret = "{s}";'),
    ("java", 'String {v}Token = "{s}";'),
    ("swift typed", 'let apiKey: String = "{s}"'),
    ("table row", "| {v} | production | {s} |"),
    ("log, dashes", "2024-05-01 12:00:01 - {v} - auth - {s}"),
    ("log, pipes", "INFO | {v} client | token | {s}"),
    ("quoted, trailing space", '"{v}_secret": "{s} "'),
    ("braces", "{v}_key = {{{s}}}"),
    ("braces, spaced", "{v}_credentials: {{ {s} }}"),
    ("keyword then value", "{v} secret {s}"),
    ("chat sentence", "Here is the {v} key you asked for: {s}"),
    ("url ?key=", "https://api.{v}.com/v2/items?key={s}&limit=10"),
    ("url ?access_token=", 'curl "https://api.{v}.io/v1/me?access_token={s}"'),
    ("header", 'curl -H "X-{Vc}-Key: {s}" https://api.{v}.com/v1/status'),
    ("cli flag", "{v} login --token {s}"),
    ("xml", "<{v}ApiKey>{s}</{v}ApiKey>"),
)
# Values that must not fire in the same layouts: placeholders, references, identifiers.
NEGATIVE_VALUES = (
    "<your-api-key>", "YOUR_API_KEY_HERE", "xxxxxxxxxxxxxxxxxxxxxxxx", "${{{V}_API_KEY}}", "changeme",
    "**********", "{{{{ .Values.{v}.token }}}}", "process.env.{V}_TOKEN", "<{V}_SECRET>", "REPLACE_ME",
)
_PLACEHOLDER_ONLY = {"url ?key=", "url ?access_token=", "header"}  # templates whose braces are literal


def fill(template: str, vendor_name: str, value: str) -> tuple[str, int]:
    words = _words(vendor_name)
    marker = "\x00"
    text = template.format(s=marker, **words)
    at = text.index(marker)
    return text.replace(marker, value), at


def long_value(rng: random.Random) -> str:
    """A session or SAML-style token over 512 characters."""
    return "".join(rng.choice(_ALNUM + "-_") for _ in range(rng.randint(600, 900)))


WEBHOOKS: tuple[tuple[str, Callable[[random.Random], str]], ...] = (
    ("slack webhook", lambda r: "https://hooks.slack.com/services/T" + _rand(r, 8, "upper") + "/B" +
     _rand(r, 10, "upper") + "/" + _rand(r, 24)),
    ("discord webhook", lambda r: f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/" + _rand(r, 68, "url")),
    ("teams webhook", lambda r: "https://acme.webhook.office.com/webhookb2/" + _uuid(r) + "@" + _uuid(r) +
     "/IncomingWebhook/" + _rand(r, 32, "hex") + "/" + _uuid(r)),
    ("generic hook with token", lambda r: "https://hooks.example-ci.io/trigger/" + _rand(r, 40) + "?token=" + _rand(r, 32)),
)


def _rand(r: random.Random, n: int, kind: str = "b62") -> str:
    alphabet = {"b62": _ALNUM, "upper": string.ascii_uppercase + string.digits, "hex": "0123456789abcdef",
                "url": _ALNUM + "-_"}[kind]
    while True:
        value = "".join(r.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def _uuid(r: random.Random) -> str:
    h = _rand(r, 32, "hex")
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def family(value: str) -> str:
    core = value
    if re.fullmatch(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", core):
        return "uuid"
    if core.startswith("eyJ"):
        return "jwt-like"
    prefix = re.match(r"[A-Za-z]{2,12}[_-]", core)
    if prefix and len(core) - prefix.end() >= 8:
        return "prefixed"
    if re.fullmatch(r"[0-9a-f]+", core) or re.fullmatch(r"[0-9A-F]+", core):
        return "hex"
    if re.fullmatch(r"[a-z0-9]+", core):
        return "lower alnum"
    if re.fullmatch(r"[A-Z0-9]+", core):
        return "upper alnum"
    if re.fullmatch(r"[A-Za-z0-9]+", core):
        return "mixed base62"
    return "with symbols"


def split(vendor_name: str) -> str:
    return "dev" if hashlib.sha1(vendor_name.encode()).digest()[0] % 2 == 0 else "held_out"


# ------------------------------------------------------------------ prose

SUPPORT_PROSE = (
    "You can reset your password from the login page.", "Please regenerate your API key under Settings > API.",
    "The token expired yesterday, so sign in again to get a new one.", "Your password must be 12 characters or more.",
    "The key is to restart the router first, then the modem.", "Credentials are managed in Vault; ask the platform team.",
    "API keys are shown once: copy yours when you create it.", "We never ask for your password by e-mail or chat.",
    "Rotate any key that was pasted into a public channel, then revoke the old one.",
    "Your access token lasts one hour; the refresh token lasts thirty days.",
    "Use the key icon in the toolbar to open the secrets manager.",
    "Set the API_KEY environment variable before you run the CLI.",
    "The webhook URL is on the Integrations page under Outgoing webhooks.",
    "If your key: value pairs are not saved, check the YAML indentation.",
    "Each API key is scoped to one project; an organisation token covers all of them.",
    "Key rotation happens every 90 days, and you get an e-mail a week before.",
    "Secret scanning blocked the push because the commit contained a token.",
    "The primary key of the orders table is order_id, a bigint.",
    "Press the Windows key and R, then type cmd and press Enter.",
    "Your license key was sent to the e-mail address on the order.",
)


def markdown_paragraphs(folders: list[Path]) -> tuple[list[str], list[str]]:
    """(prose paragraphs, fenced code blocks) of every Markdown file under `folders`."""
    prose: list[str] = []
    code: list[str] = []
    for folder in folders:
        for path in sorted(folder.rglob("*.md")):
            inside, block, para = False, [], []
            for line in path.read_text("utf-8", "replace").splitlines():
                if line.lstrip().startswith("```"):
                    if inside and block:
                        code.append("\n".join(block))
                    inside, block = not inside, []
                    continue
                if inside:
                    block.append(line)
                elif line.strip():
                    para.append(line)
                elif para:
                    prose.append(" ".join(para))
                    para = []
            if para:
                prose.append(" ".join(para))
    return prose, code


def prose_sets(shared: Path, docs: list[Path]) -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {"support prose about credentials": list(SUPPORT_PROSE)}
    if docs:
        paragraphs, _ = markdown_paragraphs(docs)
        sets["documentation paragraphs (--docs)"] = paragraphs
    negex = shared / "negex" / "negex-rs-annotations.jsonl"
    if negex.exists():
        sets["NegEx clinical sentences"] = [json.loads(line)["text"] for line in negex.open() if line.strip()]
    synth = shared / "pii" / "presidio-synth-v2.json"
    if synth.exists():
        sets["presidio-research synthetic sentences"] = [row["full_text"] for row in json.loads(synth.read_text())]
    injection = shared / "prompt-injection"
    texts: list[str] = []
    for name in ("deepset-train.jsonl", "deepset-test.jsonl"):
        if (injection / name).exists():
            texts += [json.loads(line)["text"] for line in (injection / name).open() if line.strip()]
    if texts:
        sets["deepset prompts"] = texts
    benign: list[str] = []
    for name in ("NotInject_one.json", "NotInject_two.json", "NotInject_three.json"):
        if (injection / name).exists():
            benign += [row["prompt"] for row in json.loads((injection / name).read_text())]
    if benign:
        sets["NotInject benign prompts"] = benign
    return sets


# ------------------------------------------------------------------ scoring


def caught(detect: Callable[[str], list[Any]], text: str, at: int, length: int) -> bool:
    return any(d.start < at + length and d.end > at for d in detect(text))


def _seen(value: str) -> bool:
    return any(True for i in range(len(vendor.RULES)) for _ in vendor.find(i, value))


def run(kingfisher: Path, shared: Path, docs: list[Path]) -> dict[str, Any]:
    detector = CredentialsDetector()
    detect = detector.detect
    rng = random.Random(20240611)
    rows = kingfisher_rows(kingfisher, rng)
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    misses: dict[str, list[str]] = defaultdict(list)

    def score(table: str, key: str, ok: bool) -> None:
        cell = counts[table][key]
        cell[0] += ok
        cell[1] += 1

    for row in rows:
        seen = "seen" if _seen(row["value"]) else "unseen"
        half = split(row["vendor"])
        fam = family(row["value"])
        texts = [("native", row["native"], row["at"])]
        texts += [(name, *fill(t, row["vendor"], row["value"])) for name, t in LAYOUTS]
        as_published = caught(detect, row["example"], row["example_at"], len(row["example_value"]))
        score("examples as published", f"{seen} / {half}", as_published)
        for layout, text, at in texts:
            ok = caught(detect, text, at, len(row["value"]))
            score("by split", f"{seen} / {half}", ok)
            if seen == "unseen":
                score("unseen, by layout", layout, ok)
                score("unseen, by family", fam, ok)
                score("unseen, by layout and split", f"{layout} / {half}", ok)
                if not ok and len(misses[layout]) < 12:
                    misses[layout].append(text[:160])
            else:
                score("seen, by layout", layout, ok)
    for _ in range(40):
        value = long_value(rng)
        text, at = fill("{V}_SESSION_TOKEN=\"{s}\"", rng.choice(rows)["vendor"], value)
        score("extra layouts", "value over 512 characters", caught(detect, text, at, len(value)))
    for name, make in WEBHOOKS:
        for _ in range(20):
            url = make(rng)
            text = f"Post alerts to {url} when the job fails."
            score("extra layouts", name, caught(detect, text, text.index(url), len(url)))

    negatives: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    fired_examples: list[str] = []
    vendors = sorted({r["vendor"] for r in rows})
    for name, template in LAYOUTS + (("native-shaped", "{v} api key: {s}"),):
        for v in vendors[:: max(1, len(vendors) // 60)]:
            for placeholder in NEGATIVE_VALUES:
                value = placeholder.format(**_words(v))
                text, _ = fill(template, v, value)
                hit = bool(detect(text))
                negatives[name][0] += hit
                negatives[name][1] += 1
                if hit and len(fired_examples) < 15:
                    fired_examples.append(text)
    prose: dict[str, list[int]] = {}
    prose_fired: dict[str, list[str]] = defaultdict(list)
    for name, texts_ in prose_sets(shared, docs).items():
        fired = 0
        for text in texts_:
            if detect(text):
                fired += 1
                if len(prose_fired[name]) < 5:
                    prose_fired[name].append(text[:160])
        prose[name] = [fired, len(texts_)]
    all_prose = [sum(v[0] for v in prose.values()), sum(v[1] for v in prose.values())]

    def table(name: str) -> dict[str, dict[str, Any]]:
        return {k: {"caught": c[0], "rows": c[1], "recall": round(c[0] / c[1], 3)}
                for k, c in sorted(counts[name].items())}

    unseen = [0, 0]
    for k, c in counts["by split"].items():
        if k.startswith("unseen"):
            unseen[0] += c[0]
            unseen[1] += c[1]
    return {
        "source": {"kingfisher_commit": _commit(kingfisher), "rules_with_rows": len({r['rule'] for r in rows}),
                   "vendors": len(vendors), "values": len(rows)},
        "unseen_recall": round(unseen[0] / unseen[1], 3),
        "prose_fpr": round(all_prose[0] / all_prose[1], 4),
        "by_split": table("by split"),
        "examples_as_published": table("examples as published"),
        "unseen_by_layout": table("unseen, by layout"),
        "unseen_by_family": table("unseen, by family"),
        "unseen_by_layout_and_split": table("unseen, by layout and split"),
        "seen_by_layout": table("seen, by layout"),
        "extra_layouts": table("extra layouts"),
        "placeholders_by_layout": {k: {"fired": v[0], "rows": v[1], "fpr": round(v[0] / v[1], 3)}
                                   for k, v in sorted(negatives.items())},
        "prose": {k: {"fired": v[0], "texts": v[1], "fpr": round(v[0] / v[1], 4)} for k, v in prose.items()},
        "prose_fired_examples": prose_fired,
        "placeholder_fired_examples": fired_examples,
        "misses": misses,
    }


def _commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def markdown(report: dict[str, Any]) -> str:
    src = report["source"]
    lines = [f"Kingfisher commit `{src['kingfisher_commit']}`: {src['vendors']} vendor files, "
             f"{src['rules_with_rows']} rules, {src['values']} sampled values.", "",
             f"**Unseen-vendor recall {report['unseen_recall']}** (target >= {RECALL_TARGET}); "
             f"**FPR on prose {report['prose_fpr']}** (target <= {FPR_TARGET}).", ""]
    for title, key, cols in (
        ("By vendor split", "by_split", ("caught", "rows", "recall")),
        ("Kingfisher's examples as published (hand-typed values included)", "examples_as_published",
         ("caught", "rows", "recall")),
        ("Unseen vendors, by layout", "unseen_by_layout", ("caught", "rows", "recall")),
        ("Unseen vendors, by family (value shape)", "unseen_by_family", ("caught", "rows", "recall")),
        ("Seen vendors, by layout", "seen_by_layout", ("caught", "rows", "recall")),
        ("Extra layouts", "extra_layouts", ("caught", "rows", "recall")),
        ("Placeholders and references in the same layouts", "placeholders_by_layout", ("fired", "rows", "fpr")),
        ("Prose", "prose", ("fired", "texts", "fpr")),
    ):
        lines += [f"### {title}", "", "| | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
        for name, row in report[key].items():
            lines.append(f"| {name} | " + " | ".join(str(row[c]) for c in cols) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kingfisher", type=Path, help="a checkout of github.com/mongodb/kingfisher")
    parser.add_argument("shared", type=Path, help="the shared benchmarks folder (prose corpora)")
    parser.add_argument("--docs", type=Path, nargs="*", default=[],
                        help="folders of Markdown documentation: their prose paragraphs join the prose sets")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print missed rows per layout")
    args = parser.parse_args(argv)
    report = run(args.kingfisher, args.shared, args.docs)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(markdown(report))
        if args.misses:
            print(json.dumps({"misses": report["misses"], "prose": report["prose_fired_examples"],
                              "placeholders": report["placeholder_fired_examples"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
