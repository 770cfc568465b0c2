"""Vendor key and token formats: a literal prefix, a fixed alphabet and length.

The formats are modelled on the rules that gitleaks publishes (github.com/gitleaks/gitleaks,
config/gitleaks.toml, MIT licence): their prefixes, alphabets, lengths and entropy floors,
written here for RE2 and for this table, not copied. Like gitleaks, a rule
carries `keywords` (literal strings every match contains, for the prefilter) and a
minimum entropy of the part after the prefix, so `ghp_` followed by 36 `x` is a
placeholder, not a token. A rule whose format ends in a fixed marker (Anthropic's `AA`,
OpenAI's `T3BlbkFJ`) is specific enough that hand-typed example keys still count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.credentials_recognizers._guards import (
    entropy,
    has_letter_run,
    is_filler,
    is_hand_typed,
    looks_random,
    trailing_mask,
)

# a token ends where its alphabet does: the next character must not continue it
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass(frozen=True, slots=True)
class VendorRule:
    rule: str  # "github-pat"
    entity: str  # "GITHUB_TOKEN"
    what: str  # "GitHub personal access token"
    pattern: str  # RE2; group 1, when present, is the secret
    keywords: tuple[str, ...]  # literals every match contains (case as written)
    prefix: int = 0  # characters of the match that are a fixed prefix, not key material
    min_entropy: float = 3.0  # of the part after the prefix
    checked: bool = False  # format ends in a fixed marker: skip the example-key test
    loose: bool = False  # a family format without fixed length: must also look random
    tail: frozenset[str] = _TOKEN_CHARS
    score: float = 0.95  # on overlap the higher score wins: a family format loses to an exact one


def _r(rule: str, entity: str, what: str, pattern: str, *keywords: str, **kw: object) -> VendorRule:
    return VendorRule(rule, entity, what, pattern, keywords or (rule,), **kw)  # type: ignore[arg-type]


_B62 = "[A-Za-z0-9]"
RULES: tuple[VendorRule, ...] = (
    # --- cloud providers
    _r("aws-access-key-id", "AWS_ACCESS_KEY", "AWS access key ID", r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}",
       "AKIA", "ASIA", "ABIA", "ACCA", "A3T", prefix=4),
    _r("aws-bedrock-key", "AWS_BEDROCK_KEY", "Amazon Bedrock API key (base64 of its host)",
       r"\bbedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]*", "bedrock-api-key-", min_entropy=0),
    _r("gcp-api-key", "GOOGLE_API_KEY", "Google API key", r"\bAIza[\w-]{35}", "AIza", prefix=4, min_entropy=3.5),
    _r("azure-ad-client-secret", "AZURE_CLIENT_SECRET", "Azure AD client secret",
       r"(?:^|[\\'\"`\s>=:(,)])([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?:$|[\\'\"`\s<),])", "Q~",
       tail=frozenset()),
    _r("azure-storage-key", "AZURE_STORAGE_KEY", "Azure storage account key",
       r"AccountKey=([A-Za-z0-9+/]{86}==)", "AccountKey=", tail=frozenset()),
    _r("digitalocean-token", "SERVICE_TOKEN", "DigitalOcean token", r"\bdo[opr]_v1_[a-f0-9]{64}", "doo_v1_", "dop_v1_", "dor_v1_",
       prefix=7),
    _r("cloudflare-origin-ca-key", "SERVICE_TOKEN", "Cloudflare Origin CA key",
       r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}", "v1.0-", prefix=5),
    _r("alibaba-access-key-id", "SERVICE_TOKEN", "Alibaba Cloud AccessKey ID", r"\bLTAI[A-Za-z0-9]{20}", "LTAI", prefix=4),
    # --- source hosting and CI
    _r("github-token", "GITHUB_TOKEN", "GitHub token (ghp_/gho_/ghu_/ghs_/ghr_)", r"\bgh[pousr]_" + _B62 + "{36}",
       "ghp_", "gho_", "ghu_", "ghs_", "ghr_", prefix=4),
    _r("github-fine-grained-pat", "GITHUB_TOKEN", "GitHub fine-grained personal access token",
       r"\bgithub_pat_\w{82}", "github_pat_", prefix=11),
    _r("gitlab-token", "GITLAB_TOKEN", "GitLab token (glpat-, gldt-, glrt-, glptt- …)",
       r"\bgl(?:pat|dt|ft|ffct|rt|soat|cbt|imt|agent|oas|ptt)-[\w-]{20,}(?:\.[0-9a-z]{9})?",
       *(f"gl{k}-" for k in ("pat", "dt", "ft", "ffct", "rt", "soat", "cbt", "imt", "agent", "oas", "ptt")), prefix=6),
    _r("gitlab-runner-registration", "GITLAB_TOKEN", "GitLab runner registration token",
       r"\bGR1348941[\w-]{20,}", "GR1348941", prefix=9),
    _r("npm-token", "NPM_TOKEN", "npm access token", r"\bnpm_" + _B62 + "{36}", "npm_", prefix=4),
    _r("pypi-token", "PYPI_TOKEN", "PyPI upload token (pypi- macaroon)",
       r"\bpypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[\w-]{100,}", "pypi-AgE", prefix=20),
    _r("rubygems-token", "SERVICE_TOKEN", "RubyGems API token", r"\brubygems_[a-f0-9]{48}", "rubygems_", prefix=9),
    _r("clojars-token", "SERVICE_TOKEN", "Clojars deploy token", r"\bCLOJARS_[a-z0-9]{60}", "CLOJARS_", prefix=8),
    _r("artifactory-key", "SERVICE_TOKEN", "Artifactory API key or reference token",
       r"\b(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})", "AKCp", "cmVmd", prefix=5, min_entropy=4.0),
    _r("sourcegraph-token", "SERVICE_TOKEN", "Sourcegraph access token",
       r"\bsgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}", "sgp_", prefix=4),
    _r("octopus-deploy-key", "SERVICE_TOKEN", "Octopus Deploy API key", r"\bAPI-[A-Z0-9]{26}", "API-", prefix=4),
    _r("pulumi-token", "SERVICE_TOKEN", "Pulumi access token", r"\bpul-[a-f0-9]{40}", "pul-", prefix=4),
    _r("terraform-cloud-token", "SERVICE_TOKEN", "Terraform Cloud token",
       r"\b[A-Za-z0-9]{14}\.atlasv1\.[\w=-]{60,70}", "atlasv1", min_entropy=3.5),
    _r("vault-token", "SERVICE_TOKEN", "HashiCorp Vault token",
       r"\b(?:hvs\.[\w-]{90,120}|hvb\.[\w-]{138,300})", "hvs.", "hvb.", prefix=4, min_entropy=3.5),
    _r("databricks-token", "SERVICE_TOKEN", "Databricks access token", r"\bdapi[a-f0-9]{32}(?:-\d)?", "dapi", prefix=4),
    _r("sentry-token", "SERVICE_TOKEN", "Sentry organization or user token",
       r"\b(?:sntrys_eyJpYXQiO[A-Za-z0-9+/=_]{50,}|sntryu_[a-f0-9]{64})", "sntrys_", "sntryu_", prefix=7),
    _r("grafana-token", "SERVICE_TOKEN", "Grafana token",
       r"\b(?:glc_[A-Za-z0-9+/]{32,}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,}={0,3})",
       "glc_", "glsa_", "eyJrIjoi", prefix=5),
    _r("flyio-token", "SERVICE_TOKEN", "Fly.io access token",
       r"\b(?:fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})", "fo1_", "fm1", "fm2_", prefix=4, min_entropy=4.0),
    _r("doppler-token", "SERVICE_TOKEN", "Doppler token", r"\bdp\.(?:pt|st|sa|ct|scim)\.[A-Za-z0-9]{40,44}", "dp.", prefix=6),
    _r("dynatrace-token", "SERVICE_TOKEN", "Dynatrace token", r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", "dt0c01.", prefix=7),
    _r("scalingo-token", "SERVICE_TOKEN", "Scalingo API token", r"\btk-us-[\w-]{48}", "tk-us-", prefix=6, min_entropy=2.0),
    _r("infracost-token", "SERVICE_TOKEN", "Infracost API token", r"\bico-[A-Za-z0-9]{32}", "ico-", prefix=4),
    _r("prefect-token", "SERVICE_TOKEN", "Prefect API key", r"\bpnu_[A-Za-z0-9]{36}", "pnu_", prefix=4),
    _r("readme-token", "SERVICE_TOKEN", "ReadMe API key", r"\brdme_[a-z0-9]{70}", "rdme_", prefix=5),
    _r("linear-key", "SERVICE_TOKEN", "Linear API key", r"\blin_api_[A-Za-z0-9]{40}", "lin_api_", prefix=8),
    _r("notion-token", "SERVICE_TOKEN", "Notion integration token", r"\bntn_\d{11}[A-Za-z0-9]{35}", "ntn_", prefix=4),
    _r("atlassian-token", "SERVICE_TOKEN", "Atlassian API token", r"\bATATT3[A-Za-z0-9_=-]{186}", "ATATT3", prefix=6),
    _r("1password-secret-key", "SERVICE_TOKEN", "1Password account secret key",
       r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}", "A3-", prefix=3),
    _r("1password-service-token", "SERVICE_TOKEN", "1Password service account token",
       r"\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}", "ops_eyJ", prefix=7, min_entropy=4.0),
    _r("age-secret-key", "PRIVATE_KEY", "age encryption secret key",
       r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "AGE-SECRET-KEY-1", prefix=16, min_entropy=0),
    _r("maxmind-license-key", "SERVICE_TOKEN", "MaxMind license key", r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", "_mmk",
       min_entropy=4.0),
    _r("huggingface-token", "HUGGINGFACE_TOKEN", "Hugging Face access token",
       r"\b(?:hf_|api_org_)[A-Za-z]{34}", "hf_", "api_org_", prefix=3, min_entropy=3.0),
    _r("intra42-secret", "SERVICE_TOKEN", "42 intra client secret", r"\bs-s4t2(?:ud|af)-[a-f0-9]{64}", "s-s4t2", prefix=9),
    _r("heroku-key-v2", "SERVICE_TOKEN", "Heroku API key", r"\bHRKU-AA[\w-]{58}", "HRKU-AA", prefix=7, min_entropy=4.0),
    # --- chat, mail, messaging
    _r("slack-token", "SLACK_TOKEN", "Slack token (xoxb-/xoxp-/xoxa-/xoxe- …)",
       r"\bxox[abposre]-(?:\d-)?\d{8,}-[0-9A-Za-z-]{8,}", "xox", prefix=5, min_entropy=2.0),
    _r("slack-legacy-token", "SLACK_TOKEN", "Slack legacy token", r"\bxox[os]-\d+-\d+-\d+-[0-9a-fA-F]{8,}", "xoxo", "xoxs",
       prefix=5, min_entropy=2.0),
    _r("slack-config-token", "SLACK_TOKEN", "Slack configuration token",
       r"\bxoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{100,}", "xoxe", prefix=7, min_entropy=2.0),
    _r("slack-app-token", "SLACK_TOKEN", "Slack app-level token", r"\bxapp-\d-[A-Z0-9]{9,}-\d{8,}-[a-z0-9]{32,}", "xapp-",
       prefix=7, min_entropy=2.0),
    _r("slack-webhook", "SLACK_WEBHOOK", "Slack incoming webhook URL",
       r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,}", "hooks.slack.com",
       min_entropy=0, tail=frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")),
    _r("discord-webhook", "WEBHOOK_URL", "Discord webhook URL",
       r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{5,30}/[\w-]{60,}", "/api/webhooks/",
       min_entropy=0),
    _r("teams-webhook", "WEBHOOK_URL", "Microsoft Teams incoming webhook URL",
       r"https://[\w-]+\.webhook\.office\.com/webhookb2/[\w@-]+/IncomingWebhook/[a-z0-9]{32}/[\w-]+", "webhookb2",
       min_entropy=0),
    _r("zapier-webhook", "WEBHOOK_URL", "Zapier catch hook URL", r"https://hooks\.zapier\.com/hooks/catch/\d+/\w{5,}/?",
       "hooks.zapier.com", min_entropy=0),
    _r("discord-bot-token", "SERVICE_TOKEN", "Discord bot token",
       r"\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}",
       # the first part is the base64 of a numeric user id, so it opens with one of these
       "MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT", min_entropy=4.0, loose=True),
    _r("telegram-bot-token", "SERVICE_TOKEN", "Telegram bot token", r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}", ":AA", prefix=13),
    _r("twilio-key", "TWILIO_KEY", "Twilio API key SID", r"\bSK[0-9a-fA-F]{32}", "SK", prefix=2),
    _r("sendgrid-key", "SENDGRID_KEY", "SendGrid API key", r"\bSG\.[\w-]{22}\.[\w-]{43}", "SG.", prefix=3),
    _r("sendinblue-key", "SERVICE_TOKEN", "Brevo (Sendinblue) API key", r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}",
       "xkeysib-", prefix=8),
    _r("mailgun-key", "SERVICE_TOKEN", "Mailgun API key", r"\bkey-[a-f0-9]{32}", "key-", prefix=4),
    _r("mailchimp-key", "SERVICE_TOKEN", "Mailchimp API key", r"\b[a-f0-9]{32}-us\d{1,2}", "-us"),
    _r("facebook-page-token", "SERVICE_TOKEN", "Facebook page access token", r"\bEAA[MC][A-Za-z0-9]{100,}", "EAAM", "EAAC",
       prefix=4, min_entropy=4.0),
    _r("facebook-app-token", "SERVICE_TOKEN", "Facebook app access token (app id|secret)",
       r"\b\d{15,16}(?:\||%7C)[A-Za-z0-9_-]{27,40}", "|", "%7C", prefix=17),
    # --- payments
    _r("stripe-key", "STRIPE_KEY", "Stripe secret or restricted key", r"\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99}",
       "sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod", prefix=8),
    _r("stripe-webhook-secret", "STRIPE_KEY", "Stripe webhook signing secret", r"\bwhsec_[A-Za-z0-9]{32,}", "whsec_",
       prefix=6),
    _r("square-token", "SERVICE_TOKEN", "Square access token or secret",
       r"\b(?:sq0atp-[\w-]{22,60}|sq0csp-[\w-]{40,50}|EAAA[\w-]{22,60})", "sq0atp-", "sq0csp-", "EAAA", prefix=7,
       min_entropy=2.0),
    _r("shopify-token", "SERVICE_TOKEN", "Shopify access token or shared secret", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
       "shpat_", "shpca_", "shppa_", "shpss_", prefix=6),
    _r("easypost-key", "SERVICE_TOKEN", "EasyPost API key", r"\bEZ[AT]K[A-Za-z0-9]{54}", "EZAK", "EZTK", prefix=4),
    # --- web tokens
    _r("jwt", "JWT", "JSON Web Token (header.payload[.signature])",
       r"\beyJ[A-Za-z0-9_-]{10,}={0,2}\.eyJ[A-Za-z0-9_/\\-]{10,}={0,2}(?:\.[A-Za-z0-9_/\\-]*={0,2})?", "eyJ"),
    # --- AI providers
    _r("anthropic-key", "ANTHROPIC_KEY", "Anthropic API key", r"\bsk-ant-(?:api03|admin01)-[\w-]{93}AA",
       "sk-ant-", prefix=14, checked=True),
    _r("openai-key", "OPENAI_KEY", "OpenAI API key (T3BlbkFJ marker)",
       r"\bsk-(?:(?:proj|svcacct|admin)-[\w-]{20,}T3BlbkFJ[\w-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})",
       "T3BlbkFJ", prefix=3, checked=True),
    _r("anthropic-style-key", "ANTHROPIC_KEY", "Anthropic-style sk-ant- key", r"\bsk-ant-[a-z]+\d*-[\w-]{32,}",
       "sk-ant-", prefix=8, loose=True, score=0.85),
    _r("sk-style-key", "OPENAI_KEY", "OpenAI-style sk- secret key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}",
       "sk-", prefix=3, loose=True, score=0.8),
    _r("perplexity-key", "SERVICE_TOKEN", "Perplexity API key", r"\bpplx-[A-Za-z0-9]{48}", "pplx-", prefix=5, min_entropy=4.0),
    _r("openshift-token", "SERVICE_TOKEN", "OpenShift user token", r"\bsha256~[\w-]{43}", "sha256~", prefix=7,
       min_entropy=3.5),
)

_COMPILED = tuple(re2.compile(rule.pattern) for rule in RULES)
# keys that vendors publish on purpose (Stripe's publishable keys): no family reports them.
PUBLIC_PREFIXES = ("pk_live_", "pk_test_")
# A string that opens with a vendor's prefix but fails that vendor's format is still
# judged by the generic families, by its name and its randomness; only one that also
# shows the marks of typing (`xoxp-1234567890`, `dapi1234…defg5`) is a test value.
VENDOR_PREFIXES = tuple(sorted({k for r in RULES if r.prefix for k in r.keywords if len(k) >= 3}, key=len, reverse=True))


def is_test_value(value: str) -> bool:
    """A vendor's prefix in front of a hand-typed body: a value from a test or an example."""
    return value.startswith(VENDOR_PREFIXES) and is_hand_typed(value)
