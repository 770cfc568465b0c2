"""The credentials detector: what it must catch, what it must leave alone, and its spans.

Key-shaped strings are assembled at run time (seeded) rather than written out, so this
file holds no literal that a secret scanner would stop at a push.
"""

from __future__ import annotations

import json
import random
import string
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redline.screen.detectors.base import Detection, Detector
from redline.screen.detectors.credentials import ENTITIES, CredentialsDetector

SAMPLE = Path(__file__).parent.parent / "fixtures" / "secrets_sample.jsonl"
detector = CredentialsDetector()
rng = random.Random(20240501)
B62 = string.ascii_letters + string.digits


def rand(n: int, alphabet: str = B62) -> str:
    """Random, and mixing letters and digits (where the alphabet has both) as real keys do."""
    mixed = any(c.isdigit() for c in alphabet) and any(c.isalpha() for c in alphabet)
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if not mixed or (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
            return value


def entities(text: str) -> list[str]:
    return [d.entity for d in detector.detect(text)]


def secrets(text: str) -> list[str]:
    return [text[d.start : d.end] for d in detector.detect(text)]


STRIPE = "sk_" + "live_" + "51H8xQ2eZvKYlo2C9aT4bQxJq7RmN3pL0wVfYtUe8sGdHkA"
AWS_ID, AWS_SECRET = "AKIA" + "IOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"

PRODUCT_HELD = [  # (draft, the secrets it gives away, their entities)
    (f"Use this key to test the endpoint: {STRIPE}", [STRIPE], ["STRIPE_KEY"]),
    (
        "The admin login is admin / password: Tr0ub4dor&3, please change it after first use.",
        ["Tr0ub4dor&3"],
        ["GENERIC_SECRET"],
    ),
    (
        f"Here's the AWS key the team uses: {AWS_ID} with secret {AWS_SECRET}",
        [AWS_ID, AWS_SECRET],
        ["AWS_ACCESS_KEY", "AWS_SECRET_KEY"],
    ),
    (
        "Sure, here is the config you asked for: DATABASE_URL=postgres://billing:S3cr3tPassw0rd@db.internal:5432/billing",
        ["S3cr3tPassw0rd"],
        ["CONNECTION_STRING_PASSWORD"],
    ),
]

PRODUCT_CLEAN = [
    "Thanks for reaching out! I've reset your two-factor settings; you'll be asked to enroll a new device at next login.",
    "I've escalated the sync bug to engineering; the ticket number is ENG-4821.",
    "You can reset your password from the login page.",
    "Please regenerate your API key under Settings > API.",
    "The fix landed in commit 3f9c2a1b7e4d5f60a1b2c3d4e5f60718293a4b5c.",
    "Our status page shows the incident was resolved at 14:05 UTC.",
    "Your data export is ready; the download link expires in 24 hours.",
    'Here is what the server logged:\nTraceback (most recent call last):\n  File "/srv/acme/billing/sync.py", '
    "line 88, in push\n    raise SyncError(code)\nSyncError: 502",
]

PROSE_THAT_NAMES_CREDENTIALS = [
    "Your password must be 12 characters or more.",
    "Password: must be at least 12 characters.",
    "The token expired; sign in again to get a new one.",
    "Ticket BIL-2291 is assigned to billing; ENG-4821 is blocked on it.",
    "Version 3.2.1-beta.4 fixes the memory leak.",
    "See https://docs.example.com/api/authentication#api-keys for how to rotate keys.",
    "Request ID: 7f3c9e2a-1b4d-4e8f-9a6b-2c5d8e1f0a3b",
    "Internationalization and accessibility improvements shipped this week.",
    "The function getUserAuthenticationTokenFromSessionStore returns null when logged out.",
    "The file is at /var/lib/app/data/exports/2024-05-01/report_final_v2.csv",
    "The checksum is d41d8cd98f00b204e9800998ecf8427e.",
    "Connection string format: postgres://user:password@host:5432/dbname",
    "Credentials are managed in Vault; ask the platform team for access.",
    "The key is to restart the router first, then the modem.",
    "const apiKey = process.env.OPENAI_API_KEY;",
    "Authorization: approved by finance on 2024-05-01.",
    "password_last_changed: 2024-03-01T10:00:00Z",
    "Token usage: 12,345 tokens this month",
    "Primary key: customer_id",
    "Auth method: SAML (Okta)",
    "Our Stripe publishable key is pk_" + "live_" + "51H8xQ2eZvKYlo2C9aT4bQxJq7RmN3pL0wVfYtUe8sGdHkA.",
]

PLACEHOLDERS = [
    "api_key: <your-api-key>",
    "password: ********",
    "password = xxxxxxxxxxxx",
    "export DB_PASSWORD=${SECRET}",
    'api_key = "YOUR_API_KEY_HERE"',
    "token: {{ .Values.token }}",
    "Authorization: Bearer <token>",
    "curl -u $USER:$PASS https://api.example.com",
    "export STRIPE_SECRET_KEY=" + "sk_" + "test_" + "x" * 24,
    "ghp_" + "x" * 36,
]


@pytest.mark.parametrize(("text", "wanted", "kinds"), PRODUCT_HELD)
def test_product_drafts_that_leak_a_credential_fire_on_exactly_the_secret(text, wanted, kinds):
    assert secrets(text) == wanted
    assert entities(text) == kinds


@pytest.mark.parametrize("text", PRODUCT_CLEAN)
def test_product_drafts_without_credentials_do_not_fire(text):
    assert detector.detect(text) == []


@pytest.mark.parametrize("text", PROSE_THAT_NAMES_CREDENTIALS)
def test_prose_that_talks_about_credentials_does_not_fire(text):
    assert detector.detect(text) == []


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_placeholders_and_references_do_not_fire(text):
    assert detector.detect(text) == []


VENDOR = [  # (family, the token, its entity)
    ("AWS access key ID", "AKIA" + rand(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), "AWS_ACCESS_KEY"),
    ("GitHub token", "ghp_" + rand(36), "GITHUB_TOKEN"),
    ("GitHub fine-grained token", "github_pat_" + rand(82, B62 + "_"), "GITHUB_TOKEN"),
    ("GitLab token", "glpat-" + rand(20), "GITLAB_TOKEN"),
    ("Slack bot token", "xoxb-" + rand(12, string.digits) + "-" + rand(13, string.digits) + "-" + rand(24), "SLACK_TOKEN"),
    ("Slack webhook", "https://hooks.slack.com/services/T" + rand(8).upper() + "/B" + rand(8).upper() + "/" + rand(24),
     "SLACK_WEBHOOK"),
    ("Stripe restricted key", "rk_" + "live_" + rand(40), "STRIPE_KEY"),
    ("OpenAI key", "sk-proj-" + rand(58) + "T3BlbkFJ" + rand(58), "OPENAI_KEY"),
    ("OpenAI-style key", "sk-" + rand(48), "OPENAI_KEY"),
    ("Anthropic key", "sk-ant-api03-" + rand(93, B62 + "_-") + "AA", "ANTHROPIC_KEY"),
    ("Google API key", "AIza" + rand(35, B62 + "_-"), "GOOGLE_API_KEY"),
    ("Twilio API key", "SK" + rand(32, "0123456789abcdef"), "TWILIO_KEY"),
    ("SendGrid key", "SG." + rand(22) + "." + rand(43), "SENDGRID_KEY"),
    ("npm token", "npm_" + rand(36), "NPM_TOKEN"),
    ("PyPI token", "pypi-AgEIcHlwaS5vcmc" + rand(120, B62 + "_-"), "PYPI_TOKEN"),
    ("Hugging Face token", "hf_" + rand(34, string.ascii_letters).replace("x", "q"), "HUGGINGFACE_TOKEN"),
    ("Discord webhook", "https://discord.com/api/webhooks/" + rand(18, string.digits) + "/" + rand(68), "WEBHOOK_URL"),
]


@pytest.mark.parametrize(("family", "token", "entity"), VENDOR, ids=[v[0] for v in VENDOR])
def test_each_vendor_format_fires_with_its_entity_and_exact_span(family, token, entity):
    text = f"Here you go: {token} (keep it safe)"
    found = detector.detect(text)
    assert [(text[d.start : d.end], d.entity) for d in found] == [(token, entity)]
    assert "format" in found[0].explanation, family  # which recognizer fired, and on what


def test_a_vendor_prefix_inside_a_longer_word_is_not_that_vendors_token():
    # the GitHub rule does not claim it; the random 41 characters after a short tag are
    # still judged as key material by the generic net
    found = detector.detect("the wordghp_" + rand(36) + "extra is one identifier")
    assert "GITHUB_TOKEN" not in [d.entity for d in found]
    assert detector.detect("the wordghp_is_not_a_token_extra is one identifier") == []


def test_a_jwt_fires_on_the_whole_token():
    header, payload = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ"
    token = f"{header}.{payload}.{rand(43, B62 + '_-')}"
    assert secrets(f"Bearer token for the test: {token}") == [token]
    assert entities(f"Bearer token for the test: {token}") == ["JWT"]


def test_a_pem_private_key_block_fires_on_the_whole_block():
    body = "\n".join(rand(64, B62 + "+/") for _ in range(4))
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    text = f"Here is the deploy key:\n{block}\nDelete it after use."
    assert secrets(text) == [block]
    assert entities(text) == ["PRIVATE_KEY"]


def test_a_pem_header_without_a_body_does_not_fire():
    assert detector.detect("-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----") == []


def test_a_public_key_or_certificate_block_does_not_fire():
    body = "\n".join(rand(64, B62 + "+/") for _ in range(3))
    assert detector.detect(f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----") == []


GENERIC = [
    ("DB_PASSWORD=Hx7!kq2Lm9", "Hx7!kq2Lm9"),
    ('{"api_key": "' + "Q3" + "v9XkLm2PzR8tYw4N" + '"}', "Q3v9XkLm2PzR8tYw4N"),
    ("client_secret: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ('<add key="ClearTextPassword" value="Winter2024!Blue" />', "Winter2024!Blue"),
    ("The wifi password is C0rr3ct-H0rse.", "C0rr3ct-H0rse"),
    ('if (token == "' + "a8F3kQ9zLm2X" + "vB7nR4tY" + '") {', "a8F3kQ9zLm2XvB7nR4tY"),
    ("heroku_api_key = 832d2129-a846-4e27-99f4-7004b6ad53ef", "832d2129-a846-4e27-99f4-7004b6ad53ef"),
]


@pytest.mark.parametrize(("text", "secret"), GENERIC)
def test_values_assigned_to_secret_names_fire_on_the_value(text, secret):
    assert secrets(text) == [secret]


@pytest.mark.parametrize(
    "text",
    [
        "password_length = 12",
        'public_key = "' + rand(40) + '"',
        "csrf_token=" + rand(40),
        'clientId = "73082700-1f09-405b-80d0-3131bfd6272d"',
        '"kms_key_id": "555ea4a3-d53a-4412-9c66-3a7cb667b0d6"',
        "passwordVariable: 'PASSWORD'",
        "secret_key = settings.SECRET_KEY",
        'password = "${aws_db_instance.default.password}"',
        "notes = io.jsonwebtoken:jjwt-jackson-0.11.2",
        'bucket_key: "SalesResults-1.2"',
    ],
)
def test_names_that_identify_or_reference_do_not_fire(text):
    assert detector.detect(text) == []


def test_a_random_string_with_no_name_fires_as_high_entropy():
    token = rand(32)
    text = f"use {token} for now"
    assert secrets(text) == [token]
    assert entities(text) == ["HIGH_ENTROPY_STRING"]
    assert "entropy" in detector.detect(text)[0].explanation


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f9c2a1b7e4d5f60a1b2c3d4e5f60718293a4b5c",
        "workspace 123e4567-e89b-12d3-a456-426614174000",
        "the image is sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "internationalizationalist counterrevolutionaries",
        "struct_X509_pubkey_st and SN_id_Gost28147_89_None_KeyMeshing",
        "https://example.com/downloads/" + rand(32) + "/report.pdf",
        "Base64 of hello world is aGVsbG8gd29ybGQgYWdhaW4gYW5kIGFnYWlu.",
        "const keyStr = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'",
    ],
)
def test_hashes_uuids_words_identifiers_and_urls_are_not_high_entropy(text):
    assert detector.detect(text) == []


def test_offsets_are_offsets_of_the_original_text_even_after_non_ascii():
    token = "ghp_" + rand(36)
    text = f"Grüße 🙂 — voilà: password: Pässwörd1! and {token}"
    found = detector.detect(text)
    assert [text[d.start : d.end] for d in found] == ["Pässwörd1!", token]


def test_lone_surrogates_and_empty_text_are_handled():
    assert detector.detect("") == []
    text = "\ud800 password: Tr0ub4dor&3 \udfff"
    assert secrets(text) == ["Tr0ub4dor&3"]


def test_the_detector_meets_the_protocol_and_reports_known_entities():
    typed: Detector = detector
    assert typed.name == "credentials"
    found = typed.detect(PRODUCT_HELD[2][0])
    assert all(isinstance(d, Detection) and d.entity in ENTITIES and d.explanation for d in found)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(codec=None), max_size=400))
