"""Keys of vendors the detector has no rule for, in the layouts real text puts them in.

Recall on such keys comes from the generic nets (named values, structures, random
strings). Each test writes one layout with a seeded random value of a shape vendors use
(lower-case alnum, a short tag and hex, base62, a UUID) and asserts the exact span; the
negatives beside them are the prose, identifiers and placeholders that share the layout.
No value here is copied from any scanner's test suite.
"""

from __future__ import annotations

import random
import string

import pytest

from redline.screen.detectors.credentials import CredentialsDetector
from redline.screen.detectors.credentials_recognizers._guards import looks_random

detector = CredentialsDetector()
rng = random.Random(20240612)
LOWER36 = string.ascii_lowercase + string.digits
B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def rand(n: int, alphabet: str = B62) -> str:
    """A random value that passes the randomness floors: those are set so that 98 in 100
    random strings pass (measured in `_guards`); these tests are about layouts."""
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            if alphabet == HEX or looks_random(value, min_length=16)[0]:
                return value


def spans(text: str) -> list[str]:
    return [text[d.start : d.end] for d in detector.detect(text)]


def uuid() -> str:
    h = rand(32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


# lower-case letters and digits: a random one switches between letters and digits less
# often than base62 does, and must not be read as words
LOWER_KEYS = [rand(n, LOWER36) for n in (20, 24, 32, 32, 40, 48, 64)]


@pytest.mark.parametrize("value", LOWER_KEYS)
@pytest.mark.parametrize("layout", ["Key={}", "key: {}", "KEY = {}", '"key": "{}"'])
def test_a_bare_key_with_a_lower_case_random_value_fires(layout, value):
    text = layout.format(value)
    assert spans(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "key: value",
        "Key=customer_region_eu_west_1",
        "key: jetbrains.mps.v8_elimination",
        "primary key: order_id",
        "Idempotency-Key: " + "5f3c2a1b-7e4d-4f60-a1b2-c3d4e5f60718",
        "cache_key = user:1234:profile",
        "key: report2024final",
    ],
)
def test_a_bare_key_with_words_or_an_identifier_stays_quiet(text):
    assert detector.detect(text) == []


@pytest.mark.parametrize("tag", ["sk_", "zq_", "pul-", "key-", "nf-", "tfp_", "api_live_"])
def test_a_short_tag_before_hex_fires_as_key_material(tag):
    value = tag + rand(40, HEX)
    text = f"It failed with {value} in the config."
    assert spans(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "integrity sha384-" + rand(48, HEX),
        "Release digest: sha256-" + rand(64, HEX),
        "The fix landed in " + rand(40, HEX) + ".",
        "the wordghp_is_not_a_token_extra is one identifier",
        "def _api_org_96726c78_4ae3_402f_b08b_7a78c6903d2a(self):",
    ],
)
def test_digests_and_identifiers_with_a_tag_stay_quiet(text):
    assert detector.detect(text) == []


def test_a_value_with_a_vendor_prefix_that_fails_the_vendor_format_is_judged_by_its_name():
    near_miss = "ghp_" + rand(30, LOWER36)  # GitHub's format is 36 base62 characters
    assert spans(f"GITHUB_TOKEN={near_miss}") == [near_miss]
    assert spans(f'"token": "{near_miss}"') == [near_miss]
    # a vendor prefix in front of a typed test value is still a test value
    assert detector.detect('"token1": "xoxp-1234567890"') == []
    assert detector.detect("DATABRICKS_TOKEN=dapi1234567890123456789012abcdef") == []


@pytest.mark.parametrize(
    "layout",
    [
        'const fastlyKey string = "{}"',
        'val key: String = "{}"',
        'let token: &str = "{}";',
        "const apiKey: string = '{}';",
        'let apiKey: String = "{}"',
        'var secret: String? = "{}"',
        'private const string ApiSecret = "{}";',
    ],
)
def test_typed_declarations_fire_on_the_value(layout):
    value = rand(32, LOWER36)
    assert spans(layout.format(value)) == [value]


@pytest.mark.parametrize(
    "layout",
    [
        "2024-05-01 12:00:01 - billing - token - {}",
        "INFO | payments client | token | {}",
        "| api_key | {} |",
        "auth - {}",
    ],
)
def test_table_and_log_separators_join_a_name_to_its_value(layout):
    value = rand(32, B62)
    assert spans(layout.format(value)) == [value]


