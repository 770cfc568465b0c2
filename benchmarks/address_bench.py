"""STREET_ADDRESS precision and recall on generated addresses, and on presidio-research.

    PYTHONPATH=src python benchmarks/address_bench.py [--synth ../shared/benchmarks/pii/presidio-synth-v2.json]
        [--json] [--errors]

Generated set (seeded, written here): US and UK addresses assembled from parts — house
numbers (`12`, `221B`, `12-14`), 1-3 word street names, every suffix form (written out,
abbreviated, with or without a full stop, capitals), directions, flats and suites,
towns, US states with ZIP and ZIP+4, UK postcodes, PO boxes, one line or several — put
into sentences a support conversation holds ("Please ship it to …", "Billing address:
…"). Negatives are sentences that share the pieces without being an address: numbers
before capitalised words, street names without a number, quantities, versions, years,
rooms, ids, lower-case prose ("walked 3 blocks down the road").

A prediction is *exact* when its span equals the address, *overlap* when it shares a
character with it. presidio-research's synthetic sentences (MIT) label STREET_ADDRESS in
Faker's international formats and in pieces (a house number and a street as two spans,
`Suite 464` alone, a bare ZIP): only overlap is meaningful there, and many gold spans
are forms this recognizer does not claim (`Rua Diadema 1903`, `Via Roma 131`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

try:
    import redline  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from redline.screen.detectors.pii import PiiDetector

NAMES = ("Main", "Oak", "Maple", "Cedar", "Elm", "Pine", "Washington", "Lake", "Hill", "Park", "Sunset", "Highland",
         "Baker", "Church", "Mill", "Station", "Victoria", "King", "Queen", "Market", "Bridge", "Spring", "Willow",
         "Chestnut", "Franklin", "Jefferson", "Lincoln", "Madison", "Riverside", "Fairview", "Green", "Forest",
         "Martin Luther King", "Old Mill", "West End", "New Bond", "St. James", "Grand", "5th", "42nd", "Third")
SUFFIXES = ("Street", "St", "St.", "Avenue", "Ave", "Ave.", "Road", "Rd", "Rd.", "Boulevard", "Blvd", "Lane", "Ln",
            "Drive", "Dr", "Court", "Ct", "Place", "Pl", "Terrace", "Way", "Parkway", "Highway", "Circle", "Close",
            "Crescent", "Row", "Mews", "Gardens", "Grove", "Square", "STREET", "AVE")
DIRECTIONS = ("N", "S", "NE", "SW", "NW", "East", "West")
UNITS = ("Apt 4B", "Apt. 12", "Suite 300", "Ste 210", "Unit 7", "#12", "Floor 3")
US_TOWNS = (("Springfield", "IL"), ("Austin", "TX"), ("Portland", "OR"), ("Boston", "MA"), ("Denver", "CO"),
            ("New York", "NY"), ("San Diego", "CA"), ("Columbus", "OH"), ("Salt Lake City", "UT"), ("Miami", "FL"))
UK_TOWNS = ("London", "Manchester", "Oxford", "Leeds", "Bristol", "Cardiff", "York", "Brighton", "Glasgow")
TEMPLATES = (
    "Please ship the replacement to {a}.", "My new address is {a}, effective Monday.", "Billing address: {a}",
    "The package was delivered to {a} but nobody was home.", "Can you update my address to {a}?",
    "Send the invoice to:\n{a}\nThanks!", "We moved from {a} last year.", "Our office is at {a}; visitors sign in.",
    "Return it to {a} within 30 days.", "{a}",
)
NEGATIVES = (
    "I walked 3 blocks down the road to the shop.", "The store on Main Street is closed today.",
    "Version 2 Way of working ships next week.", "We have 3 Drive bays and 2 Court dates.",
    "In 2019 Main Street was repaved.", "Room 12 is next to the Station Road entrance.",
    "Order 1234 ships with 2 Park passes.", "Take exit 42 toward the Grand Parkway.",
    "Chapter 12 covers Green Lane history without addresses.", "It takes 15 minutes from Baker Street station.",
    "Your ticket ENG-4821 was updated at 14:05.", "The 3 Lakes trail is 12 miles long.",
    "About 40 Oak trees line the avenue.", "Call us about the 5 Star Way program.",
    "The meeting is on Floor 3 of the Hill building.", "We sold 250 King size beds this month.",
    "Revenue grew 12 percent on Market Street stores.", "Apply the 2.4.1 Way forward patch.",
    "The ZIP code is 62704 and the state is IL.", "Postcode SW1A 2AA is Westminster.",
)


def us(r: random.Random) -> str:
    number = r.choice((str(r.randint(1, 9999)), f"{r.randint(1, 999)}{r.choice('AB')}", f"{r.randint(10, 40)}-{r.randint(41, 60)}"))
    parts = [number]
    if r.random() < 0.15:
        parts.append(r.choice(DIRECTIONS))
    parts += [r.choice(NAMES), r.choice(SUFFIXES)]
    if r.random() < 0.2:
        parts.append(r.choice(("NW", "SE", "N")))
    line = " ".join(parts)
    if r.random() < 0.3:
        line += ", " + r.choice(UNITS)
    roll = r.random()
    town, state = r.choice(US_TOWNS)
    zip_code = f"{r.randint(10000, 99999)}" + (f"-{r.randint(1000, 9999)}" if r.random() < 0.3 else "")
    sep = r.choice((", ", "\n"))
    if roll < 0.5:
        line += f"{sep}{town}, {state} {zip_code}"
    elif roll < 0.7:
        line += f", {town}"  # a town alone follows a comma; on its own line it comes with a ZIP
    return line


def uk(r: random.Random) -> str:
    line = f"{r.randint(1, 300)}{r.choice(('', '', 'A', 'B'))} {r.choice(NAMES[:30])} {r.choice(SUFFIXES[:30])}"
    if r.random() < 0.25:
        line = f"Flat {r.randint(1, 20)}, " + line
    postcode = f"{r.choice(('SW', 'NW', 'E', 'M', 'LS', 'OX', 'BS', 'CF'))}{r.randint(1, 20)} {r.randint(1, 9)}" \
               f"{r.choice('ABDEFGHJLNPQRSTUWXYZ')}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}"
    sep = r.choice((", ", "\n"))
    roll = r.random()
    if roll < 0.6:
        line += f"{sep}{r.choice(UK_TOWNS)} {postcode}"
    elif roll < 0.8:
        line += f", {r.choice(UK_TOWNS)}"
    return line


def po_box(r: random.Random) -> str:
    town, state = r.choice(US_TOWNS)
    return f"{r.choice(('PO Box', 'P.O. Box', 'P. O. Box'))} {r.randint(1, 99999)}, {town}, {state} {r.randint(10000, 99999)}"


def generated(n: int = 600, seed: int = 11) -> tuple[list[tuple[str, tuple[int, int]]], list[str]]:
    r = random.Random(seed)
    rows = []
    for i in range(n):
        address = (us, uk, po_box)[0 if i % 10 < 5 else 1 if i % 10 < 9 else 2](r)
        text = r.choice(TEMPLATES).format(a=address)
        at = text.index(address)
        rows.append((text, (at, at + len(address))))
    return rows, list(NEGATIVES)


def score(detector: PiiDetector, rows: list[tuple[str, tuple[int, int]]], negatives: list[str]) -> dict[str, Any]:
    tp_exact = tp_overlap = predicted = 0
    misses, spurious = [], []
    for text, (s, e) in rows:
        found = [(d.start, d.end) for d in detector.detect(text) if d.entity == "STREET_ADDRESS" and not d.weak]
        predicted += len(found)
        exact = (s, e) in found
        overlap = any(a < e and s < b for a, b in found)
        tp_exact += exact
        tp_overlap += overlap
        if not exact:
            misses.append({"text": text, "want": text[s:e], "got": [text[a:b] for a, b in found]})
        spurious += [text[a:b] for a, b in found if not (a < e and s < b)]
    neg_fired = []
    for text in negatives:
        found = [text[d.start : d.end] for d in detector.detect(text) if d.entity == "STREET_ADDRESS" and not d.weak]
        predicted += len(found)
        spurious += found
        if found:
            neg_fired.append({"text": text, "got": found})
    correct = predicted - len(spurious)
    return {
        "addresses": len(rows), "negative_sentences": len(negatives), "predicted": predicted,
        "recall_exact": round(tp_exact / len(rows), 3), "recall_overlap": round(tp_overlap / len(rows), 3),
        "precision_overlap": round(correct / predicted, 3) if predicted else None,
        "negatives_fired": len(neg_fired), "misses": misses[:30], "negatives": neg_fired, "spurious": spurious[:30],
    }


# a gold span in the form the recognizer claims: a house number, words, a street suffix
_CLAIMED = re.compile(r"^[0-9]+[A-Za-z]? (?:[A-Z][\w.']* ){1,4}(?:" + "|".join(re.escape(s.rstrip(".")) for s in SUFFIXES)
                      + r")\b")


def synth(detector: PiiDetector, path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text("utf-8"))
    gold_total = gold_hit = pred_total = pred_hit = claimed = claimed_hit = 0
    for row in data:
        text = row["full_text"]
        gold = [(s["start_position"], s["end_position"]) for s in row["spans"] if s["entity_type"] == "STREET_ADDRESS"]
        pred = [(d.start, d.end) for d in detector.detect(text) if d.entity == "STREET_ADDRESS" and not d.weak]
        gold_total += len(gold)
        pred_total += len(pred)
        hits = [any(a < e and s < b for a, b in pred) for s, e in gold]
        gold_hit += sum(hits)
        for (s, e), hit in zip(gold, hits):
            if _CLAIMED.match(text[s:e]):
                claimed += 1
                claimed_hit += hit
        pred_hit += sum(any(a < e and s < b for s, e in gold) for a, b in pred)
    return {"gold": gold_total, "predicted": pred_total,
            "recall_overlap": round(gold_hit / gold_total, 3) if gold_total else None,
            "precision_overlap": round(pred_hit / pred_total, 3) if pred_total else None,
            "gold_in_claimed_form": claimed,
            "recall_overlap_claimed_form": round(claimed_hit / claimed, 3) if claimed else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synth", type=Path, help="presidio-research synthetic sentences (shared/benchmarks/pii)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args(argv)
    detector = PiiDetector()
    rows, negatives = generated()
    report: dict[str, Any] = {"generated": score(detector, rows, negatives)}
    if args.synth:
        report["presidio_synth"] = synth(detector, args.synth)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    g = report["generated"]
    print(f"generated: {g['addresses']} addresses, {g['negative_sentences']} negative sentences")
    print(f"recall exact {g['recall_exact']}, overlap {g['recall_overlap']}; precision (overlap) "
          f"{g['precision_overlap']}; negative sentences that fired {g['negatives_fired']}")
    if "presidio_synth" in report:
        p = report["presidio_synth"]
        print(f"presidio-research: gold {p['gold']}, predicted {p['predicted']}, recall (overlap) "
              f"{p['recall_overlap']}, precision (overlap) {p['precision_overlap']}; gold spans in the form "
              f"claimed (number, street, suffix) {p['gold_in_claimed_form']}, their recall (overlap) "
              f"{p['recall_overlap_claimed_form']}")
    if args.errors:
        print(json.dumps({k: g[k] for k in ("misses", "negatives", "spurious")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
