"""The credentials detector against the published secret-scanner samples, and its cost.

    PYTHONPATH=src python benchmarks/secrets_bench.py ../shared/benchmarks/secrets
    PYTHONPATH=src python benchmarks/secrets_bench.py ../shared/benchmarks/secrets --json
    PYTHONPATH=/tmp/ds python benchmarks/secrets_bench.py DIR --scanner detect-secrets-vendor

DIR holds `gitleaks-rule-samples.jsonl` ({rule_id, label, text}: `tps` must fire, `fps`
must not) and `detect-secrets-plugin-cases.jsonl` ({plugin, text, should_flag}). Scoring
is line level: a row fires when the detector returns any detection for its text.

- gitleaks: recall on `tps`, false-positive rate on `fps`, for all rules, vendor-format
  rules and generic rules (keyword / structure rules such as generic-api-key) apart. Some
  `fps` rows repeat, word for word, a `tps` row of another rule (a valid Anthropic key
  is a hard negative for the Anthropic *admin* rule): no line-level detector can pass
  both, so the rate without them is shown beside the raw one.
- detect-secrets: precision and recall per plugin; `keyword` apart (its labels depend on
  the file type the test pretends to scan); `ip_public` is PII, not a credential, and is
  left out of the credential totals.
- cost: median and p99 µs of `detect` on seeded ~1 KB English drafts (clean, and with
  credential words such as "password" and "API key" in prose), and ms on a ~1 MB draft.

`--scanner detect-secrets` / `detect-secrets-vendor` scores detect-secrets (default
plugins, or its vendor plugins only) the same way, when it is importable.
"""

from __future__ import annotations

import argparse
import atexit
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from time import perf_counter_ns

GENERIC_RULES = frozenset(
    {"generic-api-key", "curl-auth-header", "curl-auth-user", "kubernetes-secret-yaml",
     "nuget-config-password", "hashicorp-tf-password", "database-password"}
)
OUT_OF_SCOPE_PLUGINS = frozenset({"ip_public"})
ACCEPT_RECALL, ACCEPT_FPR = 0.90, 0.10
_KEEP: list[object] = []

WORDS = (
    "thanks for getting in touch about your order we have looked into the delivery and it should "
    "arrive on thursday between nine and noon if it does not turn up by then reply to this message "
    "and we will send a replacement at no cost sorry for the delay the warehouse had a backlog after "
    "the holiday weekend several parcels were held longer than usual your subscription stays active "
    "nothing changes on the next invoice you can move the delivery to another address from the orders "
    "page before six this evening let me know if there is anything else we can help with today"
).split()
CUES = (
    "You can reset your password from the login page.", "Please regenerate your API key under Settings.",
    "The token expired yesterday, so sign in again.", "Your password must be 12 characters or more.",
    "The fix landed in commit 3f9c2a1b7e4d5f60a1b2c3d4e5f60718293a4b5c.", "See https://status.example.com/incidents.",
    "The ticket number is ENG-4821.", "Version 2.14.3 ships next week.",
)


def load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def ratio(num: int, den: int) -> float | None:
    return round(num / den, 3) if den else None


def gitleaks(rows: list[dict], fires: Callable[[str], bool]) -> dict:
    true_texts = {r["text"] for r in rows if r["label"] == "tps"}
    groups: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses: list[str] = []
    false_alarms: list[str] = []
    for row in rows:
        fired = fires(row["text"])
        group = "generic" if row["rule_id"] in GENERIC_RULES else "vendor"
        for g in ("all", group):
            c = groups[g]
            if row["label"] == "tps":
                c["tps"] += 1
                c["tp"] += fired
            else:
                c["fps"] += 1
                c["fp"] += fired
                if row["text"] in true_texts:
                    c["dup"] += 1
                    c["dup_fp"] += fired
        if row["label"] == "tps" and not fired:
            misses.append(row["rule_id"])
        if row["label"] == "fps" and fired and row["text"] not in true_texts:
            false_alarms.append(row["rule_id"])
    out = {}
    for g in ("all", "vendor", "generic"):
        c = groups[g]
        out[g] = {
            "tps": c["tps"], "recall": ratio(c["tp"], c["tps"]),
            "fps": c["fps"], "fpr": ratio(c["fp"], c["fps"]),
            "fpr_without_cross_rule_duplicates": ratio(c["fp"] - c["dup_fp"], c["fps"] - c["dup"]),
            "cross_rule_duplicates": c["dup"],
        }
    out["missed_rules"] = sorted(misses)
    out["false_alarm_rules"] = sorted(false_alarms)
    return out


def detect_secrets_cases(rows: list[dict], fires: Callable[[str], bool]) -> dict:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        fired, want = fires(row["text"]), bool(row["should_flag"])
        groups = [row["plugin"]]
        if row["plugin"] not in OUT_OF_SCOPE_PLUGINS:
            groups.append("keyword" if row["plugin"] == "keyword" else "all (credential plugins)")
        for g in dict.fromkeys(groups):
            c = counts[g]
            c["n"] += 1
            c["pos"] += want
            c["tp"] += fired and want
            c["fp"] += fired and not want
    return {
        g: {"n": c["n"], "positives": c["pos"], "precision": ratio(c["tp"], c["tp"] + c["fp"]),
            "recall": ratio(c["tp"], c["pos"])}
        for g, c in sorted(counts.items())
    }


