"""The context layer's finer linguistics: form answers, reasons, pro-verbs of the past,
a change of subject or time, and the `uncertain` status (docs/context.md).
Every sentence here is written for these tests."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from redline import Gate, Outcome, parse_policy
from redline.cli import app
from redline.eval.context_cmd import context_rows
from redline.screen.context import assess
from redline.types import Status

NEGATED, HISTORICAL, UNCERTAIN, ATTRIBUTED = Status.NEGATED, Status.HISTORICAL, Status.UNCERTAIN, Status.ATTRIBUTED


def statuses(sentence: str, term: str) -> set[Status]:
    text = sentence.lower()
    start = text.index(term)
    return {cue.status for cue in assess(text, start, start + len(term)).cues}


@pytest.mark.parametrize(
    ("sentence", "term", "expected"),
    [
        ("Chest pain: none.", "chest pain", {NEGATED}),
        ("Short of breath: no.", "short of breath", {NEGATED}),
        ("history of smoking : no", "smoking", {NEGATED, HISTORICAL}),
        ("Nausea - denies. Headache: yes.", "nausea", {NEGATED}),
        ("Nausea - denies. Headache: yes.", "headache", set()),
        ("Fever: yes, chills: none", "fever", set()),
        ("Fever: yes, chills: none", "chills", {NEGATED}),
        ("Constitutional - No fevers, chills, or sweats.", "chills", {NEGATED}),
        ("ROS: denies any palpitations or dizziness.", "dizziness", {NEGATED}),
    ],
)
def test_a_form_answer_after_a_colon_negates_the_item_before_it(sentence: str, term: str, expected: set[Status]) -> None:
    assert statuses(sentence, term) == expected


@pytest.mark.parametrize(
    ("sentence", "term", "negated"),
    [
        ("She is not prescribed any beta blockers for her hypertension.", "beta blockers", True),
        ("She is not prescribed any beta blockers for her hypertension.", "hypertension", False),
        ("He has no specific diagnosis for his abdominal pain.", "abdominal pain", False),
        ("We did not change the plan for your refund.", "refund", False),
        ("I won't ask for a refund.", "refund", True),
        ("You are not eligible for a refund this month.", "refund", True),
        ("The findings are not typical for a lymphoma.", "lymphoma", True),
        ("No evidence for pneumonia.", "pneumonia", True),
    ],
)
def test_negation_does_not_leak_into_a_for_reason_phrase(sentence: str, term: str, negated: bool) -> None:
    assert (NEGATED in statuses(sentence, term)) is negated


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("She denies smoking, although she did in the past.", "smoking"),
        ("He doesn't drink now, but he used to.", "drink"),
        ("No chest pain today, though she had it years ago.", "chest pain"),
    ],
)
def test_a_pro_verb_of_the_past_after_a_denial_marks_the_item_historical(sentence: str, term: str) -> None:
    assert {NEGATED, HISTORICAL} <= statuses(sentence, term)


@pytest.mark.parametrize(
    ("sentence", "term", "historical"),
    [
        ("History of asthma and I have been short of breath since this morning.", "asthma", True),
        ("History of asthma and I have been short of breath since this morning.", "short of breath", False),
        ("History of asthma, short of breath since this morning.", "short of breath", False),
        ("History of migraines, currently a severe headache.", "severe headache", False),
        ("History of migraines and she is vomiting now.", "vomiting", False),
        ("History of migraines and seizures.", "seizures", True),
        ("History of asthma who was brought in today by her daughter.", "asthma", True),
    ],
)
def test_a_change_of_subject_or_time_ends_a_history(sentence: str, term: str, historical: bool) -> None:
    assert (HISTORICAL in statuses(sentence, term)) is historical


def last_statuses(sentence: str, term: str) -> set[Status]:
    """The statuses of the LAST occurrence of `term` (a term named twice in a sentence)."""
    text = sentence.lower()
    start = text.rindex(term)
    return {cue.status for cue in assess(text, start, start + len(term)).cues}


@pytest.mark.parametrize(
    ("sentence", "term", "historical"),
    [
        # the admission that brought the patient in is this encounter
        ("Known history of lupus who was admitted to the ward with fever and confusion.", "confusion", False),
        ("Known history of lupus who was admitted to the ward with fever and confusion.", "lupus", True),
        ("History of gout, then readmitted overnight for a swollen knee.", "swollen knee", True),
        ("History of gout and she was then readmitted overnight for a swollen knee.", "swollen knee", False),
        # a habitual admission stays in the past
        ("History of colitis who is admitted every spring for flares.", "flares", True),
    ],
)
def test_the_current_admission_ends_a_history(sentence: str, term: str, historical: bool) -> None:
    assert (HISTORICAL in statuses(sentence, term)) is historical


@pytest.mark.parametrize(
    ("sentence", "term", "expected"),
    [
        # a relative clause keeps the time of what it refers to
        ("He had a colonoscopy years ago, which found two polyps.", "polyps", {HISTORICAL}),
        ("She had an MRI in the past which showed a small meningioma.", "meningioma", {HISTORICAL}),
        # it still ends a denial
        ("There was no swelling, which the team expected after the sprain.", "sprain", set()),
        ("There was no swelling, which the team expected after the sprain.", "swelling", {NEGATED}),
    ],
)
def test_a_relative_clause_keeps_the_history_but_ends_a_denial(sentence: str, term: str, expected: set[Status]) -> None:
    assert statuses(sentence, term) == expected


@pytest.mark.parametrize(
    ("sentence", "term", "historical"),
    [
        ("A 52-year-old diabetic man with chest pain.", "diabetic", False),
        ("The 3-week-old infant feeds poorly.", "infant", False),
        ("An old fracture of the left wrist.", "fracture", True),
    ],
)
def test_an_age_is_not_a_past(sentence: str, term: str, historical: bool) -> None:
    assert (HISTORICAL in statuses(sentence, term)) is historical


@pytest.mark.parametrize(
    ("sentence", "term", "historical"),
    [
        # headings that name a past section set it for what follows in the sentence
        ("PAST MEDICAL HISTORY: hypertension, gout and a hernia repair.", "gout", True),
        ("PAST SURGICAL HISTORY: appendectomy as a teenager.", "appendectomy", True),
        ("SOCIAL HISTORY: smokes half a pack a day.", "smokes", True),
        ("PSYCHIATRIC HISTORY: depression, treated with sertraline.", "depression", True),
        ("Menstrual history: post-menopausal for ten years.", "post-menopausal", True),
        # the present illness and the reason for a study are current (ConText's pseudo-triggers)
        ("HISTORY OF PRESENT ILLNESS: two days of cough and fever.", "fever", False),
        ("CLINICAL HISTORY: cough and fever for a week.", "fever", False),
        ("PATIENT HISTORY: right knee pain.", "knee pain", False),
    ],
)
def test_a_section_heading_inside_the_sentence_sets_its_own_time(sentence: str, term: str, historical: bool) -> None:
    assert (HISTORICAL in statuses(sentence, term)) is historical


def test_but_ends_a_history_named_earlier_in_the_sentence() -> None:
    sentence = "She had a history of gout in the past, but the swelling now is not consistent with gout."
    assert HISTORICAL in statuses(sentence, "gout")
    assert last_statuses(sentence, "gout") == {NEGATED}


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Possible pneumonia in the right lower lobe.", "pneumonia"),
        ("This may be a billing error on the refund.", "billing error"),
        ("Concern for sepsis; blood cultures drawn.", "sepsis"),
        ("CT to rule out pulmonary embolism.", "pulmonary embolism"),
        ("Suspected fracture of the left wrist.", "fracture"),
        ("Infection cannot be excluded.", "infection"),
        ("We cannot exclude a stroke.", "stroke"),
        ("Pneumonia vs bronchitis.", "bronchitis"),
    ],
)
def test_hedged_findings_are_uncertain(sentence: str, term: str) -> None:
    assert UNCERTAIN in statuses(sentence, term)
    assert NEGATED not in statuses(sentence, term)


POLICY = """
version: 1
name: uncertain-test
auto_send: {min_confidence: 0}
skills:
  - slug: triage
    red_lines:
      - id: stroke-signs
        rule: Escalate possible stroke symptoms.
        severity: flag
        terms: [stroke]