_GROUPED = tuple(bool(regex.groups) for regex in _COMPILED)


def keyword_patterns() -> list[tuple[str, int]]:
    """(literal alternation, rule index) for the prefilter: a rule runs only where one
    of its keywords occurs."""
    return [("|".join(re2.escape(k) for k in rule.keywords), i) for i, rule in enumerate(RULES)]


def find(index: int, data: str) -> Iterator[Detection]:
    """Detections of rule `index` in the ASCII projection `data` (offsets are offsets
    of the original text)."""
    rule = RULES[index]
    for match in _COMPILED[index].finditer(data):
        start, end = match.span(1) if _GROUPED[index] else match.span()
        if rule.tail and end < len(data) and data[end] in rule.tail:
            continue  # the alphabet runs on: a longer string that merely contains the shape
        if trailing_mask(data, end):
            continue
        if start > 1 and data[start - 1] in "./" and data[start - 2].isalnum():
            continue  # part of a file or host name: `video_box.ico-7a38…png`
        token = data[start:end]
        why = _rejected(rule, token)
        if why is None:
            yield Detection(start, end, rule.entity, f"{rule.what} ({rule.rule} format)", rule.score)


def _rejected(rule: VendorRule, token: str) -> str | None:
    body = token[rule.prefix :] if len(token) > rule.prefix + 4 else token
    if is_filler(body):
        return "filler"
    if rule.min_entropy and entropy(body) < rule.min_entropy:
        return "low entropy"
    if rule.loose:
        ok, _ = looks_random(body, min_length=16)
        return None if ok else "not random"
    if not rule.checked and has_letter_run(body, 10):
        return "example key"
    return None