def draft(rng: random.Random, size: int, cues: bool = False) -> str:
    out: list[str] = []
    length = 0
    while length < size:
        if cues and rng.random() < 0.3:
            sentence = rng.choice(CUES)
        else:
            words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
            sentence = " ".join(words).capitalize() + rng.choice(".!?")
        out.append(sentence)
        length += len(sentence) + 1
    return " ".join(out)[:size]


def timing(detect: Callable[[str], object], quick: bool = False) -> dict:
    rng = random.Random(7)
    result = {}
    for label, cues in (("1kb_clean", False), ("1kb_with_cue_words", True)):
        drafts = [draft(rng, 1024, cues) for _ in range(50)]
        for d in drafts:  # warm up
            detect(d)
        samples = []
        for _ in range(20 if quick else 200):
            for d in drafts:
                t = perf_counter_ns()
                detect(d)
                samples.append(perf_counter_ns() - t)
        samples.sort()
        result[label] = {"p50_us": round(statistics.median(samples) / 1000, 1),
                         "p99_us": round(samples[int(len(samples) * 0.99)] / 1000, 1)}
    big = draft(rng, 1 << 20, cues=True)
    runs = []
    for _ in range(1 if quick else 5):
        t = perf_counter_ns()
        detect(big)
        runs.append(perf_counter_ns() - t)
    result["1mb_with_cue_words"] = {"median_ms": round(statistics.median(runs) / 1e6, 1)}
    return result


def scanner(name: str) -> Callable[[str], bool]:
    if name == "redline":
        from redline.screen.detectors.credentials import CredentialsDetector

        detector = CredentialsDetector()
        return lambda text: bool(detector.detect(text))
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings, transient_settings

    vendor_only = [
        "ArtifactoryDetector", "AWSKeyDetector", "AzureStorageKeyDetector", "BasicAuthDetector",
        "CloudantDetector", "DiscordBotTokenDetector", "GitHubTokenDetector", "GitLabTokenDetector",
        "IbmCloudIamDetector", "IbmCosHmacDetector", "JwtTokenDetector", "MailchimpDetector", "NpmDetector",
        "OpenAIDetector", "PrivateKeyDetector", "PypiTokenDetector", "SendGridDetector", "SlackDetector",
        "SoftlayerDetector", "SquareOAuthDetector", "StripeDetector", "TelegramBotTokenDetector",
        "TwilioKeyDetector",
    ]
    context = (transient_settings({"plugins_used": [{"name": p} for p in vendor_only]})
               if name == "detect-secrets-vendor" else default_settings())
    context.__enter__()
    _KEEP.append(context)  # a collected generator context would restore the settings
    atexit.register(context.__exit__, None, None, None)
    return lambda text: any(True for line in text.splitlines() or [""] for _ in scan_line(line))


def markdown(report: dict) -> str:
    g, ds, t = report["gitleaks"], report["detect_secrets"], report["timing"]
    lines = [f"### {report['scanner']} on gitleaks rule samples (line level)", "",
             "| rules | tps | recall | fps | FPR | FPR without cross-rule duplicates |",
             "|---|---:|---:|---:|---:|---:|"]
    for group in ("all", "vendor", "generic"):
        r = g[group]
        lines.append(f"| {group} | {r['tps']} | {r['recall']} | {r['fps']} | {r['fpr']} | "
                     f"{r['fpr_without_cross_rule_duplicates']} ({r['cross_rule_duplicates']} duplicates) |")
    lines += ["", f"Acceptance (recall >= {ACCEPT_RECALL}, FPR <= {ACCEPT_FPR}): "
              f"**{'PASS' if report['accepted'] else 'FAIL'}**", "",
              f"### {report['scanner']} on detect-secrets plugin cases", "",
              "| plugin | rows | positives | precision | recall |", "|---|---:|---:|---:|---:|"]
    for plugin, r in ds.items():
        lines.append(f"| {plugin} | {r['n']} | {r['positives']} | {r['precision']} | {r['recall']} |")
    lines += ["", "### cost of `detect`", "", "| draft | p50 | p99 |", "|---|---:|---:|"]
    for label in ("1kb_clean", "1kb_with_cue_words"):
        lines.append(f"| {label} | {t[label]['p50_us']} µs | {t[label]['p99_us']} µs |")
    lines.append(f"| 1mb_with_cue_words | {t['1mb_with_cue_words']['median_ms']} ms | |")
    lines += ["", f"missed tps rules: {', '.join(g['missed_rules']) or 'none'}",
              f"fired on fps rules: {', '.join(g['false_alarm_rules']) or 'none'}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path, help="folder of the shared secrets benchmark data")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown")
    parser.add_argument("--quick", action="store_true", help="fewer timing rounds")
    parser.add_argument("--scanner", default="redline", choices=("redline", "detect-secrets", "detect-secrets-vendor"))
    args = parser.parse_args(argv)
    fires = scanner(args.scanner)
    g = gitleaks(load(args.data_dir / "gitleaks-rule-samples.jsonl"), fires)
    report = {
        "scanner": args.scanner,
        "gitleaks": g,
        "detect_secrets": detect_secrets_cases(load(args.data_dir / "detect-secrets-plugin-cases.jsonl"), fires),
        "timing": timing(fires, args.quick),
        "accepted": g["all"]["recall"] >= ACCEPT_RECALL and g["all"]["fpr"] <= ACCEPT_FPR,
    }
    print(json.dumps(report, indent=2) if args.json else markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