detectors: {credentials: off, pii: off}
"""


def test_an_uncertain_red_flag_is_still_held_and_the_decision_says_uncertain() -> None:
    decision = Gate(parse_policy(POLICY)).check("It might be a stroke, I'm not sure.")
    assert decision.outcome is Outcome.ESCALATE
    [finding] = decision.findings
    assert finding.status is UNCERTAIN and finding.cue == "might be"
    assert decision.to_dict()["findings"][0]["status"] == "uncertain"


def test_a_policy_may_suppress_uncertain_hits_and_keeps_them_as_suppressed() -> None:
    policy = POLICY.replace("detectors:", "screen: {suppress: [negated, uncertain]}\ndetectors:")
    decision = Gate(parse_policy(policy)).check("It might be a stroke, I'm not sure.")
    assert decision.outcome is Outcome.EXECUTE
    assert [f.status for f in decision.suppressed] == [UNCERTAIN]


def test_uncertain_is_not_in_the_default_suppress_set() -> None:
    from redline.policy.schema import DEFAULT_SUPPRESS

    assert UNCERTAIN not in DEFAULT_SUPPRESS


def test_the_context_command_reports_uncertain(tmp_path) -> None:
    rows = [{"id": "u", "text": "Possible stroke on the scan.", "term": "stroke"},
            {"id": "n", "text": "No stroke on the scan.", "term": "stroke"}]
    out = {r["id"]: r for r in context_rows(rows)}
    assert out["u"]["uncertain"] and not out["u"]["negated"]
    assert out["n"]["negated"] and not out["n"]["uncertain"]
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    result = CliRunner().invoke(app, ["context", "--input", str(path), "--json"])
    assert result.exit_code == 0, result.output
    printed = [json.loads(line) for line in result.output.splitlines() if line.strip()]
    assert printed[0]["uncertain"] is True and printed[1]["uncertain"] is False


def test_redline_check_shows_the_uncertain_status(tmp_path) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "It might be a stroke."])
    assert "uncertain" in result.output


def test_what_the_person_told_the_agent_is_not_an_attribution() -> None:
    from redline.screen.context import assess

    for text in ("based on what you've told me, you are eligible.", "you have told us your card was stolen."):
        hit = "eligible" if "eligible" in text else "stolen"
        start = text.index(hit)
        assert assess(text, start, start + len(hit)).cues == ()
    text = "the doctor told me your card was stolen."
    start = text.index("stolen")
    assert [c.status.value for c in assess(text, start, start + 6).cues] == ["attributed"]


def test_which_after_a_verb_of_telling_opens_a_question_inside_the_negation() -> None:
    from redline.screen.context import assess

    text = "we can't tell you which arm you've been assigned to."
    start = text.index("arm")
    assert [c.status.value for c in assess(text, start, start + 3).cues] == ["negated"]
    text = "there is no refund, which we know is frustrating, but your fee is waived."
    start = text.index("fee")
    assert assess(text, start, start + 3).cues == ()


def test_past_after_a_verb_of_motion_and_gone_missing_are_no_cues() -> None:
    from redline.screen.context import assess

    for text, hit in (("a vpn will get you past the geolocation check.", "geolocation"),
                      ("her hearing aids have gone missing.", "hearing aids")):
        start = text.index(hit)
        assert assess(text, start, start + len(hit)).cues == ()
    text = "the pain has gone."
    assert [c.status.value for c in assess(text, 4, 8).cues] == ["negated"]


@pytest.mark.parametrize(
    ("sentence", "term", "negated"),
    [
        ("We dont offer a refund for a cancelled tour.", "refund", True),
        ("I cant promise a refund before the review.", "refund", True),
        ("There isnt a refund on this fare.", "refund", True),
        ("We don't offer a refund for a cancelled tour.", "refund", True),
        ("Your refund is on its way, dont worry.", "refund", False),  # the negation's own clause
    ],
)
def test_a_negative_contraction_typed_without_its_apostrophe_negates(sentence: str, term: str, negated: bool) -> None:
    assert (NEGATED in statuses(sentence, term)) is negated


@pytest.mark.parametrize(
    ("sentence", "term", "negated"),
    [
        ("Weekend delivery slots aren't available for this postcode.", "weekend delivery", True),
        ("Same-day repairs are not offered at this branch.", "same-day repairs", True),
        ("Express shipping is unavailable for oversized items.", "express shipping", True),
        # before the hit it negates forward, as "aren't" alone does
        ("Member rates aren't available to walk-in visitors.", "walk-in visitors", True),
        ("Weekend delivery slots are available for this postcode.", "weekend delivery", False),
    ],
)
def test_not_available_or_not_offered_negates_what_it_is_said_of(sentence: str, term: str, negated: bool) -> None:
    assert (NEGATED in statuses(sentence, term)) is negated


def test_old_is_a_history_only_of_the_word_it_stands_before() -> None:
    assert HISTORICAL in statuses("An old infarct was seen on the scan.", "infarct")
    assert HISTORICAL not in statuses("Your old violin's trade-in value is $800.", "trade-in value")
    # what someone owns now, called old, is no past finding
    assert HISTORICAL not in statuses("You can remove the old window yourself before installation.", "window")
    assert HISTORICAL not in statuses("Your old backups are kept for a year.", "backups")


@pytest.mark.parametrize(
    ("sentence", "term", "negated"),
    [
        ("The late board payment fee can't be waived once the grace period has passed.", "late board", True),
        ("Chlorine should not be stored next to gasoline in your shed.", "chlorine", True),
        ("Chlorine and acid must never be mixed in the same bucket.", "chlorine", True),
        ("The late board payment fee has been waived for you.", "late board", False),
        # a negated modal or copula with any verb: its subject's noun phrase, four words back
        ("Kids under 14 can't join reformer classes.", "kids", True),
        ("Street placement of your dumpster isn't approved.", "street placement", True),
        ("Open fires and propane grills aren't allowed in the campgrounds.", "open fires", True),
        ("Drug test results are never released before review.", "drug test results", True),
        # written out, as the contraction reaches: "are not" as far as "aren't"
        ("Your weight and BMI are not shared with your employer.", "weight", True),
        ("Your weight and BMI aren't shared with your employer.", "weight", True),
        ("Kids under 14 can join reformer classes.", "kids", False),
        # do-support is how a lexical verb is negated: the same reach back to its subject
        ("The extended warranty doesn't cover wheel damage.", "extended warranty", True),
        ("Gift card balances do not expire after a year.", "gift card balances", True),
        ("Our night porters didn't keep the spare keys.", "night porters", True),
        ("The extended warranty covers wheel damage.", "extended warranty", False),
        # a negated perfect passive reaches back to its subject as the modals' passives do
        ("The late fees on your lease have not been waived.", "late fees", True),
        ("Your court filing hasn't been stamped yet.", "court filing", True),
        ("The late fees on your lease have been waived.", "late fees", False),
        # a "for your" phrase inside the subject ends no reach back to it
        ("The deposit for your VIP table isn't refundable.", "deposit", True),
        ("The witness rule for your will can't be waived.", "witness rule", True),
        # a symptom that does not go away is there (a pseudo-trigger hides the negation)
        ("The chest pain doesn't go away at night.", "chest pain", False),
    ],
)
def test_a_negated_passive_modal_negates_its_whole_subject(sentence: str, term: str, negated: bool) -> None:
    assert (NEGATED in statuses(sentence, term)) is negated


@pytest.mark.parametrize(
    ("sentence", "term", "negated"),
    [
        ("This fare is non-refundable, but the date can move.", "refundable", True),
        ("A non-emergency call is answered within the hour.", "emergency", True),
        # the prefix negates the word it is joined to, nothing after it
        ("The non-refundable fare still earns a refund credit.", "refund credit", False),
        # a term that holds the prefix is not negated by it
        ("Your non-compete lasts two years.", "non-compete", False),
    ],
)
def test_non_negates_the_word_it_is_joined_to(sentence: str, term: str, negated: bool) -> None:
    assert (NEGATED in statuses(sentence, term)) is negated


@pytest.mark.parametrize(
    ("sentence", "term", "status", "expected"),
    [
        ("Your dress will be stored for free until June.", "stored", NEGATED, False),
        ("I'll clear the cache to free up space.", "cache", NEGATED, False),
        ("It ships free of charge to your door.", "door", NEGATED, False),
        ("The patient is pain free today.", "pain", NEGATED, True),
        ("We extend updates past its end of life.", "end of life", HISTORICAL, False),
        ("Support was extended past the deadline.", "deadline", HISTORICAL, False),
        ("A well-known actor is a member here.", "actor", HISTORICAL, False),
        ("Put the savings in an S&P 500 fund.", "fund", HISTORICAL, False),
        ("Patient is s/p appendectomy.", "appendectomy", HISTORICAL, True),
        ("I'll do a remote unlock of the front door now.", "unlock", HISTORICAL, False),
        ("Remote access to your camera is on.", "access", HISTORICAL, False),
        ("I've listed your seats for resale at face value.", "resale", ATTRIBUTED, False),
        ("Your spare chairs get listed and sold online.", "sold", ATTRIBUTED, False),
        ("The chart lists a penicillin allergy.", "penicillin allergy", ATTRIBUTED, True),
        # a participle that describes the noun after it reports nothing
        ("The listed building consent has come through.", "building consent", ATTRIBUTED, False),
        ("Consents for listed buildings take eight weeks.", "buildings", ATTRIBUTED, False),
        ("The repair is exempted from listed building consent.", "building consent", ATTRIBUTED, False),
        ("The leaflet listed nausea as a side effect.", "nausea", ATTRIBUTED, True),
    ],
)
def test_free_past_known_listed_and_s_and_p_in_their_other_senses_set_nothing(
    sentence: str, term: str, status: Status, expected: bool
) -> None:
    assert (status in statuses(sentence, term)) is expected


def test_all_or_nothing_names_a_kind_of_campaign_and_negates_nothing() -> None:
    assert NEGATED not in statuses("Your all-or-nothing campaign receives partial funds.", "partial funds")
