"""The PII detector on the test cases of Presidio's own recognizers.

    # extract the cases from a Presidio checkout into the project's fixture
    python benchmarks/presidio_cases.py --extract PRESIDIO_CHECKOUT
    # score the detector on the fixture
    python benchmarks/presidio_cases.py [--json] [--errors]

Presidio (github.com/microsoft/presidio, MIT licence, Copyright (c) Presidio
Contributors) tests each recognizer with `pytest.mark.parametrize` tables of
(text, expected count, expected spans). `--extract` reads those tables with `ast`
(never by importing or running Presidio), keeps the literal rows of the recognizers for
the entity types redline claims, and writes them with the source commit to
`tests/fixtures/presidio_recognizer_cases.json`. Rows that test a Presidio setting
(phone leniency levels, textual explanations beyond the spans) keep only their spans.

Scoring per entity: *spans* = expected spans found with exactly that start, end and
entity; *rows exact* = rows whose detections of that entity are exactly the expected
set (rows expecting none included); *spurious* = detections of the entity that no row
expected. Presidio reports some spans with a very low score (0.05–0.4, "weak" SSNs,
the unspecified IPv6 address `::`); they count as expected spans here, as in Presidio's
tables.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

try:
    import redline  # noqa: F401
except ImportError:  # run from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "presidio_recognizer_cases.json"
# test file -> (entity, name of the text argument, name of the spans argument)
FILES = {
    "test_us_ssn_recognizer.py": ("US_SSN", "text", "expected_positions"),
    "test_ip_recognizer.py": ("IP_ADDRESS", "text", "expected_positions"),
    "test_email_recognizer.py": ("EMAIL_ADDRESS", "text", "expected_positions"),
    "test_credit_card_recognizer.py": ("CREDIT_CARD", "text", "expected_res"),
    "test_iban_recognizer.py": ("IBAN_CODE", "iban", "expected_res"),
    "test_phone_recognizer.py": ("PHONE_NUMBER", "text", "expected_positions"),
}
TARGET = 0.95


def _literal(node: ast.AST) -> Any:
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))  # f"" with no fields
    return ast.literal_eval(node)


def extract(root: Path) -> dict[str, Any]:
    tests = root / "presidio-analyzer" / "tests"
    cases: list[dict[str, Any]] = []
    for name, (entity, text_arg, spans_arg) in FILES.items():
        tree = ast.parse((tests / name).read_text("utf-8"))
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            for deco in fn.decorator_list:
                if not (isinstance(deco, ast.Call) and getattr(deco.func, "attr", "") == "parametrize"):
                    continue
                argnames = [a.strip() for a in _literal(deco.args[0]).split(",")]
                if text_arg not in argnames or spans_arg not in argnames:
                    continue
                if "leniency" in argnames:
                    continue  # tests Presidio's leniency setting, not a format
                for element in deco.args[1].elts:  # type: ignore[attr-defined]
                    try:
                        row = dict(zip(argnames, _literal(element)))
                    except (ValueError, SyntaxError):
                        continue  # a computed row (a checksum made at run time)
                    spans = [list(s) for s in row[spans_arg]]
                    text = row[text_arg]
                    if not spans and row["expected_len"] == 1 and " " not in text:
                        spans = [[0, len(text)]]  # a count-only row whose text is the one address
                    if len(spans) != row["expected_len"]:
                        continue  # Presidio checks the count only (no positions given)
                    cases.append({"entity": entity, "test": f"{name}::{fn.name}", "text": row[text_arg],
                                  "spans": spans})
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    return {
        "source": "github.com/microsoft/presidio, presidio-analyzer/tests/test_*_recognizer.py",
        "commit": commit.strip() or "unknown",
        "licence": "MIT License, Copyright (c) Presidio Contributors; rows used unchanged as test data",
        "cases": cases,
    }


def score(cases: list[dict[str, Any]]) -> dict[str, Any]:
    from redline.screen.detectors.pii import PiiDetector

    detector = PiiDetector()
    stats: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    errors: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case in cases:
        entity = case["entity"]
        found = detector.detect(case["text"])
        got = {(d.start, d.end) for d in found if d.entity == entity}
        want = {tuple(s) for s in case["spans"]}
        s = stats[entity]
        s["rows"] += 1
        s["spans"] += len(want)
        s["found"] += len(got & want)
        s["spurious"] += len(got - want)
        s["rows_exact"] += got == want
        other = [(d.entity, case["text"][d.start : d.end]) for d in found if d.entity != entity]
        s["other_type"] += bool(other)
        if got != want or other:
            errors[entity].append({"text": case["text"], "want": sorted(want), "got": sorted(got), "other": other})
    report = {}
    for entity, s in sorted(stats.items()):
        report[entity] = {
            **s,
            "span_recall": round(s["found"] / s["spans"], 3) if s["spans"] else None,
            "rows_exact_rate": round(s["rows_exact"] / s["rows"], 3),
        }
    return {"entities": report, "errors": errors}


def markdown(data: dict[str, Any], result: dict[str, Any]) -> str:
    lines = [f"Presidio commit `{data['commit']}`, {len(data['cases'])} rows.", "",
             "| entity | rows | rows exact | expected spans | found (exact span) | span recall | spurious | "
             "rows with another type |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for entity, r in result["entities"].items():
        lines.append(f"| {entity} | {r['rows']} | {r['rows_exact']} | {r['spans']} | {r['found']} | "
                     f"{r['span_recall']} | {r['spurious']} | {r['other_type']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extract", type=Path, metavar="PRESIDIO_CHECKOUT", help="write the fixture from a checkout")
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--errors", action="store_true", help="print every row that is not exact")
    args = parser.parse_args(argv)
    if args.extract:
        data = extract(args.extract)
        args.fixture.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {len(data['cases'])} rows to {args.fixture}")
        return 0
    data = json.loads(args.fixture.read_text("utf-8"))
    result = score(data["cases"])
    if args.json:
        print(json.dumps({"commit": data["commit"], **result}, indent=1))
    else:
        print(markdown(data, result))
        if args.errors:
            print(json.dumps(result["errors"], indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