def test_table_header_words_after_a_separator_stay_quiet():
    assert detector.detect("| Token | Description |\n|---|---|\n| token | the session token |") == []


@pytest.mark.parametrize("layout", ["acme_key = {{{}}}", "acme_credentials: {{ {} }}", "token: [{}]", "secret({})"])
def test_a_wrapped_value_fires_without_its_brackets(layout):
    value = rand(36, B62)
    assert spans(layout.format(value)) == [value]


def test_a_trailing_space_inside_the_quotes_is_not_part_of_the_secret():
    value = rand(32, LOWER36)
    assert spans(f'"acme_secret": "{value} "') == [value]
    assert spans(f"password = ' {value}'") == [value]


def test_a_value_over_512_characters_fires_when_it_looks_random():
    value = rand(700, B62 + "-_")
    assert spans(f'ACME_SESSION_TOKEN="{value}"') == [value]
    prose = "word " * 150
    assert detector.detect(f'description: "{prose}"') == []


def test_a_name_and_a_random_value_side_by_side_fire_but_prose_after_a_name_does_not():
    value = rand(40, HEX)
    assert spans(f"acme secret {value}") == [value]
    assert spans(f"Here is the acme key you asked for: {value}") == [value]
    assert detector.detect("The token expired yesterday, so sign in again.") == []
    assert detector.detect("The key point: restart the router first.") == []
    assert detector.detect("We rotate every api key quarterly: 2024Q1, 2024Q2.") == []


def test_a_uuid_named_as_a_key_fires_and_a_uuid_named_as_an_id_does_not():
    value = uuid()
    assert spans(f"key: {value}") == [value]
    assert spans(f"HEROKU_API_KEY={value}") == [value]
    assert detector.detect(f"request_id: {value}") == []
    assert detector.detect(f"Your order reference is {value}.") == []


@pytest.mark.parametrize(
    "url",
    [
        "https://chat.example.org/hooks/" + rand(26, LOWER36),
        "https://chat.example.org/hooks/" + rand(17) + "/" + rand(48),
        "https://hooks.ci-example.io/build/" + rand(40),
        "https://acme.webhook.office.com/webhookb2/" + uuid() + "@" + uuid() + "/IncomingWebhook/" + rand(32, HEX)
        + "/" + uuid(),
        "https://prod-07.westus.logic.azure.com:443/workflows/" + rand(32, HEX)
        + "/triggers/manual/paths/invoke?api-version=2016-06-01&sig=" + rand(43, B62 + "-_"),
    ],
)
def test_webhook_urls_fire_on_the_whole_url(url):
    text = f"Post the alert to {url}."
    assert spans(text) == [url]


def test_a_key_written_as_a_path_segment_fires_on_the_segment():
    value = rand(22, B62 + "-_")
    assert spans(f"curl https://maker.example.com/trigger/door/with/key/{value}") == [value]


@pytest.mark.parametrize(
    "text",
    [
        "See https://github.com/acme/app/settings/hooks for setup.",
        "GET https://api.github.com/repos/acme/app/hooks/12345678",
        "Read https://docs.example.com/webhooks/getting-started-with-incoming-webhooks",
        "POST https://example.com/api/keys/rotate",
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "https://example.com/webhooks/{webhook_id}/{webhook_token}",
        "Your export: https://files.example.com/exports/report.csv?expires=1717171717",
    ],
)
def test_urls_without_a_secret_stay_quiet(text):
    assert detector.detect(text) == []


def test_a_query_string_token_fires_and_stops_at_the_next_parameter():
    key, token = rand(32, HEX), rand(40, B62)
    assert spans(f"https://api.example.com/v2/items?key={key}&limit=10") == [key]
    assert spans(f'curl "https://api.example.io/v1/me?access_token={token}#top"') == [token]
    assert detector.detect("https://api.example.com/v2/items?key=${ACME_API_KEY}&limit=10") == []


@pytest.mark.parametrize(
    "text",
    [
        "We are still using the same OAuth2PasswordRequestForm for the login route.",
        "Use getUserAuthenticationTokenFromStore2 to read it.",
        "credentials.username is the login name, credentials.password the secret.",
        "fn::secret: ops_eyJzaWduSW5BZGRyZXNzIjoi..[Redacted]",
        "export OP_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6...",
    ],
)
def test_camel_case_names_user_names_and_elided_values_stay_quiet(text):
    assert detector.detect(text) == []
