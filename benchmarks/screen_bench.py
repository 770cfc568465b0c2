"""Latency of `Gate.check` against a raw automaton scan and a naive substring loop.

Run from the repository root: `python benchmarks/screen_bench.py` once redline is installed
(`pip install -e .`), or without installing:

    PYTHONPATH=src python benchmarks/screen_bench.py            # full run (~20 s), Markdown table
    PYTHONPATH=src python benchmarks/screen_bench.py --quick    # smoke test
    PYTHONPATH=src python benchmarks/screen_bench.py --sizes 10,100 --json
    PYTHONPATH=src python benchmarks/screen_bench.py --adversarial   # texts shaped to be slow (adversarial_shapes.py)
    PYTHONPATH=src python benchmarks/screen_bench.py --load-only --reps 7   # only the 10,000-rule YAML loads

Data is generated and seeded: ~1 KB English-like drafts (pseudo-words from syllables plus
function words, sentences ending in . ? !, paragraph breaks) and rules with one term of
1-3 pseudo-words drawn from a vocabulary that drafts never use, so a term appears only
where it is planted: one per draft on average, a third of them after a negation cue.
Per draft the three methods run interleaved (order rotated); p50/p99 from perf_counter_ns.
The naive loop lowercases once, then `[t for t in terms if t in low]` (the stricter baseline).
On dense drafts a "no-context" check runs too: normalization, the matcher's scan, one Finding per hit
and the Decision, no context at all, so the cost of the context layer reads apart; and the
whole `Gate.check` with a context layer that finds nothing and costs nothing, which is
what any context layer, however fast, adds to: the dense target's budget for it is the rest.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import statistics
import sys
import tempfile
import tracemalloc
from pathlib import Path
from time import perf_counter_ns

import ahocorasick_rs

import yaml

from redline import Gate, Policy, load_policy
from redline.decide.resolve import resolve
from redline.screen.normalize import normalize
from redline.types import build_decision
from redline.policy import terms as policy_terms
from redline.policy.terms import term_variants
from redline.screen import engine
from redline.screen.analysis import TextAnalysis

FUNCTION_WORDS = (
    "the a an and or but if so to of in on at for with from by as is are was were be been "
    "it its this that these those we you they he she i our your their my not no can will "
    "would should could may might must do does did has had have there here when while "
    "after before about into over than then also only very more most some any each all "
    "please thanks because however although since until which who what where how"
).split()
NEGATIONS = ("no", "not", "never", "without", "cannot", "unable to", "free of")
ONSETS = "b c d f g h k l m n p r s t w br cl dr fr gr pl pr st tr sh ch th".split()
VOWELS = "a e i o u ea ou ai".split()
CODAS = ["", "", "", "", "n", "r", "s", "t", "l", "nd", "st", "m"]
TERM_ONSETS = "z q x j zr qu xa jo".split()  # letters no draft word contains


def syllable(rng: random.Random, onsets: list[str]) -> str:
    return rng.choice(onsets) + rng.choice(VOWELS) + rng.choice(CODAS)


def vocabulary(rng: random.Random, size: int, term: bool) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        parts = [syllable(rng, ONSETS) for _ in range(rng.choice((0, 1, 1) if term else (1, 1, 2, 2, 3)))]
        if term:  # one syllable from the term-only onsets: never a substring of draft text
            parts.insert(rng.randrange(len(parts) + 1), syllable(rng, TERM_ONSETS))
        words.add("".join(parts))
    return sorted(words)


def base_drafts(rng: random.Random, count: int, size: int) -> list[list[list[str]]]:
    """Drafts as lists of sentences (lists of words); punctuation is added when planted."""
    vocab = vocabulary(rng, 3000, term=False)
    drafts = []
    for _ in range(count):
        sentences, length = [], 0
        while length < size:
            words = [rng.choice(FUNCTION_WORDS) if rng.random() < 0.45 else rng.choice(vocab)
                     for _ in range(rng.randint(5, 18))]
            if rng.random() < 0.3:
                words[rng.randrange(len(words) - 1)] += ","
            words[-1] += rng.choice(".........??!")
            sentences.append(words)
            length += sum(len(w) + 1 for w in words)
        drafts.append(sentences)
    return drafts


def make_terms(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    vocab = vocabulary(rng, max(6000, 3 * count), term=True)  # few terms inside other terms
    terms: dict[str, None] = {}
    while len(terms) < count:
        terms[" ".join(rng.sample(vocab, rng.choice((1, 1, 2, 2, 3))))] = None
    return list(terms)


DETECTORS_OFF = {"credentials": "off", "pii": "off", "technical_content": "off"}
DETECTORS_ON = {"credentials": "refuse", "pii": "escalate", "technical_content": "escalate"}


def make_policy(terms: list[str], detectors: dict[str, str] = DETECTORS_OFF) -> Policy:
    skills = [{"slug": f"skill-{k}", "red_lines": [
        {"id": f"rule-{i}", "rule": f"Never mention {t}.", "severity": "block" if i % 3 else "flag",
         "terms": [t]} for i, t in enumerate(terms[k:k + 100], start=k)]}
        for k in range(0, len(terms), 100)]
    return Policy.model_validate({
        "version": 1, "name": f"bench-{len(terms)}" + ("-detectors" if detectors is DETECTORS_ON else ""),
        "auto_send": {"min_confidence": 0}, "detectors": detectors,
        "skills": skills})


def render(sentences: list[list[str]], terms: list[str], rng: random.Random, per_kb: float) -> str:
    """Plant terms (~Poisson, `per_kb` per 1,000 characters), capitalize, join into text."""
    size = sum(len(w) + 1 for s in sentences for w in s)
    chance = per_kb * size / 1000 / len(sentences)  # per sentence: plants expected
    paragraphs, out = [], []
    for i, words in enumerate(sentences):
        words = list(words)
        plants = int(chance) + (rng.random() < chance - int(chance))
        for _ in range(plants):
            term = rng.choice(terms) + ("s" if rng.random() < 0.15 else "")
            if rng.random() < 1 / 3:
                term = rng.choice(NEGATIONS) + " " + term
            words.insert(rng.randrange(len(words)), term)  # never after the last word
        words[0] = words[0][0].upper() + words[0][1:]
        out.append(" ".join(words))
        if rng.random() < 0.25 or i == len(sentences) - 1:
            paragraphs.append(" ".join(out))
            out = []
    return "\n\n".join(paragraphs)


class _NullContext:
    """A context layer that finds no cue: every hit is affirmed."""

    def cues(self, start: int, end: int, others: tuple = ()) -> tuple:
        return ()


class _NoCues(TextAnalysis):
    """A text whose context layer costs nothing (`run_no_cues`)."""

    __slots__ = ()

    def context(self, many: bool) -> _NullContext:  # type: ignore[override]
        return _NULL_CONTEXT


_NULL_CONTEXT = _NullContext()


def pct(samples: list[int], p: float) -> float:  # nearest rank, ns -> µs
    return sorted(samples)[max(0, math.ceil(p / 100 * len(samples)) - 1)] / 1e3


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def rss_mb(field: str) -> float:
    with open("/proc/self/status") as status:  # Linux only; elsewhere the caller gets nan
        return int(next(row for row in status if row.startswith(field)).split()[1]) / 1024


def compile_cost(policy: Policy, reps: int) -> dict:
    """Cold `Gate(policy)`: no compiled screen, no cached term variants, no policy hash."""
    def cold() -> None:
        engine._cache.clear()
        term_variants.cache_clear()
        policy.__dict__.pop("hash", None)
        gc.collect()

    times, rss = [], float("nan")
    for _ in range(reps):
        cold()
        t0 = perf_counter_ns()
        Gate(policy)
        times.append((perf_counter_ns() - t0) / 1e6)
    cold()
    try:  # peak RSS growth, Rust allocations included ("5" resets the high-water mark)
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        before = rss_mb("VmRSS")
        Gate(policy)
        rss = rss_mb("VmHWM") - before
    except OSError:
        pass
    cold()
    tracemalloc.start()
    gate = Gate(policy)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"ms": statistics.median(times), "ms_all": times, "peak_mb": peak / 2**20,
            "retained_mb": current / 2**20, "rss_peak_mb": rss, "keys": gate._screen.matcher.key_count}


RULE_SHAPES = (  # rules written in words, as policies write them, for `word_rules`
    "Never promise a {a} to a customer.", "Do not share {a} or {b} details with anyone outside the team.",
    "Never recommend a specific {a}.", "Do not discuss {a} {b} with the client.",
    "Never confirm whether someone has a {a} with us.", "Escalate any mention of {a}.",
    "Never approve a {a} without a {b} review.", "Do not give advice about {a}.",
)


def word_rules(count: int, seed: int = 11) -> list[str]:
    """`count` distinct rules with no `terms`, so every one is derived: real nouns (those
    the dictionary lists as nouns only, past the 3,000 most common words) in the shapes
    above; a rule whose text would guard nothing is left out, as a policy would refuse it."""
    from wordfreq import top_n_list

    from redline.policy.dictionary import readings
    from redline.policy.topics import derive_topics

    nouns = [w for w in top_n_list("en", 40000)[3000:]
             if w.isalpha() and len(w) > 3 and set(readings(w)) == {"NOUN"}]
    rng = random.Random(seed)
    rules: dict[str, None] = {}
    while len(rules) < count:
        text = rng.choice(RULE_SHAPES).format(a=rng.choice(nouns), b=rng.choice(nouns))
        derived = derive_topics(text)
        if derived.topics or derived.detectors:
            rules[text] = None
    return list(rules)


def word_policy(rules: list[str]) -> Policy:
    skills = [{"slug": f"skill-{k}", "red_lines": [
        {"id": f"rule-{i}", "rule": text, "severity": "block"} for i, text in enumerate(rules[k:k + 100], start=k)]}
        for k in range(0, len(rules), 100)]
    return Policy.model_validate({"version": 1, "name": f"words-{len(rules)}", "skills": skills})


def load_cost(policy: Policy, reps: int) -> dict:
    """A policy YAML file read, validated and compiled, as a process that has loaded the
    lexicon's data but no policy yet: every word and rule cache cleared between runs."""
    data = policy.model_dump(mode="json", exclude_defaults=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "policy.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        load_ms, total_ms = [], []
        for _ in range(reps):
            engine._cache.clear()
            policy_terms.clear_caches()
            gc.collect()
            t0 = perf_counter_ns()
            loaded = load_policy(path)
            t1 = perf_counter_ns()
            Gate(loaded)
            t2 = perf_counter_ns()
            load_ms.append((t1 - t0) / 1e6)
            total_ms.append((t2 - t0) / 1e6)
        return {"bytes": path.stat().st_size, "load_ms": statistics.median(load_ms),
                "total_ms": statistics.median(total_ms), "total_ms_all": total_ms, "load_ms_all": load_ms}


def load_report(reps: int, as_json: bool) -> str:
    """The 10,000-rule loads alone: the bench policy (one term per rule) and rules in words."""
    log("loading the 10,000-rule policies as YAML ...")
    gate_warm = Gate(make_policy(make_terms(10)))  # the lexicon's data loaded, as in the full run
    del gate_warm
    terms_row = load_cost(make_policy(make_terms(10000)), reps)
    words_row = load_cost(word_policy(word_rules(10000)), max(1, reps // 2))
    if as_json:
        return json.dumps({"terms": terms_row, "words": words_row}, indent=2)
    lines = []
    for what, row in (("one term per rule", terms_row), ("rules written in words, no terms", words_row)):
        lines.append(f"- 10,000 rules, {what} ({row['bytes'] / 1e6:.1f} MB): load {row['load_ms']:.0f} ms, "
                     f"load and compile {row['total_ms']:.0f} ms median of {len(row['total_ms_all'])} "
                     f"({', '.join(f'{t:.0f}' for t in row['total_ms_all'])})")
    total = terms_row["total_ms"]
    lines.append(f"- {'PASS' if total <= 1500 else 'FAIL'}: load and compile a 10,000-rule policy YAML <= 1.5 s ({total:.0f} ms)")
    return "\n".join(lines)


def bench_size(n: int, all_terms: list[str], drafts: list, big: list, args) -> dict:
    terms = all_terms[:n]
    policy = make_policy(terms)
    log(f"[{n} rules] compiling ...")
    comp = compile_cost(policy, 1 if args.quick else 3)
    if n == 10000:
        log(f"[{n} rules] loading the policy as YAML ...")
        comp["yaml"] = load_cost(policy, 1 if args.quick else 5)
        log(f"[{n} rules] loading a policy of {n:,} rules written in words (no terms) ...")
        comp["yaml_words"] = load_cost(word_policy(word_rules(n)), 1 if args.quick else 3)
    gate = Gate(policy)  # cached: the compile above
    gate_detectors = Gate(make_policy(terms, DETECTORS_ON))  # same rules, all detectors on
    rng = random.Random(1000 + n)
    texts = [render(d, terms, rng, 1.0) for d in drafts]
    dense = [render(d, terms, rng, 10.0) for d in drafts]  # about ten hits per draft
    scan = ahocorasick_rs.AhoCorasick(terms).find_matches_as_indexes  # the floor

    def run_raw(text: str) -> object:
        return scan(text.lower())

    def run_naive(text: str) -> object:
        low = text.lower()
        return [t for t in terms if t in low]

    screen = gate._screen

    def run_floor(text: str) -> object:
        """A check with no context at all: normalization, the matcher's scan,
        one Finding per hit, the outcome and the Decision (what no screen can skip)."""
        shadow = normalize(text)
        span = None if shadow.identity else shadow.span
        found = tuple(engine._finding(text, span, hit.start, hit.end, hit.term, hit.pattern, screen.rules[hit.rule], None)
                      for hit in screen.matcher.scan(shadow.text))
        resolution = resolve(found, confidence=None, min_confidence=0)
        return build_decision("floor", resolution.outcome, resolution.reason, resolution.risk_level, found, (),
                              policy.name, policy.hash, {}, {}, None, None, None, {"findings": 0, "suppressed": 0})

    def run_no_cues(text: str) -> object:
        """The whole `Gate.check` with a context layer that finds no cue and costs nothing:
        what is left of the check once the context layer is free (its budget is the rest)."""
        return gate.check(_NoCues(text, shared=False))

    methods = (gate.check, run_raw, run_naive, gate_detectors.check, gate.check, run_raw, run_floor, run_no_cues)
    inputs = (texts, texts, texts, texts, dense, dense, dense, dense)  # from the fifth on: dense drafts
    for i in range(200):  # warm-up: caches, branch predictors, allocator
        [m(inp[i]) for m, inp in zip(methods, inputs)]
    samples: list[list[int]] = [[] for _ in methods]
    dense_found = 0
    found = suppressed = raw_hits = 0
    gc.collect()
    log(f"[{n} rules] timing {len(texts)} drafts x {len(methods)} methods ...")
    # Methods take turns in blocks of drafts, so they share the machine's noise over time
    # while each keeps its own data in cache: per draft, the naive loop over 10,000 terms
    # would evict the gate's automaton and time a cold cache no deployment sees.
    block = 50
    for first in range(0, len(texts), block):
        for j in range(len(methods)):
            k = (first // block + j) % len(methods)
            method, bucket = methods[k], samples[k]
            for text in inputs[k][first : first + block]:
                t0 = perf_counter_ns()
                result = method(text)
                bucket.append(perf_counter_ns() - t0)
                if k in (0, 3, 4, 7):  # sanity: the gate ran and saw the planted terms
                    assert result.error is None, result.error
                    if k == 0:
                        found, suppressed = found + len(result.findings), suppressed + len(result.suppressed)
                    elif k == 4:
                        dense_found += len(result.findings) + len(result.suppressed)
                elif k == 1:
                    raw_hits += len(result)
    row = {"rules": n, "keys": comp["keys"], "compile": comp,
           "draft_chars_mean": statistics.fmean(len(t) for t in texts),
           "findings_per_draft": found / len(texts), "suppressed_per_draft": suppressed / len(texts),
           "raw_hits_per_draft": raw_hits / len(texts), "dense_hits_per_draft": dense_found / len(dense)}
    names = ("gate", "raw", "naive", "gate_detectors", "gate_dense", "raw_dense", "floor_dense", "no_cues_dense")
    for name, s in zip(names, samples):
        row[name] = {"p50": pct(s, 50), "p99": pct(s, 99), "mean": statistics.fmean(s) / 1e3}
    if n in (1000, 10000):
        text = render(big, terms, random.Random(7 + n), 1.0)
        runs, raw_runs = [], []
        for _ in range(1 if args.quick else 5):
            t0 = perf_counter_ns()
            decision = gate.check(text)
            t1 = perf_counter_ns()
            run_raw(text)
            raw_runs.append(perf_counter_ns() - t1)
            runs.append(t1 - t0)
        per_byte_1mb = statistics.median(runs) / len(text)
        per_byte_1kb = row["gate"]["p50"] * 1e3 / row["draft_chars_mean"]
        row["big"] = {"chars": len(text), "ms": statistics.median(runs) / 1e6,
                      "raw_ms": statistics.median(raw_runs) / 1e6,
                      "hits": len(decision.findings) + len(decision.suppressed),
                      "per_byte_ratio": per_byte_1mb / per_byte_1kb}
    log(f"[{n} rules] gate p50 {row['gate']['p50']:.1f} µs (detectors on {row['gate_detectors']['p50']:.1f}), "
        f"raw {row['raw']['p50']:.1f}, "
        f"naive {row['naive']['p50']:.1f}; findings/draft {row['findings_per_draft']:.2f}, "
        f"suppressed/draft {row['suppressed_per_draft']:.2f}")
    return row


def verdicts(rows: dict[int, dict]) -> list[tuple[str, bool, str]]:
    out = []
    if 1000 in rows:
        g, w, v = (rows[1000][k]["p50"] for k in ("gate", "raw", "naive"))
        out.append(("1,000 rules: gate p50 <= 4x raw scan p50", g / w <= 4, f"{g / w:.2f}x"))
        gd, wd = (rows[1000][k]["p50"] for k in ("gate_dense", "raw_dense"))
        out.append(("1,000 rules, dense drafts (~10 hits): gate p50 <= 4x raw scan p50", gd / wd <= 4, f"{gd / wd:.2f}x"))
        out.append(("1,000 rules: gate >= 8x faster than naive", v / g >= 8, f"{v / g:.1f}x"))
    if 10 in rows and 10000 in rows:
        growth = rows[10000]["gate"]["p50"] / rows[10]["gate"]["p50"]
        out.append(("gate p50 grows <= 2.5x from 10 to 10,000 rules", growth <= 2.5, f"{growth:.2f}x"))
    for n in (1000, 10000):
        if "big" in rows.get(n, {}):
            ratio = rows[n]["big"]["per_byte_ratio"]
            out.append((f"{n:,} rules: 1 MB per byte <= 1.5x 1 KB per byte", ratio <= 1.5, f"{ratio:.2f}x"))
    for n, row in rows.items():
        ratio = row["gate_detectors"]["p50"] / row["gate"]["p50"]
        out.append((f"{n:,} rules: detectors on p50 <= 2x detectors off", ratio <= 2, f"{ratio:.2f}x"))
    if 10000 in rows:
        ms = rows[10000]["compile"]["ms"]
        out.append(("compile 10,000 rules <= 2 s", ms <= 2000, f"{ms:.0f} ms"))
        if "yaml" in rows[10000]["compile"]:
            total = rows[10000]["compile"]["yaml"]["total_ms"]
            out.append(("load and compile a 10,000-rule policy YAML <= 1.5 s", total <= 1500, f"{total:.0f} ms"))
    return out


def markdown(rows: dict[int, dict], checks: list[tuple[str, bool, str]]) -> str:
    lines = ["| rules | gate p50 µs | gate p99 µs | raw scan p50 | raw p99 | naive p50 | naive p99 "
             "| gate/raw | naive/gate | dense gate p50 | dense raw p50 | dense gate/raw | compile ms "
             "| compile MB | detectors on p50 | on/off |", "|" + "---:|" * 16]
    for n, r in rows.items():
        g, w, v, c = r["gate"], r["raw"], r["naive"], r["compile"]
        gd, wd = r["gate_dense"], r["raw_dense"]
        lines.append(f"| {n:,} | {g['p50']:.1f} | {g['p99']:.1f} | {w['p50']:.1f} | {w['p99']:.1f} "
                     f"| {v['p50']:.1f} | {v['p99']:.1f} | {g['p50'] / w['p50']:.2f} "
                     f"| {v['p50'] / g['p50']:.1f} | {gd['p50']:.1f} | {wd['p50']:.1f} | {gd['p50'] / wd['p50']:.2f} "
                     f"| {c['ms']:.1f} | {c['peak_mb']:.1f} "
                     f"| {r['gate_detectors']['p50']:.1f} | {r['gate_detectors']['p50'] / g['p50']:.2f} |")
    lines += ["", "compile: cold, median of 3 (1 if --quick); MB = peak Python heap (tracemalloc, no Rust allocations)."]
    for n, r in rows.items():
        lines.append(f"- {n:,} rules: {r['keys']:,} automaton keys, compile peak RSS "
                     f"+{r['compile']['rss_peak_mb']:.1f} MB; drafts {r['draft_chars_mean']:.0f} chars, "
                     f"per draft {r['findings_per_draft']:.2f} findings + {r['suppressed_per_draft']:.2f} "
                     f"suppressed (raw scan hits {r['raw_hits_per_draft']:.2f}); dense drafts "
                     f"{r['dense_hits_per_draft']:.1f} findings+suppressed; dense, no context (normalize, "
                     f"scan, findings, decision) p50 {r['floor_dense']['p50']:.1f} µs = "
                     f"{r['floor_dense']['p50'] / r['raw_dense']['p50']:.2f}x raw; the whole check with a "
                     f"context layer that costs nothing p50 {r['no_cues_dense']['p50']:.1f} µs = "
                     f"{r['no_cues_dense']['p50'] / r['raw_dense']['p50']:.2f}x raw")
    for n, y in ((n, r["compile"]["yaml"]) for n, r in rows.items() if "yaml" in r["compile"]):
        lines.append(f"- {n:,}-rule policy YAML ({y['bytes'] / 1e6:.1f} MB): read and validated in {y['load_ms']:.0f} ms, "
                     f"with compile {y['total_ms']:.0f} ms (cold word and rule caches, median of "
                     f"{len(y['total_ms_all'])}: {', '.join(f'{t:.0f}' for t in y['total_ms_all'])})")
    for n, y in ((n, r["compile"]["yaml_words"]) for n, r in rows.items() if "yaml_words" in r["compile"]):
        lines.append(f"- {n:,} rules written in words, no terms ({y['bytes'] / 1e6:.1f} MB): read, validated and "
                     f"derived in {y['load_ms']:.0f} ms, with compile {y['total_ms']:.0f} ms (median of "
                     f"{len(y['total_ms_all'])})")
    if 10 in rows and 10000 in rows:
        growth = rows[10000]["gate"]["p50"] / rows[10]["gate"]["p50"]
        lines.append(f"- gate p50 growth 10 -> 10,000 rules: {growth:.2f}x")
    for n, b in ((n, r["big"]) for n, r in rows.items() if "big" in r):
        lines.append(f"- 1 MB draft at {n:,} rules: {b['ms']:.1f} ms ({b['hits']} findings+suppressed; raw scan "
                     f"{b['raw_ms']:.1f} ms), per-byte ratio vs 1 KB p50: {b['per_byte_ratio']:.2f}x")
    lines.append("")
    lines += [f"- {'PASS' if ok else 'FAIL'}: {name} ({value})" for name, ok, value in checks]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--quick", action="store_true", help="fewer drafts and repeats (smoke test)")
    ap.add_argument("--sizes", default="10,100,1000,10000", help="comma-separated rule counts")
    ap.add_argument("--drafts", type=int, default=None, help="drafts per size (default 2000)")
    ap.add_argument("--adversarial", action="store_true",
                    help="instead: adversarial shapes at 64 KB, 256 KB and 1 MB (see adversarial_shapes.py)")
    ap.add_argument("--load-only", action="store_true",
                    help="instead: only load and compile the two 10,000-rule policy YAML files")
    ap.add_argument("--reps", type=int, default=None, help="with --load-only: loads per policy (default 5)")
    args = ap.parse_args()
    if args.load_only:
        print(load_report(args.reps or (1 if args.quick else 5), args.json))
        return
    if args.adversarial:
        import adversarial_shapes  # beside this file

        rows_adv = adversarial_shapes.run(1 if args.quick else 3)
        print(json.dumps(rows_adv, indent=2) if args.json else adversarial_shapes.markdown(rows_adv))
        return
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    count = args.drafts or (200 if args.quick else 2000)
    rng = random.Random(42)
    log(f"generating {count} drafts and {max(sizes):,} terms ...")
    drafts = base_drafts(rng, count, 1000)
    big = [s for page in base_drafts(rng, 1000, 1000) for s in page]  # ~1 MB
    all_terms = make_terms(max(sizes))
    rows = {n: bench_size(n, all_terms, drafts, big, args) for n in sizes}
    checks = verdicts(rows)  # all from this one run
    if args.json:
        checks_json = [{"name": c, "pass": ok, "value": v} for c, ok, v in checks]
        print(json.dumps({"rows": list(rows.values()), "drafts": count, "checks": checks_json}, indent=2))
    else:
        print(markdown(rows, checks))
    sys.exit(0 if all(ok is not False for _, ok, _ in checks) else 1)


if __name__ == "__main__":
    main()