def test_detect_is_total_and_spans_are_in_range_on_arbitrary_text(text):
    found = detector.detect(text)
    for d in found:
        assert 0 <= d.start < d.end <= len(text)
        assert d.entity in ENTITIES
    assert all(a.end <= b.start for a, b in zip(found, found[1:]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["password: ", "token=", "ghp_", "AKIA", "xoxb-", "sk-", "://u:p@h", "-----BEGIN ",
                                 "PRIVATE KEY-----", "kind: Secret\ndata:\n  k: ", "curl -u a:", "eyJ", ".", "\"", "'",
                                 "=", " ", "\n", "x" * 8, "Ab3dE5gH7jK9mN1pQ3sT", "é", "\ud800"]), max_size=40))
def test_detect_is_total_on_credential_fragments(parts):
    text = "".join(parts)
    for d in detector.detect(text):
        assert 0 <= d.start < d.end <= len(text)


def test_a_one_megabyte_draft_is_screened_in_well_under_a_second():
    words = "thanks for the update the order ships on friday and the invoice is attached".split()
    text = " ".join(rng.choice(words) for _ in range(200_000))[: 1 << 20]
    started = time.perf_counter()
    assert detector.detect(text) == []
    assert time.perf_counter() - started < 1.0


def test_a_clean_one_kilobyte_draft_costs_microseconds():
    text = ("Your order ships on Friday and the invoice is attached. Let me know if anything looks off. " * 12)[:1024]
    detector.detect(text)
    runs = []
    for _ in range(200):
        started = time.perf_counter_ns()
        detector.detect(text)
        runs.append(time.perf_counter_ns() - started)
    assert sorted(runs)[100] < 200_000  # generous: ~5 µs here, 200 µs leaves room for slow CI


def _sample() -> list[dict]:
    with SAMPLE.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("row", _sample(), ids=lambda r: f"{r['source']}:{r['rule']}:{'fires' if r['expect'] else 'quiet'}")
def test_benchmark_sample_rows_fire_exactly_when_labelled(row):
    assert bool(detector.detect(row["text"])) is row["expect"]


def test_a_long_text_the_prefilter_set_gives_up_on_is_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """RE2::Set has no NFA fallback: on a long text its DFA may run out of memory and report
    nothing. The detector then searches the same alternation with plain RE2."""
    from redline.screen.detectors import credentials

    class GaveUp:
        def Match(self, data: str) -> None:  # noqa: N802 - RE2's name
            return None

    monkeypatch.setattr(credentials, "_PREFILTER", GaveUp())
    filler = "Thanks for waiting, the parcel ships today. " * 2_000  # ~88 KB
    found = credentials.CredentialsDetector().detect(filler + "key AKIAIOSFODNN7EXAMPLE")
    assert [d.entity for d in found] == ["AWS_ACCESS_KEY"]
    assert credentials.CredentialsDetector().detect("key AKIAIOSFODNN7EXAMPLE") == [], "a short text trusts the set"
    assert credentials.CredentialsDetector().detect(filler) == []
