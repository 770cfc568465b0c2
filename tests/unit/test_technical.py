"""The technical-content detector: what it must catch, what it must leave alone, and its spans."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redline.screen.detectors.base import Detection, Detector
from redline.screen.detectors.technical import TechnicalContentDetector

CASES = Path(__file__).parent.parent / "fixtures" / "technical_cases.jsonl"
ENTITIES = {"STACK_TRACE", "FILE_PATH", "LOG_LINE", "CODE_BLOCK", "SQL", "INTERNAL_HOSTNAME"}
detector = TechnicalContentDetector()

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/acme/billing/sync.py", line 88, in push\n'
    "    raise SyncError(code)\n"
    "SyncError: 502"
)

PRODUCT_CLEAN = [
    "Thanks for reaching out! I've reset your two-factor settings; you'll be asked to enroll a new device at next login.",
    "Your invoice for November is attached. Let me know if anything looks off.",
    "I've escalated the sync bug to engineering; the ticket number is ENG-4821.",
    "The customer portal lets you download every past invoice as a PDF.",
    "You can change the billing contact under Settings > Billing.",
    "Our status page shows the incident was resolved at 14:05 UTC.",
    "Your data export is ready; the download link expires in 24 hours.",
    "Annual plans are listed at 20% off the monthly price on our public pricing page.",
    "See https://acme.example/help/billing/invoices for details.",
    "We're open 24/7 and reply within 1/2 a day.",
    "Please select a plan and update your card.",
    "I'm sorry the sync failed; our engineers are on it.",
    "Can you paste me the full traceback from the sync job?",
]

# (text, entity, the construct the span must cover exactly)
CONSTRUCTS = [
    ("It crashed at com.foo.Bar(Bar.java:42) last night.", "STACK_TRACE", "at com.foo.Bar(Bar.java:42)"),
    ('See File "/x.py", line 8, in f for the frame.', "STACK_TRACE", 'File "/x.py", line 8, in f'),
    (
        "Crash:\njava.lang.IllegalStateException: boom\n\tat com.acme.A.run(A.java:3)\n\tat com.acme.B.main(B.java:9)\nThanks",
        "STACK_TRACE",
        "java.lang.IllegalStateException: boom\n\tat com.acme.A.run(A.java:3)\n\tat com.acme.B.main(B.java:9)",
    ),
    (
        "Console:\nTypeError: x is undefined\n    at push (/app/src/sync.js:10:5)\n    at /app/index.js:3:1\nSorry!",
        "STACK_TRACE",
        "TypeError: x is undefined\n    at push (/app/src/sync.js:10:5)\n    at /app/index.js:3:1",
    ),
    (
        "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d\nexit status 2",
        "STACK_TRACE",
        "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d",
    ),
    (
        "Node said:\nError: connect ECONNREFUSED\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1494:16)",
        "STACK_TRACE",
        "Error: connect ECONNREFUSED\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1494:16)",
    ),
    ("The config is /etc/nginx/nginx.conf.", "FILE_PATH", "/etc/nginx/nginx.conf"),
    ("Open C:\\Users\\bob\\AppData\\acme.log now", "FILE_PATH", "C:\\Users\\bob\\AppData\\acme.log"),
    ("Logs: /var/log/acme/sync.log, rotated daily", "FILE_PATH", "/var/log/acme/sync.log"),
    ("It writes to /home/deploy/out (see above)", "FILE_PATH", "/home/deploy/out"),
    ("Saw:\n2026-11-29T14:05:01Z ERROR sync failed code=502\nok", "LOG_LINE", "2026-11-29T14:05:01Z ERROR sync failed code=502"),
    ("It logged level=error msg=timeout at noon", "LOG_LINE", "level=error msg=timeout at noon"),
    (
        'Postgres said:\nERROR:  duplicate key value violates "invoices_pkey"\nDETAIL:  Key (id)=(4821) already exists.',
        "LOG_LINE",
        'ERROR:  duplicate key value violates "invoices_pkey"\nDETAIL:  Key (id)=(4821) already exists.',
    ),
    (
        'Try:\n```sh\ncurl -X POST https://acme.example/v1/sync\n```\nThanks',
        "CODE_BLOCK",
        '```sh\ncurl -X POST https://acme.example/v1/sync\n```',
    ),
    ("Code:\ndef push(code):\n    raise SyncError(code)\n\nBye", "CODE_BLOCK", "def push(code):\n    raise SyncError(code)"),
    ("I ran SELECT * FROM invoices WHERE id = 4; twice.", "SQL", "SELECT * FROM invoices WHERE id = 4;"),
    ("Host db-prod-3.internal is up.", "INTERNAL_HOSTNAME", "db-prod-3.internal"),
    ("Postgres on 10.0.3.4:5432 restarted.", "INTERNAL_HOSTNAME", "10.0.3.4:5432"),
    ("Open localhost:8080 in the VM.", "INTERNAL_HOSTNAME", "localhost:8080"),
]

NOT_TECHNICAL = [
    "Due 11/29/2026 and/or when you're back; 3/4 of the team agrees.",
    "Go to Settings > Billing > Invoices and click Download.",
    "Set your router to 192.168.1.1, then restart it.",
    "Version 10.0.3.4 fixes the login loop.",
    "If the page shows \"TypeError: failed to fetch\", refresh it.",
    "Select Pro or Team from the dropdown, then update your card.",
    "Email us at help@acme.corp.example if you need anything.",
    "See status.internal.acme.com for updates.",
    "Hi Sam,\n\nThanks for your patience.\n\nBest,\nAlex",
    "ERROR: card declined. Please try another card.",
    "return the device within 30 days;\nreturn shipping is free;",
]


def test_detector_satisfies_the_protocol_under_its_policy_name() -> None:
    checked: Detector = detector
    assert checked.name == "technical_content"


def test_a_pasted_python_traceback_fires_as_one_stack_trace_from_header_to_exception() -> None:
    text = "Here is what the server logged:\n" + TRACEBACK
    [found] = detector.detect(text)
    assert found.entity == "STACK_TRACE"
    assert text[found.start : found.end] == TRACEBACK
    assert "python_traceback" in found.explanation
    assert "contains FILE_PATH" in found.explanation  # the path is folded into the construct


@pytest.mark.parametrize("text", PRODUCT_CLEAN)
def test_an_ordinary_support_draft_does_not_fire(text: str) -> None:
    assert detector.detect(text) == []


@pytest.mark.parametrize("text", NOT_TECHNICAL)
def test_dates_fractions_menus_and_public_names_are_not_technical(text: str) -> None:
    assert detector.detect(text) == []


@pytest.mark.parametrize(("text", "entity", "construct"), CONSTRUCTS)
def test_the_span_covers_exactly_the_construct(text: str, entity: str, construct: str) -> None:
    found = [d for d in detector.detect(text) if d.entity == entity]
    assert [text[d.start : d.end] for d in found] == [construct]


def test_an_exception_line_without_frames_is_not_a_stack_trace() -> None:
    assert detector.detect("The form said:\nValueError: amount must be positive\nso I fixed it.") == []


def test_sql_needs_its_structure_not_just_the_english_verbs() -> None:
    assert detector.detect("Please select one from the list and delete from your cart what you don't need.") == []
    [found] = detector.detect("select id from users where email = 'x';")
    assert found.entity == "SQL"


def test_an_unclosed_fence_runs_to_the_end_of_the_draft() -> None:
    text = "Paste this:\n```\nacme sync --force"
    [found] = detector.detect(text)
    assert (found.entity, text[found.start :]) == ("CODE_BLOCK", "```\nacme sync --force")


def test_lone_surrogates_do_not_shift_offsets() -> None:
    text = "\ud800 bad byte, then /etc/acme/app.conf and \udfff"
    [found] = detector.detect(text)
    assert text[found.start : found.end] == "/etc/acme/app.conf"


def test_non_ascii_text_keeps_character_offsets() -> None:
    text = "Désolé — le fichier /var/log/acme/sync.log est plein. 日本語"
    [found] = detector.detect(text)
    assert text[found.start : found.end] == "/var/log/acme/sync.log"


def test_labelled_drafts_score_at_least_95_percent_precision_and_recall() -> None:
    rows = [json.loads(line) for line in CASES.read_text("utf-8").splitlines() if line.strip()]
    assert len(rows) >= 60
    tp = fp = fn = 0
    for row in rows:
        found = detector.detect(row["text"])
        hit = bool(found) and (row["entity"] is None or any(d.entity == row["entity"] for d in found))
        if row["should_flag"]:
            tp, fn = tp + hit, fn + (not hit)
        else:
            fp += bool(found)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert precision >= 0.95 and recall >= 0.95, (precision, recall)


def test_every_labelled_detection_is_a_trimmed_span_of_the_original() -> None:
    for line in CASES.read_text("utf-8").splitlines():
        text = json.loads(line)["text"]
        for d in detector.detect(text):
            piece = text[d.start : d.end]
            assert piece and piece == piece.strip() and d.entity in ENTITIES and d.explanation


_FRAGMENTS = [
    TRACEBACK, "\n", "\n\n", "  ", "\t", "```", "/etc/a/b", "C:\\x\\y", "~/a/b", "at a.B(C.java:1)", "level=error",
    "2026-11-29T14:05:01Z ERROR ", "SELECT * FROM t WHERE a = 1;", "db.internal:5", "10.0.0.1:80", "def f():\n    x",
    "{", "}", ";", "\ud800", "\udfff", "é", "\u2028", "\r\n", '"', "'", "panic: x", "goroutine 1 [running]:",
]
_texts = st.lists(
    st.one_of(st.text(st.characters(exclude_categories=()), max_size=20), st.sampled_from(_FRAGMENTS)), max_size=25
).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts)
def test_detect_is_total_and_every_span_lies_inside_the_text(text: str) -> None:
    found = detector.detect(text)
    assert all(isinstance(d, Detection) for d in found)
    for d in found:
        assert 0 <= d.start < d.end <= len(text)
        assert d.entity in ENTITIES
    spans = sorted((d.start, d.end) for d in found)
    # no span sits inside another: nested finds are folded into the construct
    assert all(not (a[0] <= b[0] and b[1] <= a[1]) for a, b in zip(spans, spans[1:]))


def test_a_clean_kilobyte_draft_costs_microseconds() -> None:
    draft = (" ".join(PRODUCT_CLEAN) * 2)[:1024]
    detector.detect(draft)
    runs = []
    for _ in range(200):
        start = time.perf_counter_ns()
        detector.detect(draft)
        runs.append(time.perf_counter_ns() - start)
    assert statistics.median(runs) < 200_000  # measured ~3 µs; the bound only catches a regression to O(n) Python


def test_a_megabyte_draft_is_scanned_whole() -> None:
    text = ("Your invoice is attached. " * 40_000)[: 1 << 20] + "\n" + TRACEBACK
    [found] = detector.detect(text)
    assert text[found.start : found.end] == TRACEBACK
