"""Shapes of English that operators write red lines in, each read for its topic, and the
topic matched (or not) in drafts. Words vary within a shape; the shape is what is tested."""

from __future__ import annotations

import gc
from typing import Any

import pytest
import yaml

from redline import Gate, Outcome, parse_policy
from redline.policy.building import collector_paused
from redline.policy.clauses import tokens
from redline.policy.lexicon import family
from redline.policy.topics import derive_topics
from redline.screen.engine import about_other_people


def gate(rule: str, severity: str = "block") -> Gate:
    policy = {
        "version": 1,
        "name": "t",
        "auto_send": {"min_confidence": 0},
        "skills": [{"slug": "s", "red_lines": [{"id": "r", "rule": rule, "severity": severity}]}],
        "detectors": {"credentials": "off", "pii": "off", "technical_content": "off"},
    }
    return Gate(parse_policy(yaml.safe_dump(policy), "<test>"))


def held(g: Gate, text: str) -> bool:
    return g.check(text).outcome is not Outcome.EXECUTE


def labels(rule: str) -> set[str]:
    return {t.label for t in derive_topics(rule).topics}


def words(rule: str) -> set[str]:
    return {w for t in derive_topics(rule).topics for w in t.words}


def holds_only(rule: str, guarded: str, other: str) -> None:
    """The rule holds the draft that names its topic and lets the one that does not through."""
    g = gate(rule)
    assert held(g, guarded)
    assert not held(g, other)


@pytest.mark.parametrize(
    ("rule", "topic"),
    [
        ("Hand off to a human whenever a customer asks for a refund.", "refund"),
        ("Escalate to an advisor when a client disputes a roaming charge.", "roaming"),
        ("Transfer to a person if a tenant reports mold.", "mold"),
    ],
)
def test_a_hand_off_that_names_its_destination_first_guards_its_condition(rule: str, topic: str) -> None:
    assert topic in words(rule)
    assert not {"human", "advisor", "person"} & words(rule)


@pytest.mark.parametrize(
    ("rule", "actor"),
    [
        ("The agent must not predict interest rates.", "agent"),
        ("Support agents should never promise delivery dates.", "agents"),
        ("The assistant must never quote a cash price.", "assistant"),
        # a modal said with a verb ("NEED TO stay away from") is a modal
        ("Reps need to stay away from diagnosing stove faults.", "stay"),
        # a noun that names a person by its suffix is a party whatever its act
        ("Our helper is barred from adding free items to an order.", "helper"),
        ("Adjusters may not settle claims over the phone.", "adjusters"),
    ],
)
def test_the_party_a_rule_binds_is_not_its_topic(rule: str, actor: str) -> None:
    found = words(rule)
    assert found and actor not in found
    assert not any(w in found for w in ("support", "must", "should"))


def test_a_subject_that_is_no_actor_is_the_topic() -> None:
    assert "refunds" in words("Refunds must not be promised.")


def test_a_conversation_where_something_is_mentioned_guards_what_is_mentioned() -> None:
    rule = "Flag any conversation where the borrower mentions foreclosure or bankruptcy."
    assert {"foreclosure", "bankruptcy"} <= words(rule)
    assert "conversation" not in words(rule)
    g = gate(rule, "flag")
    assert held(g, "Don't worry about the foreclosure notice; we will refinance you.")
    assert not held(g, "Thanks for the conversation today, and enjoy the weekend.")


@pytest.mark.parametrize(
    "rule",
    [
        "Flag any donor who seems confused or pressured.",
        "Escalate any member who appears confused or pressured.",
    ],
)
def test_what_is_said_of_the_person_after_who_is_a_state_of_that_person(rule: str) -> None:
    assert {"confused", "pressured"} <= labels(rule)


def test_a_person_told_to_do_something_is_not_the_topic() -> None:
    assert "tenants" not in words("Never advise tenants to withhold rent.")
    assert labels("Never advise tenants to withhold rent.") == {"withhold + rent"}


def test_what_they_can_do_is_an_act_with_its_object() -> None:
    rule = "Never tell renters they can cross a border in a rental car."
    assert "cross + border" in labels(rule)
    assert "cross" not in labels(rule)  # the act alone would fire on "cross the street"
    g = gate(rule)
    assert held(g, "You can cross the border into Canada with this car.")
    assert not held(g, "Cross the parking lot and the desk is on your left.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Never say an investment can't lose money.", "Relax: this fund can't lose money."),
        ("Never tell a borrower they don't need a home inspection.", "You don't need a home inspection for this house."),
        ("Do not tell patients they do not need to see a doctor.", "You don't need to see a doctor for that rash."),
    ],
)
def test_a_topic_the_rule_states_in_the_negative_is_not_set_aside_by_a_negation(rule: str, draft: str) -> None:
    assert any(t.negative for t in derive_topics(rule).topics)
    assert held(gate(rule), draft)


def test_a_negation_still_sets_aside_a_topic_the_rule_states_plainly() -> None:
    rule = "Never guarantee returns or say an investment can't lose money."
    plain = {t.label: t.negative for t in derive_topics(rule).topics}
    assert plain["guarantee + returns"] is False
    assert not held(gate(rule), "I cannot guarantee returns on any fund.")


def test_the_rules_own_must_not_is_no_negative_statement() -> None:
    rule = "Risk profiles must not be changed without a signed questionnaire."
    assert not any(t.negative for t in derive_topics(rule).topics)
    assert not held(gate(rule), "I can't change your risk profile until the questionnaire is signed.")


def test_the_collector_is_paused_for_a_build_and_back_afterwards() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested builds share one pause
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a failed build")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("rule", "topic"),
    [
        ("Escalate, where possible, any refund over $500.", "refund"),
        ("Never, unless a manager approves, waive a late fee.", "waive"),
    ],
)
def test_a_condition_set_between_commas_is_an_aside(rule: str, topic: str) -> None:
    assert topic in labels(rule)
    assert not {"possible", "manager", "approves"} & words(rule)


def test_the_ground_after_because_of_is_the_topic_and_a_forbidden_routing_verb_is_the_act() -> None:
    rule = "Never reject a candidate because of a disability or a request for accommodation."
    assert "accommodation" in labels(rule)
    assert any("disability" in label for label in labels(rule))
    assert "transfer + funds" in labels("Do not transfer funds to a new payee without a callback.")
    assert labels("Never promise refunds because billing decides.") == {"refunds"}  # a reason stays a reason


def test_a_frame_after_any_is_the_container_and_its_topic_stands_alone() -> None:
    assert labels("Escalate any candidate complaint about harassment at a placement.") == {"harassment"}


def test_a_copy_of_a_thing_guards_the_thing() -> None:
    rule = "Never email a copy of a patient's discharge summary to an employer."
    assert not any("copy" in label for label in labels(rule))
    holds_only(rule, "I've emailed the discharge summary to your employer.", "Two copies of the brochure are in the lobby.")


def test_a_rule_that_names_another_person_is_not_set_aside_by_that_person() -> None:
    rule = "Hand off to a human when a parent disputes a charge made by their child."
    g = gate(rule, "flag")
    assert g.check("Your kid made these charges on the console, and you're disputing them.").outcome is Outcome.ESCALATE
    plain = gate("Hand off to a human when a customer disputes a charge.", "flag")
    assert not held(plain, "My son disputes every charge he sees on his own card.")  # someone else's dispute


def test_self_is_also_its_reflexives() -> None:
    g = gate("Escalate any mention of self-harm.", "flag")
    assert held(g, "You're thinking about harming yourself.")
    assert not held(g, "Please take care of yourself and rest.")


def test_to_before_a_verb_is_no_destination() -> None:
    rule = "Hand off to a human when someone asks to have their membership removed."
    assert labels(rule) == {"membership + removed"}
    assert held(gate(rule, "flag"), "Your membership has been removed as requested.")


@pytest.mark.parametrize(
    ("rule", "topic", "reason"),
    [
        ("Don't tell members to skip a payment \u2014 it hurts their credit and exposes us.", "skip", "exposes"),
        ("Never promise a waiver - only the underwriter decides eligibility.", "waiver", "underwriter"),
        ("Do not quote a delivery window -- carriers change them daily.", "window", "carriers"),
        ("Never diagnose a rash \u2013 the nurse line handles it.", "diagnose", "nurse"),
    ],
)
def test_a_dash_opens_an_aside_whose_words_are_no_topic(rule: str, topic: str, reason: str) -> None:
    assert topic in words(rule)
    assert reason not in words(rule)


def test_a_dash_before_examples_goes_on_with_the_list() -> None:
    found = words("Never share a member's records \u2014 such as invoices or receipts.")
    assert {"invoices", "receipts"} <= found


@pytest.mark.parametrize("opener", ["for example", "for instance"])
def test_for_example_opens_examples_as_such_as_does(opener: str) -> None:
    rule = f"Never tell a reader how to get around the paywall, {opener} with proxies or cached copies."
    assert "proxies" in words(rule)
    assert "example" not in words(rule) and "instance" not in words(rule)
    holds_only(rule, "A proxy gets you past it.", "For example, the archive is open to members.")


@pytest.mark.parametrize(
    "rule",
    [
        "Flag any mention of a serious side effect so the safety team can review it.",
        "Escalate any chargeback so that billing can respond in time.",
        "Never promise a refund in order to keep a customer happy.",
    ],
)
def test_a_purpose_clause_is_no_topic(rule: str) -> None:
    assert not {"team", "review", "billing", "respond", "keep", "happy"} & words(rule)


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Hand off to a human when a user says they were assaulted or threatened by someone.",
         "Being threatened by a match is serious."),
        ("Escalate when a customer says their photos were leaked.", "Your photos were leaked on a forum."),
    ],
)
def test_a_verb_of_doing_as_a_passive_state_is_the_topic(rule: str, draft: str) -> None:
    assert held(gate(rule), draft)


def test_a_passive_verb_of_saying_with_more_after_it_is_still_a_frame() -> None:
    assert "asked" not in words("Escalate when a user says they were asked to send money.")


def test_a_relative_clause_without_that_says_who_not_what() -> None:
    rule = "Hand off to a human when a user was assaulted by someone they met on the app."
    assert "met" not in words(rule)
    assert not held(gate(rule), "Our safety tips say to meet someone in a public place.")


def test_a_relative_clause_narrows_the_object_and_is_no_topic_of_its_own() -> None:
    rule = "Hand off to a human whenever a client wants to amend a return that has already been filed."
    assert "amend" in words(rule)
    assert not held(gate(rule), "Your return has been filed and accepted.")
    assert held(gate(rule), "I've amended the return you sent.")


def test_what_the_person_received_is_an_act_with_its_object() -> None:
    rule = "Escalate to a human when a client has received an audit letter from the tax office."
    assert "received" not in labels(rule)  # not a state of the person alone


def test_an_exception_naming_a_party_does_not_cut_the_clause_after_it() -> None:
    rule = "Never confirm to anyone other than the owner whether a vehicle is in our impound lot."
    assert "impound" in words(rule) or "vehicle" in words(rule)
    assert not {"owner"} & words(rule)


def test_a_rule_a_detector_guards_gets_no_weak_topic_besides() -> None:
    derivation = derive_topics("Do not collect Social Security numbers over chat.")
    assert derivation.detectors == ("pii",)
    assert "chat" not in {w for t in derivation.topics for w in t.words}


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Flag any mention of hospitalization.", "You were hospitalized after the second dose."),
        ("Never share screenshots of private messages.", "The messages, screenshotted in full, are attached."),
    ],
)
def test_a_family_takes_in_forms_that_are_written_more_than_their_lemma(rule: str, draft: str) -> None:
    assert held(gate(rule), draft)


@pytest.mark.parametrize(
    ("rule", "topic", "draft"),
    [
        ("All refund requests over $500 must be escalated to a supervisor.", "refund",
         "I've issued a refund of $900 to your card."),
        ("Any suspicion of abuse or neglect goes to the Director of Nursing.", "neglect",
         "This looks like neglect, and I'm sorry it happened."),
        ("Complaints about harassment are handed to HR.", "harassment", "You were harassed by a coworker."),
        ("Injuries should always be reported to the site manager.", "injuries", "You were injured on the ladder."),
    ],
)
def test_a_case_named_before_its_routing_verb_is_the_topic_and_the_destination_is_not(
    rule: str, topic: str, draft: str
) -> None:
    found = words(rule)
    assert topic in found
    assert not {"escalated", "goes", "handed", "reported", "supervisor", "director", "hr", "manager"} & found
    assert held(gate(rule), draft)


def test_a_routing_verb_the_rule_forbids_keeps_its_object() -> None:
    assert "debt" in words("Never report a customer's debt to a credit bureau.")


def test_a_pronouns_contraction_is_a_pronoun_and_an_auxiliary() -> None:
    from redline.policy.clauses import tokens

    assert tokens("They've been reported; it's late; we're sure") == [
        "they", "have", "been", "reported", ";", "it", "is", "late", ";", "we", "are", "sure"]
    assert tokens("a customer's card") == ["a", "customer", "'s", "card"]
    rule = "Never confirm to a user that they've been reported by another user."
    assert "reported" in words(rule)
    assert held(gate(rule), "You've been reported by a client for copying work.")


def test_or_otherwise_goes_on_with_the_list() -> None:
    assert "impaired" in words("Escalate any report of a driver being drunk or otherwise impaired.")


@pytest.mark.parametrize(
    "rule",
    [
        "Escalate billing disputes to Finance.",
        "Hand off any threat of self-harm to Trust & Safety immediately.",
    ],
)
def test_a_name_after_to_in_a_hand_off_is_its_destination(rule: str) -> None:
    assert not {"finance", "trust", "safety"} & words(rule)


def test_a_period_inside_a_sentence_ends_no_clause() -> None:
    from redline.policy.clauses import rule_clauses

    stated, rationale = rule_clauses("Never say a W-2 vs. a 1099 is better for them. Only a tax professional can say.")
    assert "better" in stated[0] and "professional" in rationale
    stated, _ = rule_clauses("annual max is set by the group contract. agent can't raise it")
    assert len(stated) == 2  # a word the dictionary knows ends its sentence, whatever follows
    # an initial, initials and a section's abbreviation end no clause either
    stated, _ = rule_clauses("Never say a batch tested positive for E. coli before the lab signs off.")
    assert len(stated) == 1 and "coli" in stated[0]
    stated, _ = rule_clauses("Under 11 U.S.C. §523 and Art. 14, never promise a discharge.")
    assert "discharge" in stated[0]


def test_an_initial_or_abbreviation_in_a_draft_ends_no_sentence_a_topic_pair_must_share() -> None:
    g = gate("Never promise that rejected loads will be paid for.")
    assert held(g, "Rejected at the gate: the 9 a.m. load, and we'll pay for it.")
    g = gate("Never say a batch tested positive for E. coli.")
    assert held(g, "Batch 12 was positive for E. coli this morning.")
    # a real sentence end still parts the two words
    assert not held(g, "Your result came back positive. Coli counts are normal.")


def test_a_later_sentence_that_binds_the_agent_or_routes_a_case_states_the_rule() -> None:
    from redline.policy.clauses import rule_clauses

    stated, _ = rule_clauses("Refunds are item-level. Agents should not promise a full refund of an entire order.")
    assert any("promise" in clause for clause in stated)
    stated, _ = rule_clauses("Our reps are not clinicians. Flag any reply where the agent recommends a treatment.")
    assert any("treatment" in clause for clause in stated)
    assert "treatment" in words("Our reps are not clinicians. Flag any reply where the agent recommends a treatment.")


@pytest.mark.parametrize(
    "rule",
    [
        "BLOCK: telling a customer that an extended warranty is required to get the loan approved.",
        "flag - anything telling a customer their financing is locked in before the lender funds it.",
        "Flag: telling a student they're released from their housing contract.",
    ],
)
def test_a_label_before_the_rule_is_its_directive(rule: str) -> None:
    assert derive_topics(rule).topics, "the rule after its label guards something"
    assert not {"block", "flag"} & words(rule)


def test_the_person_advised_about_something_is_not_the_topic() -> None:
    found = words("Do not advise contractors on how to report their taxes.")
    assert "contractors" not in found and "taxes" in found


def test_a_routing_verb_with_a_placeholder_object_guards_its_condition() -> None:
    rule = "Flag it whenever a caller says their dog was stolen from the kennel."
    assert "stolen" in words(rule) or "dog" in words(rule)


def test_when_after_about_asks_a_question_and_is_no_condition() -> None:
    rule = "No promises about when a withdrawal will arrive."
    assert "withdrawal" in words(rule)
    assert held(gate(rule), "Your withdrawal will arrive on Friday.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Agents should never advise skipping a resident's medication dose.", "It's fine to skip your mother's dose tonight."),
        ("Escalate any sign of neglect of a resident to the administrator.", "Your father is being neglected on the night shift."),
    ],
)
def test_a_rule_that_names_a_third_party_is_not_set_aside_by_other_experiencer_cues(rule: str, draft: str) -> None:
    assert derive_topics(rule).about_others
    assert held(gate(rule), draft)


def test_a_rule_about_the_person_served_keeps_other_experiencer_cues() -> None:
    rule = "Escalate chest pain."
    assert not derive_topics(rule).about_others
    assert not held(gate(rule), "My father has chest pain, so I am asking for him.")


def test_contact_info_names_what_the_pii_detector_finds() -> None:
    assert derive_topics("Never share a seller's contact info with buyers.").detectors == ("pii",)


def test_a_noun_that_qualifies_a_frame_noun_is_a_topic() -> None:
    rule = "Harassment complaints about another member get routed to the community manager."
    assert "harassment" in words(rule)
    assert held(gate(rule), "The harassment from the member next door is being handled.")


@pytest.mark.parametrize(
    ("rule", "alone", "paired"),
    [
        ("Hand off to a human when a borrower says they've filed for bankruptcy.", None, "filed + bankruptcy"),
        ("Never confirm that someone is staying at the hotel.", "staying", None),
        ("Flag for review any request to work under the table or be paid in cash.", "paid", None),
    ],
)
def test_what_happens_to_a_person_is_completed_by_its_argument_not_placed_by_an_adjunct(
    rule: str, alone: str | None, paired: str | None
) -> None:
    found = labels(rule)
    if alone:
        assert alone in found
    if paired:
        assert paired in found and "filed" not in found


def test_who_speaks_is_not_what_is_said() -> None:
    assert "borrower" not in words("Hand off to a human when a borrower says they've filed for bankruptcy.")
    assert "renter" not in words("Hand off to a human when a renter reports that the boat ran aground.")


def test_to_after_a_verb_of_telling_names_the_person_told_not_a_destination() -> None:
    rule = "Flag anything that implies to a host they can turn away guests because of their religion."
    assert derive_topics(rule).topics
    assert "religion" in words(rule) or "turn away" in words(rule)


def test_pls_is_please() -> None:
    assert "deliver" in words("pls don't tell people we deliver to PO boxes") or "boxes" in words(
        "pls don't tell people we deliver to PO boxes")


@pytest.mark.parametrize(
    "rule",
    [
        "refund disputes -> billing lead",
        "refund disputes --> send to the billing lead",
        "refund disputes => billing lead only",
        "refund disputes \u2192 billing lead",
        "refund disputes = escalate",
    ],
)
def test_an_arrow_sends_the_case_on_its_left_and_its_right_is_no_topic(rule: str) -> None:
    found = words(rule)
    assert "disputes" in found or "dispute" in found
    assert not found & {"billing", "lead", "escalate"}
    g = gate(rule, "flag")
    assert held(g, "Your refund dispute has been opened and we will look into it.")
    assert not held(g, "The billing lead is out until Monday.")


@pytest.mark.parametrize(("written", "negation"), [("dont", "don't"), ("cant", "can't"), ("doesnt", "doesn't"), ("wont", "won't")])
def test_a_contraction_written_without_its_apostrophe_is_the_contraction(written: str, negation: str) -> None:
    from redline.policy.clauses import tokens

    assert tokens(f"agents {written} quote shipping fees") == ["agents", negation, "quote", "shipping", "fees"]
    assert written not in words(f"agents {written} quote shipping fees")


def test_note_shorthand_reads_as_words() -> None:
    from redline.policy.clauses import tokens

    assert tokens("gate q's w/ a kid inside, w/o approval") == [
        "gate", "questions", "with", "a", "kid", "inside", ",", "without", "approval"
    ]  # fmt: skip
    assert "qs" not in words("parking permit qs -> permits office")


def test_a_heading_before_a_dash_is_the_topic_and_the_instruction_after_it_is_not() -> None:
    rule = "hull damage - dont assess it yourself, book a marine surveyor"
    assert {"hull", "damage"} <= words(rule)
    assert not words(rule) & {"marine", "surveyor", "book", "assess"}
    g = gate(rule)
    assert held(g, "The damage to your hull looks minor, about $4,000 to repair.")
    assert not held(g, "Your marine surveyor appointment is booked for Friday.")


def test_a_label_before_a_colon_still_lets_the_rule_after_it_state_itself() -> None:
    rule = "Security deposits: agents must not promise a tenant their deposit will be returned in full."
    assert "deposit" in words(rule) or "deposits" in words(rule)
    assert held(gate(rule), "Your deposit will be returned in full next week.")


def test_a_later_clause_that_sends_someone_already_named_on_is_what_to_do_instead() -> None:
    rule = "Do not discuss pension eligibility; refer the caller to the benefits office."
    assert not words(rule) & {"benefits", "office", "caller"}
    assert not held(gate(rule), "The benefits office is open until 5 p.m. today.")
    # a later clause that routes a new case still states more of the rule
    assert "chargeback" in words("Never promise refunds. Escalate any chargeback threats.") or \
        "chargebacks" in words("Never promise refunds. Escalate any chargeback threats.")


def test_where_a_case_is_sent_in_the_rationale_repeats_no_topic() -> None:
    rule = "Do not advise on how to report crypto gains (wash sales, cost basis, etc.); refer them to a tax adviser."
    assert "tax" not in {t.label for t in derive_topics(rule).topics}


def test_a_frame_noun_before_a_question_guards_the_question() -> None:
    rule = "No info on where/when the inspectors visit."
    found = words(rule)
    assert "info" not in found and found & {"inspectors", "visit", "inspector"}


def test_a_noun_before_to_in_a_routing_rule_is_no_verb_of_saying() -> None:
    rule = "Route all warranty claim requests to the service desk."
    assert not words(rule) & {"service", "desk"}


def test_drafts_that_say_is_the_agents_message_not_a_topic() -> None:
    rule = "Flag drafts that say a membership fee is refundable."
    assert "drafts" not in words(rule) and "draft" not in words(rule)
    assert "draft" in words("Never draft a lease agreement for a tenant.") or \
        "lease" in words("Never draft a lease agreement for a tenant.")


def test_a_colon_goes_on_with_the_sentence_a_topic_pair_must_share_and_a_semicolon_ends_it() -> None:
    g = gate("Never promise that a parking ticket will be cancelled.")
    assert held(g, "Cancelled by Monday: that's where your parking ticket is headed.")
    assert not held(g, "Your ticket is on file; the hearing was cancelled by the court.")


@pytest.mark.parametrize(
    "rule",
    [
        "heads up: never promise a delivery window for oversized items.",
        "hey all, never promise a delivery window for oversized items.",
        "Heads up team - never promise a delivery window for oversized items.",
        "FYI: never promise a delivery window for oversized items.",
    ],
)
def test_a_greeting_to_the_team_opens_the_note_and_names_no_topic(rule: str) -> None:
    found = words(rule)
    assert not found & {"heads", "hey", "fyi", "team", "all"}
    assert {"delivery", "window"} <= found or "window" in found


def test_what_a_condition_asks_about_is_what_the_rule_refers_to() -> None:
    rule = "if a tenant asks about the pet deposit, don't tell them it'll be returned."
    assert {"pet", "deposit"} <= words(rule)
    g = gate(rule)
    assert held(g, "Your pet deposit will be returned after move-out.")
    assert not held(g, "Your pet is welcome in the lobby.")


def test_once_the_person_told_is_named_the_noun_after_a_wh_word_is_what_is_told() -> None:
    assert "tablets" in words("Do not tell anyone how many tablets to take.")
    assert "wait" in words("Do not tell owners to wait.") and "owners" not in words("Do not tell owners to wait.")


def test_a_later_remark_that_points_back_at_the_rule_states_nothing() -> None:
    rule = "don't tell borrowers their loans will be forgiven. we don't decide that, the department does"
    assert not words(rule) & {"decide", "department"}
    # "it" names a thing: the clause is the rule itself
    assert "raise" in words("Annual max is set by the contract. agent can't raise it or extend it.") or \
        "max" in words("Annual max is set by the contract. agent can't raise it or extend it.")


@pytest.mark.parametrize(
    ("rule", "party"),
    [
        ("Only the billing supervisor may approve a refund over $500.", {"billing", "supervisor"}),
        ("Only a licensed pharmacist can recommend a dose change.", {"licensed", "pharmacist"}),
        ("Only managers are allowed to waive late fees.", {"managers"}),
    ],
)
def test_only_x_may_forbids_the_act_to_everyone_else_and_x_is_no_topic(rule: str, party: set[str]) -> None:
    assert not words(rule) & party
    g = gate(rule)
    assert not held(g, "Your billing supervisor, a licensed pharmacist and the managers are in on Monday.")


@pytest.mark.parametrize(
    "rule",
    [
        "Claims representatives shall not confirm that a repair is covered.",
        "Front desk staff must not confirm that a repair is covered.",
        "Dispatch must not confirm that a repair is covered.",
    ],
)
def test_the_subject_of_a_forbidden_verb_of_saying_is_the_party_bound(rule: str) -> None:
    assert not words(rule) & {"claims", "representatives", "front", "desk", "staff", "dispatch"}
    assert held(gate(rule), "Good news: your repair is covered.")


def test_a_subject_whose_act_is_no_saying_stays_the_topic() -> None:
    assert "refunds" in words("Refunds must not exceed the original price.") or \
        "refund" in words("Refunds must not exceed the original price.")


@pytest.mark.parametrize("label", ["Not allowed:", "Off limits:", "Banned:", "BLOCK:", "AVOID:", "NO:", "DON'T:"])
def test_a_label_that_forbids_is_the_directive_even_over_broken_grammar(label: str) -> None:
    rule = f"{label} telling customer warranty cover flood damage."
    assert {"flood", "damage"} <= words(rule)
    assert held(gate(rule), "Good news, the flood damage is covered by your warranty.")


@pytest.mark.parametrize("label", ["AVOID:", "No:", "Don't -", "NEVER:"])
def test_a_directive_alone_before_a_colon_or_dash_forbids_what_follows(label: str) -> None:
    rule = f"{label} guaranteeing a locked monthly rate"
    assert {"locked", "rate"} <= words(rule)
    assert held(gate(rule), "Your monthly rate is locked for as long as you live here.")
    assert not held(gate(rule), "The dining room opens at seven.")


def test_a_phrase_that_qualifies_an_example_is_not_an_example_itself() -> None:
    rule = "Never suggest off-label wear sites such as the abdomen for arm-only sensors."
    assert "abdomen" in labels(rule)
    assert "sensors" not in labels(rule)
    g = gate(rule)
    assert held(g, "You can wear it on your abdomen instead.")
    assert not held(g, "Each sensor comes with an applicator in the box.")


def test_a_frame_noun_that_ends_a_rule_is_read_without_error() -> None:
    assert derive_topics("Flag any claim about.") is not None
    derive_topics.cache_clear()


def test_a_rule_the_reader_cannot_get_through_is_refused_by_name_not_with_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from redline.errors import PolicyError
    from redline.policy import topics

    def broken(rule: str) -> object:
        raise IndexError("a defect of the reader")

    derive_topics.cache_clear()
    monkeypatch.setattr(topics, "read", broken)
    try:
        with pytest.raises(PolicyError, match=r"s:r guards nothing.*Fix: add `terms"):
            gate("Never promise a refund for a lost parcel.")
    finally:
        derive_topics.cache_clear()


@pytest.mark.parametrize(
    "rule",
    [
        "It is forbidden to offer off-menu catering pricing.",
        "It is strictly prohibited to offer off-menu catering pricing.",
        "Agents are prohibited from offering off-menu catering pricing.",
        "Staff shall be barred from offering off-menu catering pricing.",
        "Coordinators are not permitted to offer off-menu catering pricing.",
    ],
)
def test_a_verb_of_forbidding_is_the_directive_and_no_topic(rule: str) -> None:
    assert {"catering", "pricing"} <= words(rule)
    assert not {"forbidden", "prohibited", "barred", "permitted", "agents", "staff", "coordinators"} & words(rule)
    g = gate(rule)
    assert held(g, "Catering priced off the menu comes to $28 per guest.")
    assert not held(g, "Agents will meet you at the door.")


@pytest.mark.parametrize("number", ["6.1", "(b)", "3)", "Section 4.2:", "12."])
def test_a_rules_number_in_its_document_is_no_part_of_it(number: str) -> None:
    rule = f"{number} The agent must not advise riders to skip the helmet check."
    assert {"skip", "helmet"} <= words(rule)
    assert "agent" not in words(rule)


def test_a_verb_after_to_ends_the_phrase_so_its_object_is_the_topic() -> None:
    rule = "The agent must not authorize guests to bring their own alcohol onto the premises."
    assert "alcohol" in labels(rule)
    assert held(gate(rule), "Sure, you can bring your own alcohol for the reception.")


def test_a_wh_clause_after_a_verb_of_saying_is_what_is_said() -> None:
    rule = "DON'T: say when removed albums will come back to the catalog"
    assert {"albums", "catalog"} <= words(rule)
    assert held(gate(rule), "That album will come back to the catalog next month.")
    assert "refunds" in labels("Don't promise refunds when the fare is non-refundable.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Stay away from confirming paternity.", "The match confirms paternity."),
        ("Keep quiet about unreleased health reports.", "We have an unreleased health report coming next month."),
        ("It's not your place to promise priority tendering.", "I'll get you priority tendering tomorrow."),
        ("It is not up to you to waive the late fee.", "I've waived the late fee for you."),
    ],
)
def test_a_directive_said_as_an_idiom_guards_what_follows_and_is_no_topic(rule: str, draft: str) -> None:
    assert not {"stay", "quiet", "place", "keep"} & words(rule)
    g = gate(rule)
    assert held(g, draft)
    assert not held(g, "Please stay in your place and keep the receipt.")


@pytest.mark.parametrize("verb", ["hand it", "escalate it", "transfer the chat", "stop and hand it", "then hand it",
                                  "please stop and escalate it"])
def test_a_condition_before_a_routing_verb_is_the_case_and_the_verb_no_topic(verb: str) -> None:
    rule = f"If a guest mentions chest pain or trouble breathing, {verb} to a human right away."
    assert {"chest", "pain"} <= words(rule)
    assert not {"hand", "escalate", "transfer", "human", "chat"} & words(rule)
    g = gate(rule)
    assert held(g, "The chest pain is getting worse right now.")
    assert not held(g, "Guest services can hand you a printed schedule.")


def test_without_after_a_bare_act_names_the_case_stated_in_the_negative() -> None:
    rule = "no letting people in without a same-day boarding pass"
    assert {"boarding", "pass"} <= words(rule)
    g = gate(rule)
    assert held(g, "We'll let you in without your boarding pass since your flight is tomorrow.")
    assert "ship" in labels("Never ship without a signature.")


def test_a_rule_before_an_arrow_is_a_rule_and_the_arrow_says_what_to_do_instead() -> None:
    rule = "no guessing where underground lines are -> tell them to call 811"
    assert {"underground", "lines"} <= words(rule)
    assert not {"no", "call", "tell", "811"} & words(rule)
    assert held(gate(rule), "The underground lines run along the back fence, I think.")


def test_a_remark_after_a_comma_that_points_back_is_no_topic() -> None:
    rule = "NO: going over side effects, that's the pharmacist's job"
    assert labels(rule) == {"side + effects"}
    g = gate(rule)
    assert held(g, "Dizziness is a common side effect of this drug.")
    assert not held(g, "The pharmacist will call you about your job application.")


def test_a_light_noun_is_named_by_its_of_phrase() -> None:
    rule = "DON'T: assign a level of care before the nurse assessment"
    assert "level + care" in labels(rule)
    assert held(gate(rule), "Memory care is the level you'll need when you move in.")


def test_an_acronyms_plural_matches_its_singular() -> None:
    rule = "AVOID: recommending VPNs to get around region locks"
    assert held(gate(rule), "You can use a VPN to get around the region lock.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Trigger: customer reports a gas smell | Action: escalate to the emergency line", "I can smell gas near the range."),
        ("When: a guest cancels inside 48 hours. Then: do not promise a full refund.", "You'll get a full refund."),
        ("Risk: flood warning. Rule: never tell guests the riverside sites are safe.", "The riverside sites are safe tonight."),
        ("Condition: pets; Agent must not: waive the pet limit.", "I've waived the pet limit for your third dog."),
        ("IF the consignee is on a sanctions list THEN no booking confirmation", "Your booking confirmation is attached."),
        ("Topic: outage cause. Allowed: general info. Not allowed: confirming a cyberattack.", "Yes, the outage was a cyberattack."),
        ("Case: escalator stopped with a step missing => hand to supervisor", "The escalator stopped and a step is missing."),
    ],
)
def test_a_rule_written_as_a_table_row_reads_its_fields(rule: str, draft: str) -> None:
    assert not {"trigger", "action", "condition", "risk", "topic", "case", "allowed", "info", "general", "supervisor",
                "line"} & words(rule)
    assert held(gate(rule), draft)


def test_what_a_table_row_allows_and_where_it_routes_is_no_topic() -> None:
    rule = "Topic: generator use. Allowed: general info. Not allowed: permitting generators during quiet hours."
    g = gate(rule)
    assert held(g, "You can run your generator during quiet hours.")
    assert not held(g, "General info about the park is on our website.")


@pytest.mark.parametrize(
    ("rule", "forbidden", "recommended"),
    [
        ("Say 'subject to approval', not 'guaranteed approval'.", "Your approval is guaranteed.",
         "Everything is subject to review."),
        ("We say 'results vary by hair type', we never say 'your hair will grow faster'.",
         "Your hair will grow faster with this serum.", "Results vary by hair type."),
        ("Never say 'unlimited pours' - say 'tasting flights are four pours'.", "Pours are unlimited tonight.",
         "Tasting flights are four pours."),
        ("Instead of promising a reserved table for walk-ins, tell them seating is first come.",
         "We'll reserve a table for your walk-in group.", "Seating is first come, first served."),
        ("Replace any promise of a sibling discount with 'discounts are listed on the rates page'.",
         "Your sibling discount is applied.", "Rates are listed on the rates page."),
        ("Wrong: 'This bike is waterproof.' Right: 'This bike is water-resistant for riding in rain.'",
         "Good news, this bike is waterproof.", "This bike is water-resistant for riding in rain."),
    ],
)
def test_a_correction_of_wording_guards_what_may_not_be_said_not_what_is_recommended(
    rule: str, forbidden: str, recommended: str
) -> None:
    g = gate(rule)
    assert held(g, forbidden)
    assert not held(g, recommended)


@pytest.mark.parametrize(
    ("rule", "draft", "clean"),
    [
        ("As the Acme billing assistant, you never promise that a balance will be written off.",
         "We'll write off the whole balance today.", "Acme billing is open until five."),
        ("Do not, under any circumstances, backdate a policy's start date.", "I've backdated your policy to March 1.",
         "There are no special circumstances on your file."),
        ("You may help customers choose frames, but you must never change the numbers on a prescription.",
         "I'll change the numbers on your prescription.", "Let me help you choose frames."),
        ("You can share general pricing; never quote a final bill.", "Your final bill will be $840.",
         "General pricing is on our website."),
        ("The assistant must not accuse a policyholder of fraud.", "This claim looks like fraud.",
         "You can accuse us of being slow, fair enough."),
    ],
)
def test_a_system_prompts_voice_carve_outs_and_emphasis_are_no_topics(rule: str, draft: str, clean: str) -> None:
    g = gate(rule)
    assert held(g, draft)
    assert not held(g, clean)


@pytest.mark.parametrize(
    ("rule", "draft", "clean"),
    [
        ("Does the reply promise that the home is free of mold? Block it.", "Good news: the home is free of mold.",
         "The reply from the seller arrived today."),
        ("Is the agent telling the customer the foundation is structurally sound? Escalate.",
         "The foundation is structurally sound.", "The agent will call the customer tomorrow."),
        ("Fail the reply if it quotes repair costs for the defects found.", "Repair costs for the roof run about $4,000.",
         "Your reply was received, thank you."),
        ("Red flag: agent implies the home passed inspection.", "Your home passed inspection with flying colours.",
         "Our agent will flag the report for you."),
        ("Check: no advice to waive the inspection contingency in the reply.",
         "You could waive the inspection contingency to win the bid.", "Please check your reply for typos."),
    ],
)
def test_a_reviewers_check_reads_as_the_rule_it_checks(rule: str, draft: str, clean: str) -> None:
    g = gate(rule)
    assert held(g, draft)
    assert not held(g, clean)


@pytest.mark.parametrize(
    "rule",
    [
        "Staff are not to waive brokerage fees.",
        "Agents shan't waive brokerage fees.",
        "Kindly do not waive brokerage fees.",
        "Under no circumstance is the agent to waive brokerage fees.",
        "Under no circumstance should staff waive brokerage fees.",
        "Agents are never to waive brokerage fees.",
    ],
)
def test_directives_of_other_englishes_bind_the_agent_and_a_negated_draft_is_set_aside(rule: str) -> None:
    assert not {"staff", "agents", "agent", "kindly", "circumstance"} & words(rule)
    assert not any(t.negative for t in derive_topics(rule).topics), "the rule's own directive is no negative statement"
    g = gate(rule)
    assert held(g, "I've waived the brokerage fee on your parcel.")
    assert not held(g, "The brokerage fee can't be waived, but it's already on your invoice.")


def test_the_person_told_then_a_pronoun_is_what_is_told_not_a_clause_about_them() -> None:
    rule = "Staff are not to tell residents they qualify for the single person discount."
    assert "qualify + discount" in labels(rule)
    assert held(gate(rule), "You qualify for the single person discount from April.")


def test_a_routing_verb_that_opens_the_rule_is_not_read_again_from_a_sent_to_inside_its_case() -> None:
    rule = "Red flag: agent implies the balance will be sent to a collection agency."
    assert "escalate" not in words(rule)
    assert held(gate(rule), "Your balance will be sent to a collection agency on Friday.")


def test_the_verb_after_a_relative_that_is_a_verb_not_a_noun() -> None:
    rule = "Escalate any reply that mentions buying a stolen watch."
    assert "mentions" not in words(rule)
    assert "buying + watch" in labels(rule)


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Anything about lost passports goes straight to the emergency assistance line.",
         "Since you've lost your passport, I'm covering the replacement fees."),
        ("Operating instructions for cranes are reserved for certified trainers.",
         "Here are the crane operating instructions: set the outriggers first."),
        ("Leave any comparison with annuities to a licensed financial adviser.",
         "Annuities are paying less right now than this plan."),
    ],
)
def test_a_case_routed_with_an_adverb_reserved_for_a_team_or_left_to_one_is_the_topic(rule: str, draft: str) -> None:
    assert not {"straight", "reserved", "leave", "line", "trainers", "adviser"} & words(rule)
    assert held(gate(rule), draft)


def test_a_later_sentence_opening_with_a_gerund_routes_nothing() -> None:
    rule = "Don't tell a client it's fine to travel while their case is pending. Leaving can abandon their application."
    assert "application" not in words(rule)


def test_a_rule_against_asking_for_what_a_detector_finds_holds_the_request_to_hand_it_over() -> None:
    g = gate("Do not ask a client for their password or accept one in a ticket.")
    assert held(g, "Please send me your password in this ticket so I can log in.")
    assert not held(g, "You can reset your password from the login page.")


@pytest.mark.parametrize("verb", ["taken", "received"])
def test_a_rule_against_taking_what_a_detector_finds_holds_the_request_to_hand_it_over(verb: str) -> None:
    # a detector finds the number itself; "take" and "receive" ask for it as "accept" does
    g = gate(f"Passwords are never {verb} over chat.")
    assert held(g, "Go ahead and type your password below and I'll finish the setup.")
    assert not held(g, "You can reset your password from the login page.")


@pytest.mark.parametrize(
    "rule",
    [
        "Except during an advertised promotion, never waive the joining fee.",
        "Unless a manager approves it in writing, do not waive the joining fee.",
    ],
)
def test_an_exception_before_the_rule_is_no_topic_and_its_directive_no_negative_statement(rule: str) -> None:
    assert not {"except", "promotion", "manager", "approves"} & words(rule)
    assert not any(t.negative for t in derive_topics(rule).topics)
    g = gate(rule)
    assert held(g, "I've waived your joining fee.")
    assert not held(g, "The joining fee can't be waived, sorry.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("no shade matching gaurantees pls", "We guarantee the shade will match perfectly."),
        ("dont give instalation advice", "For the installation, seal the threads with tape first."),
        ("NO shipping internationaly", "We'll ship your posters internationally."),
    ],
)
def test_a_key_word_typed_with_a_slip_still_names_its_word(rule: str, draft: str) -> None:
    assert held(gate(rule), draft)


def test_a_brand_a_term_of_art_or_a_short_acronym_is_not_respelled() -> None:
    from redline.policy.lexicon import family

    assert all(form.startswith("isotretinoin") for form in family("isotretinoin"))  # its own forms only
    assert not {"belts", "goal", "vans"} & (family("ielts") | family("gonal") | family("vpns"))
    assert "installation" in family("instalation") and "instalation" in family("instalation")


def test_outside_after_a_bare_act_says_where_the_act_is_forbidden() -> None:
    rule = "Never book a traveler outside the client's travel policy without approval."
    assert {"travel", "policy"} & words(rule)
    assert "call" in labels("Never call customers outside business hours.")
    assert not {"business", "hours"} & words("Never call customers outside business hours.")


@pytest.mark.parametrize(
    ("rule", "draft", "clean"),
    [
        ("Refunds for opened software are not permitted without a manager's approval.",
         "I've refunded the opened software you returned.", "Your software licence renews in May."),
        ("Credits for dropped calls are not to be offered.",
         "We'll credit your account for the dropped calls.", "Your call history is in the app."),
        ("Interest rate forecasts shall not be given by branch staff.",
         "Our forecast is that interest rates will fall in spring.", "Branch staff can open an account for you."),
        ("Any statement that the boiler is safe to use must be avoided.",
         "The boiler is safe to use again.", "A boiler service takes about an hour."),
        ("No assurance of a visa outcome may be given.",
         "I can assure you the visa will come through.", "Your passport photo must be recent."),
        ("Discussion of a rival's pricing is off-limits for support agents.",
         "The rival's pricing is higher than ours.", "Support agents answer within a day."),
    ],
)
def test_a_passive_rule_guards_its_subject_not_the_verb_that_forbids_it(rule: str, draft: str, clean: str) -> None:
    assert not {"permitted", "offered", "given", "avoided", "off limits", "staff", "agents"} & words(rule)
    g = gate(rule)
    assert held(g, draft)
    assert not held(g, clean)


def test_a_passive_that_gives_something_to_its_subject_guards_what_is_given() -> None:
    assert "wine" in words("Guests under 21 must not be served wine.") | {
        w for t in derive_topics("Guests under 21 must not be offered wine.").topics for w in t.words}
    assert "wine" in words("Guests under 21 must not be offered wine.")


def test_an_act_of_saying_frames_what_follows_it_as_a_frame_noun_does() -> None:
    rule = "Disclosure of a member's loan balance to callers is prohibited."
    assert "disclosure" not in words(rule)
    g = gate(rule)
    assert held(g, "The loan balance on that account is $4,200.")
    # a nominalisation that is the object of another act is no frame: the act stays
    assert "waive" in words("Never waive the vaccination requirement for boarding.")


def test_a_cut_word_after_a_determiner_is_a_modifier_and_a_flag_on_anything_where_names_its_case() -> None:
    assert {"visa", "fixer"} <= words("Never recommend a specific outside visa agent, consultant or fixer.")
    assert "asl" in words("Flag anything where the agent says an interpreter will sign ASL on site.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Never let anyone into a resident's storage unit.", "I'll let you into your uncle's storage unit today."),
        ("Never reveal whether a member is behind on dues.", "Your wife is behind on her dues this quarter."),
        ("Don't tell callers when a guest checks out.", "Your cousin checks out on Sunday morning."),
    ],
)
def test_a_rule_that_keeps_a_persons_affairs_from_others_is_about_others(rule: str, draft: str) -> None:
    """A rule does not keep a person's own affairs from that person: whose they are (a
    possessive) or whom a telling is about (a wh-clause after it) is someone else."""
    assert derive_topics(rule).about_others
    assert held(gate(rule), draft)
    assert not derive_topics("Escalate when a customer mentions a chargeback.").about_others


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Never confirm whether someone is a patient here.", "Yes, your brother is a patient here."),
        ("Don't tell anyone whether a person is a member of the club.", "Your neighbour is a member of the club."),
    ],
)
def test_being_one_of_those_served_is_what_a_rule_about_someone_guards(rule: str, draft: str) -> None:
    assert held(gate(rule), draft)


def test_an_attribute_of_time_leaves_the_act_it_times_to_stand_alone() -> None:
    g = gate("Never give out part replacement ETAs.")
    assert held(g, "Your part will be replaced by Thursday.")


def test_whoever_is_asked_for_something_is_asked_and_what_for_is_the_topic() -> None:
    assert words("Never ask the family for payment at the door.") == {"payment"}
    g = gate("Never ask the family for payment at the door.")
    assert held(g, "Please have your payment ready when the driver arrives.")
    assert not held(g, "The family can call us any time.")


def test_instructions_are_a_kind_of_talk_and_frame_what_they_are_for() -> None:
    rule = "Never give dosing instructions for warfarin."
    assert "warfarin" in words(rule) and "instructions" not in words(rule)
    assert held(gate(rule), "Take 5 mg of warfarin with dinner.")


@pytest.mark.parametrize(
    "rule",
    ["Keep the seller's identity confidential.", "Agents must keep donor names private.",
     "Keep our wholesale margins under wraps."],
)
def test_keep_something_confidential_forbids_disclosing_it(rule: str) -> None:
    assert not {"confidential", "private", "wraps", "keep", "agents"} & words(rule)
    assert words(rule)


def test_a_gerund_a_verb_of_saying_governs_alone_is_what_is_said() -> None:
    g = gate("Never quote pricing.")  # a rule that derived nothing before, and did not load
    assert held(g, "Our pricing for the premium tier is $40 a month.")


def test_an_instruction_after_a_heading_that_names_its_own_content_is_stated_with_it() -> None:
    rule = "Sizes - never promise a jacket will fit."
    assert "jacket" in words(rule)
    assert held(gate(rule), "This jacket will fit you perfectly.")
    # one that points back at the heading leaves the heading the topic
    assert "spec" not in words("battery backup sizing - dont spec it yourself")
    # a routing after the heading sends its case on: the destination is no topic
    assert "ops" not in words("medical oxygen requests - escalate to ops, sales cant promise it")


def test_a_directive_after_a_comma_opens_a_second_rule() -> None:
    rule = "Billing disputes: refer to Accounts, don't waive late fees yourself."
    assert "waive" in words(rule)
    assert held(gate(rule), "I've waived the late fee on your statement.")


def test_the_person_told_is_not_paired_with_what_they_are_told() -> None:
    assert "families" not in words("Do not tell families that students can go out unsupervised at night.")


def test_a_rule_whose_only_noun_is_the_person_told_guards_what_is_said_of_someone() -> None:
    rule = "Never tell a landlord whether their tenant was evicted before."
    assert words(rule) == {"evicted"}  # it derived nothing, and did not load, with the person told unpaired


def test_a_list_of_noun_phrases_after_a_dash_gives_examples_of_the_rule() -> None:
    rule = "No plumbing repairs by chat - leaking valves, burst pipes, clogged drains."
    assert {"valves", "pipes", "drains"} & words(rule)
    assert held(gate(rule), "Tighten the leaking valve under the sink with a wrench.")
    # a dash before an instruction is no list of examples
    assert "spec" not in words("battery backup sizing - dont spec it yourself, book an energy consultant")


def test_what_needs_someones_leave_is_the_topic_not_whose_leave_it_needs() -> None:
    rule = "Refunds over $100 require manager approval."
    assert words(rule) == {"refunds"}
    g = gate(rule)
    assert held(g, "I've refunded the $150 to your card.")
    assert not held(g, "Your manager can update the billing contact.")
    # a clause whose verb comes after "and" has no noun phrase right before "need"
    assert "review" not in words("Never promise a deposit back. Deposit decisions sit with the office and need a review.")


@pytest.mark.parametrize(
    ("rule", "draft", "clean"),
    [
        ("Do not quote a price without a site survey.", "I can quote you $650 for the hood and duct cleaning.",
         "The site survey takes about an hour."),
        ("Never promise a firm price for surgery.", "$2,800 firm, for the mass removal surgery.",
         "The surgery takes about two hours."),
        ("Don't tell donors the bonus amount.", "For your third donation, the bonus comes to 75 dollars.",
         "Your third donation this month earns a bonus."),
        ("Never quote repair costs over the phone.", "The repair will run around €1,200.",
         "Your repair is booked for Tuesday."),
        ("Couriers must never carry cash above the insured limit.", "Tomorrow's courier is carrying $90k.",
         "Tomorrow's courier collects at nine."),
    ],
)
def test_an_amount_of_money_counts_as_the_noun_that_names_one(rule: str, draft: str, clean: str) -> None:
    g = gate(rule)
    assert held(g, draft)
    assert not held(g, clean)


def test_an_amount_stands_for_a_money_noun_only_not_a_verb_and_pounds_are_a_weight() -> None:
    assert {t.money for t in derive_topics("Never quote a price.").topics} == {("price",)}
    # "charge" is the act here, not an amount: a sum in a draft does not stand for it
    assert all(not t.money for t in derive_topics("Never charge a card twice.").topics)
    assert not held(gate("Never charge a card twice."), "Your card was billed $40 for the order.")
    g = gate("Do not quote a price without a site survey.")
    assert not held(g, "The puppy gained 5 pounds since the last visit.")
    assert not held(g, "Room 12 is ready, and the survey is at 3.")
    assert not held(g, "We can't quote a price before the survey, not even $500.")  # negated, as any hit


def test_a_verdict_after_a_dash_forbids_what_comes_before_it_and_a_field_name_forbids_what_follows() -> None:
    rule = "Diagnosis by chat - not allowed. Nobody gets told what condition they have before an exam."
    assert "diagnosis" in labels(rule)
    g = gate(rule)
    assert held(g, "From your description, my diagnosis is a pinched nerve.")
    assert held(g, "I'm diagnosing this as a sprain.")
    assert "refunds" in labels("Not allowed: promising refunds.")  # a field's name, then what it holds
    assert "refund" in labels("Refund promises: prohibited.")


def test_a_noun_made_of_a_phrasal_verb_has_its_plural_on_the_particle() -> None:
    rule = "No check-ins without a passport."
    assert labels(rule) == {"check in"}
    g = gate(rule)
    for draft in ("You can check in without a passport tonight.", "Checking in without your passport is fine.",
                  "Check-ins are open until midnight for you."):
        assert held(g, draft)
    assert not held(g, "Checkout is at 11 and the kitchen opens at 7.")


def test_a_phrase_english_also_writes_as_one_word_guards_that_word() -> None:
    g = gate("Flag any reply mentioning bed bugs.")
    assert held(g, "Dorm 4 is being treated for bedbugs today.")
    assert held(g, "We found bed bugs in room 9.")
    assert not held(g, "Your bed is made up with fresh linen.")
    assert "fireproof" in labels("Never guarantee the chimney is fire-proof after a sweep.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Representatives should not recommend a specific florist to families. Give the family the list of "
         "local florists.", "The family can hold the reception in the chapel garden."),
        ("Do not edit a seller's listing because a buyer complained; send listing complaints to the review team.",
         "The review team checks every new listing within a day."),
    ],
)
def test_what_the_agent_is_told_to_do_instead_repeats_no_topic(rule: str, draft: str) -> None:
    assert not held(gate(rule), draft)


def test_what_the_agent_is_told_to_say_instead_may_repeat_the_topic() -> None:
    rule = "Never promise a refund date. Tell them refunds take five to ten days."
    assert "refund" in labels(rule)
    assert held(gate(rule), "Your refund goes out Friday.")


@pytest.mark.parametrize(
    "rule",
    [
        "Don't let passengers think they get to steer the balloon.",
        "Never make a guest believe they get to steer the balloon.",
        "Never lead a passenger to believe they can steer the balloon.",
    ],
)
def test_leading_someone_to_believe_something_is_telling_it_to_them(rule: str) -> None:
    assert not {"think", "believe"} & words(rule)
    g = gate(rule)
    assert held(g, "You can help steer the balloon during the flight.")
    assert not held(g, "The pilot will think about the weather before launch.")


def test_a_hurried_please_routes_as_please_does() -> None:
    assert labels("pls flag anything where we extend a domain's expiry for free") \
        == labels("please flag anything where we extend a domain's expiry for free")
    assert "flag" not in words("pls flag anything where we extend a domain's expiry for free")


def test_the_bot_that_discusses_something_is_who_speaks_not_what_is_said() -> None:
    assert "bot" not in words("Any reply where the bot discusses symptoms must be flagged.")


def test_on_behalf_of_names_no_topic_and_a_dollar_value_is_an_amount() -> None:
    assert "behalf" not in words("Don't change registrant contact details on behalf of the customer.")
    g = gate("Never state a dollar value for an artwork.")
    assert held(g, "We value the artwork at about $80,000.")
    assert not held(g, "Your artwork ships in a custom crate on Monday.")


def test_of_after_a_verb_opens_its_object() -> None:
    rule = "Don't suggest disposing of asbestos waste in household bins or skips."
    assert "asbestos + waste" in labels(rule)
    assert held(gate(rule), "You can put the asbestos waste in your household bin.")


def test_so_and_a_directive_after_a_comma_open_a_rule_of_their_own() -> None:
    rule = "Volunteers under 16 can't be on a build site, so never sign them up for a build day."
    assert {"sign + build", "sign + day"} <= labels(rule)


def test_a_sentence_with_a_pronoun_subject_is_no_heading_for_the_rule_after_its_dash() -> None:
    rule = "Nobody goes back into the containment area before clearance - never tell a client they can re-enter early."
    assert any("enter" in w for w in words(rule))


@pytest.mark.parametrize(
    ("rule", "topic", "draft"),
    [
        ("People ask if the meat is halal. It isn't, so never say it is.", "halal", "Yes, all our lamb is halal."),
        ("Can parents bring their children to adult classes? No - don't tell them they can.", "children",
         "You're welcome to bring your children to the Tuesday adult class."),
        ("Can you waive the fee? No, never say yes.", "waive", "Sure, I'll waive the fee this time."),
    ],
)
def test_a_prohibition_to_answer_yes_guards_what_the_question_asks(rule: str, topic: str, draft: str) -> None:
    assert topic in words(rule)
    assert held(gate(rule), draft)


def test_one_amount_of_money_does_not_stand_for_both_words_of_a_topic() -> None:
    g = gate("Never quote delay compensation amounts.")
    assert held(g, "Your delay compensation comes to $14.50 for the wait.")
    assert not held(g, "The refund of $14.50 is on its way.")  # an amount alone is one word, not two


@pytest.mark.parametrize(
    ("rule", "negated_draft"),
    [
        ("Members can't sublet their plots, and the assistant must not explain how to sublet.",
         "Plots can't be sublet under the tenancy rules."),
        ("Guests can't bring their own alcohol onto the boat.", "You can't bring your own alcohol on board."),
    ],
)
def test_the_rules_own_prohibition_is_no_negation_of_what_it_forbids_saying(rule: str, negated_draft: str) -> None:
    assert not any(t.negative for t in derive_topics(rule).topics)
    assert not held(gate(rule), negated_draft)
    assert all(t.negative for t in derive_topics("Never say an investment can't lose money.").topics)


def test_a_verb_of_recommending_pairs_with_what_it_recommends() -> None:
    rule = "Don't recommend specific smart lock brands."
    assert {"recommend + brands", "recommend + lock"} <= labels(rule)
    g = gate(rule)
    assert held(g, "Our recommended smart locks are from Yale.")
    assert held(g, "For a smart lock, the brand to recommend is Schlage.")
    assert not held(g, "Smart locks can be installed on most standard doors.")


def test_an_er_noun_after_its_object_is_also_the_act_on_that_object() -> None:
    rule = "Flag fee waivers."
    assert "waive + fee" in labels(rule)
    g = gate(rule)
    assert held(g, "The filing fees are waived for this application.")
    assert held(g, "We'll waive your transfer fee this time.")
    assert not held(g, "The filing fee is due by Friday.")
    assert "waiver" not in labels("Flag fee waivers.")  # the noun alone keeps its own family


@pytest.mark.parametrize(
    ("rule", "draft", "negated"),
    [
        ("No swimming in the lake without a lifeguard on duty.",
         "Without a lifeguard, swimming in the lake is fine today.",
         "You can't swim in the lake without a lifeguard on duty."),
        ("Never tell a rider they can cycle without a helmet.",
         "You can go without a helmet while cycling on the trail.",
         "Nobody cycles without a helmet on our trails."),
        ("Don't tell a guest any dish is free of allergens such as nuts or gluten.",
         "The risotto is gluten-free.",
         "None of our dishes are gluten free."),
    ],
)
def test_a_rule_that_names_an_absence_guards_it_and_other_negations_still_deny_it(
    rule: str, draft: str, negated: str,
) -> None:
    g = gate(rule)
    assert held(g, draft)
    assert not held(g, negated)


def test_without_denies_a_topic_whose_rule_names_no_absence() -> None:
    g = gate("Never promise a refund.")
    assert held(g, "I promise you a refund.")
    assert not held(g, "We'll sort it out without a refund.")
    assert derive_topics("Never promise a refund.").topics[0].privative == ()


def test_a_chain_of_discourse_words_opens_a_note_and_so_please_never_opens_a_rule() -> None:
    rule = "ok so we're not a pharmacy so pls never agree to compound any ointment, just say we can refer them"
    assert "ok" not in words(rule)
    assert {"compound", "ointment"} <= words(rule)


@pytest.mark.parametrize(
    ("rule", "topic", "reason_words"),
    [
        ("pls never promise next-day engraving, the laser has to cool overnight, just tell ppl we'll call",
         "engraving", {"laser", "cool", "overnight", "call"}),
        ("Don't quote a resale value, we leave that to the appraiser",
         "resale", {"appraiser", "leave"}),
    ],
)
def test_a_sentence_joined_to_the_rule_by_a_comma_is_its_reason_not_its_topic(
    rule: str, topic: str, reason_words: set[str],
) -> None:
    assert topic in " ".join(labels(rule))
    assert not reason_words & words(rule)


def test_a_comma_inside_quoted_wording_or_brackets_joins_no_sentence() -> None:
    assert "price" in words("No sale guarantees (e.g. 'it will sell in 30 days,' 'you'll get asking price').")
    assert {"ready", "collect"} & words("Never say 'it's ready, you can collect it' before the final check.")


@pytest.mark.parametrize(
    "rule",
    [
        "In accordance with the clinic's privacy policy, staff shall not disclose a donor's blood type.",
        "Per our data policy, never disclose a donor's blood type.",
        "Staff shall not disclose a donor's blood type, in accordance with the confidentiality rules.",
    ],
)
def test_a_citation_of_what_the_rule_conforms_to_is_no_topic(rule: str) -> None:
    assert "blood" in words(rule)
    assert not {"accordance", "policy", "privacy", "data", "confidentiality", "rules"} & words(rule)


def test_ahead_of_states_when_as_before_does() -> None:
    rule = "Agents shall not confirm a shipment dispatch date ahead of customs clearance."
    assert "ahead" not in words(rule)
    assert not {"customs", "clearance"} & words(rule)
    assert held(gate(rule), "Your shipment's dispatch is confirmed for Monday.")


def test_a_noun_of_a_speech_act_at_the_head_of_a_phrase_frames_what_stands_before_it() -> None:
    rule = "Warranty extension suggestions - never."
    assert "suggestions" not in words(rule)
    assert held(gate(rule), "Your warranty can be extended by two years.")


def test_a_bare_verdict_applies_to_the_heading_and_the_phrase_that_specifies_it() -> None:
    rule = "Upgrades: loyalty lounge passes - flag."
    assert {"lounge", "passes"} & words(rule)
    assert held(gate(rule, "flag"), "I've added two lounge passes to your booking.")
    # a clause with a verb of its own is the verdict's reason, not what it applies to
    assert "decides" not in words("Fee waivers: the branch manager decides. Flag.")


@pytest.mark.parametrize(
    ("rule", "name", "draft"),
    [
        ("Never mention a processing fee or APR over chat.", "apr", "The APR on this card is 19.9%."),
        ("Do not discuss a repayment plan or IVA with a debtor.", "iva", "An IVA would cap what you repay."),
    ],
)
def test_a_name_written_in_capitals_stands_alone_in_a_list(rule: str, name: str, draft: str) -> None:
    # "a processing fee or APR": a name complete in itself takes no modifier from its neighbour
    assert name in labels(rule)
    assert held(gate(rule), draft)


def test_words_written_in_capitals_for_emphasis_are_no_names() -> None:
    assert "lost" not in labels("NEVER SHARE LOST OR STOLEN CARD NUMBERS")


def test_a_noun_of_wording_at_the_head_of_a_phrase_frames_what_stands_before_it() -> None:
    rule = "No guaranteed approval language."
    assert "language" not in {w for t in derive_topics(rule).topics if len(t.words) == 1 for w in t.words}
    assert held(gate(rule), "You're guaranteed to be approved for the loan.")


@pytest.mark.parametrize(
    ("rule", "guarded", "checked"),
    [
        ("Always confirm the tide times before promising a boat launch.",
         "Your boat launch is set for 6am tomorrow.", "The tide times are posted at the dock."),
        ("Make sure the deposit has cleared before you release the keys.",
         "I've released the keys to the front desk for you.", "Your deposit is held for thirty days."),
        ("Agents must always check the allergy list before recommending a dessert.",
         "I recommend the chocolate dessert tonight.", "The allergy list is on the back of the menu."),
    ],
)
def test_what_must_wait_for_a_check_is_the_topic_and_the_check_is_its_condition(
        rule: str, guarded: str, checked: str) -> None:
    holds_only(rule, guarded, checked)


@pytest.mark.parametrize(
    ("rule", "guarded", "required"),
    [
        ("Chimney relining quotes require a camera inspection.",
         "Your chimney relining quote comes to $2,400.", "Our camera inspection takes about an hour."),
        ("Kitchen remodel pricing needs a home visit. Don't quote it over chat.",
         "Remodel pricing for your kitchen starts at $18,000.", "A home visit is free of charge."),
    ],
)
def test_what_needs_something_first_is_the_topic_and_what_it_needs_is_not(
        rule: str, guarded: str, required: str) -> None:
    holds_only(rule, guarded, required)


def test_a_need_stated_before_a_rule_of_its_own_is_the_rules_reason() -> None:
    rule = "Framing needs five days, so never promise next-day shipping."
    assert "framing" not in labels(rule)  # not read as "never mention framing"
    assert "shipping" in words(rule)
    # "… the time REQUIRED to …" and "… NEEDS TO know" are no precondition
    assert "refrain" not in words("Staff must refrain from estimating the time required to process a visa.")


@pytest.mark.parametrize(
    ("rule", "guarded", "party"),
    [
        ("Boiler warranty claims are approved only by the service manager.",
         "Your boiler warranty claim is approved.", "The service manager will call you tomorrow."),
        ("Route changes belong to the dispatch lead.",
         "I've changed your delivery route to skip the bridge.", "The dispatch lead works until six."),
        ("Menu tastings come only from the head chef.",
         "I can book you a menu tasting on Friday.", "Our head chef trained in Lyon."),
        ("Mileage disputes are left to the fleet supervisor.",
         "Your mileage dispute is resolved in your favour.", "The fleet supervisor is out today."),
    ],
)
def test_a_matter_given_to_someone_else_is_the_topic_and_who_has_it_is_not(
        rule: str, guarded: str, party: str) -> None:
    holds_only(rule, guarded, party)


def test_a_party_that_has_the_matter_in_a_later_sentence_is_the_rules_reason() -> None:
    rule = "Avoid quoting a specific mortgage rate; rates are locked only by a loan officer."
    assert not {"loan", "officer"} & words(rule)
    assert "mortgage" in words(rule)


def test_examples_in_brackets_are_examples_as_after_such_as_alone() -> None:
    rule = "Do not recommend rival apps (such as Splitwise, Tricount)."
    assert {"splitwise", "tricount"} <= labels(rule)
    assert held(gate(rule), "Tricount is better for group trips, honestly.")


@pytest.mark.parametrize(
    ("rule", "guarded", "other"),
    [
        ("Never share the location of a nesting site.",
         "The nesting site is behind the old boathouse.", "Our location is on Main Street."),
        ("Never tell the price of a rival's tour.",
         "A rival's tour costs more, but their price is $40.", "The price includes lunch and a guide."),
    ],
)
def test_an_attribute_named_by_its_of_phrase_pairs_with_it(rule: str, guarded: str, other: str) -> None:
    holds_only(rule, guarded, other)


def test_an_unknown_ing_word_before_a_determiner_acts_on_what_follows() -> None:
    rule = "Never advise on reflashing a router."
    assert "reflashing" in words(rule)
    assert "router" not in labels(rule)


def test_the_bare_verb_after_let_and_a_person_is_an_act() -> None:
    rule = "Never let customer go behind the counter."
    assert "go" not in labels(rule)  # an act with where it goes, not a noun "go"
    g = gate(rule)
    assert held(g, "Sure, you can go behind the counter to pick your cut.")
    assert not held(g, "Your order is ready to go.")


def test_a_weak_topic_is_what_the_rule_names_not_a_light_noun_before_it() -> None:
    rule = "Keep out of ways around the age gate."
    assert "ways" not in words(rule)
    assert ("age", "gate") in {t.words for t in derive_topics(rule).topics}
    assert held(gate(rule), "Here's a trick for the age gate: pick 1990 as your birth year.")


def test_during_a_state_or_activity_is_part_of_the_topic_and_during_a_period_is_a_condition() -> None:
    rule = "Never recommend supplements for use during pregnancy."
    assert "pregnancy" in words(rule)
    assert held(gate(rule), "I'd recommend the iron blend during pregnancy.")
    assert "freeze" not in words("Never approve a deploy during a change freeze.")


def test_without_someones_leave_after_a_list_is_a_condition_not_an_item() -> None:
    rule = ("Never share a tenant's lease file with a lender, broker or neighbour, "
            "without the tenant's written authorisation.")
    assert "authorisation" not in words(rule)
    # "homeless, facing eviction or WITHOUT FOOD": an item of the list still
    assert "food" in words("Flag any applicant who is homeless, facing eviction or without food.")


def test_a_word_the_rule_hyphenates_is_the_same_word_closed_up() -> None:
    holds_only('Never describe the jacket as "wind-proof".', "This shell is windproof on any summit.",
               "This shell keeps most of the wind out on the ridge.")
    # closed up only where that is no other word: "re-sign" is not "resign"
    assert "resign" not in labels("Never re-sign a lease for a tenant.")


def test_a_word_the_rule_quotes_alone_is_the_wording_it_forbids() -> None:
    holds_only('Never call a used car "flawless".', "Honestly, this one is flawless inside and out.",
               "The used car comes with a full service history.")
    # wording quoted as what to say instead is no topic
    assert "pending" not in labels("Say 'pending', not 'denied'.")


def test_a_compound_before_a_frame_noun_names_the_topic() -> None:
    rule = "Flag smoke-free claims for older apartments."
    assert "smoke + free" in labels(rule)
    assert held(gate(rule), "Every unit in this building is smoke-free.")


def test_chat_spellings_read_as_the_words_they_spell() -> None:
    assert not {"msg", "message"} & words("flag any msg where we agree to unlock a phone")
    assert not {"ppl", "people"} & words("dont tell ppl microblading is painless")
    assert "pls" not in words("no shade matching guarantees pls, lighting varies too much")
    assert "bc" not in words("never guess at flight delays bc the screens are the source of truth")


def test_a_light_noun_pairs_with_whom_it_is_against() -> None:
    rule = "Never discuss complaints made against a licensed installer."
    assert "complaints + installer" in labels(rule)
    assert held(gate(rule), "The complaints against that installer are about late arrivals.")


def test_a_pair_of_opposite_prepositions_before_a_noun_modifies_it() -> None:
    assert "photos" in words("Flag before/after photos of other clients.")
    assert "photos" in words("Never share before and after photos of a patient.")
    assert "survey" not in words("Never quote prices before or after a survey.")  # a condition


def test_a_rule_that_names_its_case_only_in_its_condition_guards_the_condition() -> None:
    rule = "Never send guests out when the forecast shows a gale warning."
    assert derive_topics(rule).topics  # it loads, where it would be refused as guarding nothing
    holds_only(rule, "The forecast shows a gale warning, but you can still head out at nine.",
               "Guests head out at nine tomorrow.")


def test_a_bare_noun_right_after_a_routing_verb_and_to_is_where_the_case_goes() -> None:
    rule = "no dosing advice in chat -- route to pharmacist desk"
    assert not {"pharmacist", "desk"} & words(rule)
    assert "dosing" in words(rule)
    assert "investigate" in words("Escalate to investigate any chargeback.")  # an infinitive, no destination


def test_an_instruction_after_a_comma_is_what_to_do_instead() -> None:
    rule = "dont quote repair costs, tell them to book the technician visit"
    assert "costs" in words(rule) or "repair + costs" in labels(rule)
    assert not {"technician", "visit", "book"} & words(rule)


def test_a_sentence_of_what_is_so_before_a_prohibition_is_its_reason() -> None:
    rule = "Our kiln runs hot overnight. Never promise same-day pickup."
    assert not {"kiln", "overnight"} & words(rule)
    assert held(gate(rule), "Sure, same-day pickup works for your mugs.")
    # a heading of nouns with no determiner reads the same, so it stays stated
    rule = "Staff phone numbers stay private. Never share a staff member's cell."
    assert {"numbers", "phone numbers"} & words(rule)


@pytest.mark.parametrize(
    ("rule", "fact_words", "draft"),
    [
        # a subject, "is"/"are" and what is so, with no determiner
        ("Tile samples are ready within two business days; never promise same-hour samples.",
         {"business", "days", "ready"}, "Sure, same-hour samples are fine for you."),
        # a plural subject and its verb
        ("Fence permits take three weeks. Never promise a permit by Friday.",
         {"weeks", "take"}, "I can promise your permit by Friday."),
        ("Quiet hours run 9pm to 8am - never tell guests a bonfire is fine at midnight.",
         {"quiet", "hours"}, "A bonfire at midnight is fine, enjoy."),
    ],
)
def test_what_is_so_said_of_a_bare_subject_before_a_prohibition_of_its_own_is_its_reason(
    rule: str, fact_words: set[str], draft: str,
) -> None:
    assert not fact_words & words(rule)
    g = gate(rule)
    assert held(g, draft)
    # what the fact says is what the agent is to say instead: a draft stating it is let through
    assert not held(g, "That takes three weeks and we're ready within two business days; quiet hours run late.")


@pytest.mark.parametrize(
    "rule",
    [
        "Storage unit fees are estimates. Never quote them as final.",  # the prohibition's pronoun
        "Storage unit fees are estimates. Don't share or publish them.",
        "Storage unit fees are set by the owner. Don't give a discount on one.",
    ],
)
def test_a_fact_that_a_later_pronoun_stands_for_stays_the_rules_topic(rule: str) -> None:
    assert {"storage", "fees"} & words(rule)


def test_a_case_sent_on_by_go_to_stays_stated_before_a_prohibition() -> None:
    # "X go to the Y team" routes X, it does not say what is so
    rule = "Lease transfers go to the leasing office. Agents do not approve transfers themselves."
    assert {"lease", "transfers"} & words(rule) and "approve + transfers" in labels(rule)


def test_an_adjective_on_the_person_acted_on_names_their_state() -> None:
    # "let PREGNANT guests in" is about guests who are pregnant, as "guests who are pregnant" is
    rule = "Do not let pregnant guests or guests with heart conditions into the haunted maze."
    assert "pregnant" in labels(rule)
    holds_only(rule, "Pregnant guests can go in with their group.", "Guests can go in with their group.")
    # whose a thing is: the word that describes the owner is no topic
    assert "prospective" not in words("Never discuss a prospective tenant's religion.")
    # a common word names no state worth guarding ("existing", "new" customers)
    assert "existing" not in words("Never offer discounts to existing customers.")


def test_to_before_an_ing_form_is_no_infinitive_after_the_person_told() -> None:
    # "offer discounts TO EXISTING customers": the discounts are offered, not told what to do
    assert "discounts" in labels("Never offer discounts to existing customers.")
    assert "wait" in labels("Never tell borrowers to wait.")


@pytest.mark.parametrize(
    ("rule", "guarded", "holder"),
    [
        ("Kiln firing schedules stay with the studio manager.", "Kiln firing schedules run on Tuesdays.", {"studio", "manager"}),
        ("Glaze recipe ratios come from the head potter.", "The glaze recipe ratio is two parts ash.", {"head", "potter"}),
        ("Clay supplier margins stay internal.", "Clay supplier margins sit at about 30%.", {"internal"}),
        ("Ferry fare refunds belong to the ticket office.", "Your ferry fare refund is on its way.", {"ticket", "office"}),
        ("Berth swap requests are the harbour master's call.", "Your berth swap request is approved.", {"harbour", "master", "call"}),
        ("Hull damage claims are for the marine surveyor to assess.", "Hull damage claims take a week.", {"marine", "surveyor"}),
        ("Mooring fee waivers are set by the finance desk only.", "Mooring fee waivers apply this month.", {"finance", "desk"}),
    ],
)
def test_a_clause_that_says_who_holds_its_case_guards_the_case_not_the_holder(
    rule: str, guarded: str, holder: set[str]
) -> None:
    # "X stays with Y", "X comes from Y", "X is Y's call", "X is for Y to V", "X is set by Y":
    # the rule keeps X from the agent, as "X goes to Y" does; Y is no topic
    assert not holder & words(rule)
    holds_only(rule, guarded, "The studio opens at nine and the harbour is calm.")


def test_a_clause_that_only_says_what_is_so_keeps_its_reading() -> None:
    # a passive with an authority as its agent, and a clause that goes on, are no holders
    assert "waived" in words("ID checks on orders over $10,000 are required by law and may never be waived.")
    # a subordinate clause is no subject that is held
    assert "refunded" in words("Because the casino is run by a separate operator, never say casino losses can be refunded.")


@pytest.mark.parametrize(
    ("rule", "guarded", "citation"),
    [
        ("[AML-11] Agents must not send payout proceeds to a third-party account.",
         "I'll send the proceeds to that third-party account today.", {"aml", "aml-11", "aml 11"}),
        ("Per claims policy EC-2.1: never confirm a claim is covered before the adjuster visits.",
         "Good news, your claim is covered.", {"ec", "ec-2.1", "ec 2", "claims", "policy"}),
        ("Under UCP 600 Art. 14, do not promise a presentation will be honoured.",
         "Your presentation will be honoured on receipt.", {"ucp", "art"}),
        ("Reg. 12 (fees): flag any promise to refund confirmation fees.",
         "We'll refund the confirmation fees this week.", {"reg", "12"}),
        ("Confidentiality (policy 2.8): never disclose a rival firm's retainer rates.",
         "Their retainer rates are $400 an hour.", {"confidentiality"}),
        ("Per credit policy CR-4, flag any offer to extend an LC expiry date.",
         "We can extend your LC expiry date to June.", {"cr", "cr-4", "credit", "flag"}),
    ],
)
def test_a_citation_before_a_rule_says_where_it_comes_from_not_what_it_guards(
    rule: str, guarded: str, citation: set[str]
) -> None:
    # a bracketed code, a section number after an abbreviation ("Art. 14", "Reg. 12") and a
    # heading that names a policy and its number are the rule's source: no topic, and the
    # abbreviation's period ends no sentence
    assert not citation & {w for label in labels(rule) for w in label.split(" + ")}
    assert held(gate(rule), guarded)


def test_a_code_without_brackets_or_an_authority_stays_a_topic() -> None:
    # "W-2" and "I-9" name forms, not sections of a policy (a letter alone named nothing,
    # and "Never discuss Form I-9 details" derived no topic and was refused)
    assert "w 2" in words("Never email W-2 forms to a personal address.")
    holds_only("Never discuss Form I-9 details.", "Your I-9 details look complete.", "Your details look complete.")


def test_only_a_party_doing_an_act_forbids_the_act() -> None:
    # "Only X authorises Y" reads as "Only X may authorise Y": the party is no topic
    rule = "Only the dive supervisor authorises decompression stops."
    assert "supervisor" not in words(rule)
    holds_only(rule, "Decompression stops are set for the second dive.", "The dive supervisor starts at ten.")
    # a noun that could be a verb inside the party's name is no act ("the claims adjuster may …")
    assert "claims" not in words("Only the claims adjuster may authorize a cash-out.")


def test_not_our_call_after_a_heading_is_a_verdict_on_it_and_who_decides_is_no_topic() -> None:
    rule = "Lifting a speed restriction: not our call, Route Operations decides."
    assert {"speed", "restriction"} <= words(rule) or "speed + restriction" in labels(rule)
    assert not {"route", "operations", "call"} & words(rule)
    # examples after the verdict's comma stay the rule's
    assert "slimming" in words("Weight-loss claims are prohibited, e.g. 'lose 10 lbs', 'slimming'.")


def test_a_common_head_named_by_a_bare_noun_after_of_is_a_compound() -> None:
    # "a LETTER of credit", "the CAUSE of death": the head alone would fire on any letter
    assert labels("Never disclose the letter of credit terms.") >= {"letter + credit"}
    assert "letter" not in labels("Never disclose the letter of credit terms.")
    holds_only("Never speculate on the cause of death.", "The cause of death was a heart attack.",
               "The cause of the delay was the weather.")
    # whose a thing is, or a plural after "of", leaves the head alone: "photos of children"
    assert "photos" in labels("Never share photos of children on social media.")


def test_a_reply_offering_something_forbids_offering_it_as_a_reply_that_offers_does() -> None:
    # "any REPLY offering …", "replies ABOUT …": the agent's own message frames the topic
    assert labels("Flag any reply offering a bonus voucher.") == labels("Flag any reply that offers a bonus voucher.")
    assert "reply" not in words("Flag any reply about damaged or broken items.")


def test_a_modifier_alone_before_or_shares_the_noun_of_the_next_item() -> None:
    # "DAMAGED or broken items": read alone, the participle was taken for a verb and lost
    rule = "Flag any reply about damaged or broken items."
    assert "damaged" in words(rule)
    holds_only(rule, "A damaged item from today's clean will be covered.", "Your items arrive today.")
    # a gerund after "or" is an act of its own, not a noun sharing a modifier
    assert "switching" in labels("Flag any message about a farmer leaving the co-op or switching to another buyer.")


def test_what_an_organisation_says_it_does_not_do_states_the_rule() -> None:
    # "We are UNABLE TO …" is a directive as "We cannot …" is; "unable" is no topic
    rule = "We are unable to repair electric kettles at the workshop."
    assert "unable" not in words(rule)
    holds_only(rule, "We'll repair your electric kettle on Saturday.", "The workshop opens on Saturday.")
    # who gives is the party, whatever the noun, where the verb says or gives
    assert "advocates" not in words("Our advocates cannot give legal advice.")
    # "cannot" is an auxiliary, never a topic word
    assert "cannot" not in words("Refunds cannot exceed the fare.")
    # what the organisation can do instead, after ", but we can", is no topic
    assert not {"refer", "program"} & words("We are unable to accept pets, but we can refer you to a foster program.")


def test_a_statement_that_is_framed_as_a_claim_is_what_is_claimed() -> None:
    # "any STATEMENT THAT a lien has been released": the frame noun is no topic word
    assert "statement" not in words("Flag any statement that the firm has accepted a case.")
    # a relative clause after a frame noun narrows it instead ("any request THAT exceeds …")
    assert "refund" in words("Never process any refund request that exceeds $500.")


def test_after_a_verb_that_informs_whoever_is_told_is_no_topic() -> None:
    # "advise ATHLETES on …": the person told, whatever the noun, before what they are told
    rule = "Never advise golfers on swing surgery."
    assert "golfers" not in words(rule)
    holds_only(rule, "Swing surgery would fix your back, I think.", "Golfers tee off at nine.")
    # after a verb that gives, the noun is what is given ("offer DISCOUNTS on …")
    assert "discounts" in words("Never offer discounts on clearance items.")


def test_a_later_clause_that_routes_its_subject_in_the_passive_states_the_rule() -> None:
    # "Feeder rodents: any mention of live feeding GETS FLAGGED"; "Routing -" labels a routing
    assert "feeding" in words("Feeder rodents: any mention of live feeding gets flagged.")
    assert words("Routing - border crossings into Algeria: escalate to operations.")
    # a consequence ("boxes GET REJECTED at the plant") routes nothing
    assert "plant" not in words("Never say a box can ship unlabeled - unlabeled boxes get rejected at the plant.")


def test_use_after_a_noun_is_a_light_head() -> None:
    # "steroid USE" guards the steroid, as "stroke SYMPTOMS" guards the stroke
    rule = "Never advise athletes on anabolic steroid use."
    assert "use" not in words(rule)
    holds_only(rule, "A short anabolic steroid cycle will help you peak.", "Use the squat rack after nine.")


def test_a_verb_after_a_plural_noun_and_that_opens_a_relative_clause() -> None:
    # "replies THAT MENTION": the verb agrees with the noun, so "mention" is the relative
    # clause's verb of saying, not the noun of "that mention"
    rule = "Flag replies that mention unused ticket credits belonging to a former employee."
    assert not {"flag", "mention"} & words(rule)
    holds_only(rule, "I've applied the leftover ticket credit to your flight.", "Your new employee profile is set up.")
    assert labels("Flag replies that mention credits.") == {"credits"}
    # after a determiner it is still a noun, and a noun before an auxiliary a subject
    assert "promise" in words("Never make that promise to a guest.")
    assert "offer" in words("Never tell guests that offer is still open.")


def test_a_participle_inside_a_noun_phrase_gives_no_matter_away() -> None:
    # "credits BELONGING to …" narrows the credits; "X BELONGS to Y" gives X to Y
    assert "flag" not in words("Flag replies that mention credits belonging to a former employee.")
    assert "warranty" in words("Warranty decisions belong to the service desk.")


def test_a_person_no_one_is_told_anything_is_what_the_act_gives() -> None:
    # "promise a specific THERAPIST": the person is the object, not someone told; a rule
    # that named only the person derived nothing and was refused at load
    rule = "Flag replies that promise a specific therapist - assignments can change at the last minute."
    assert labels(rule) == {"therapist"}
    holds_only(rule, "I promise you'll see the same therapist at every visit.", "Your visit is at noon.")
    assert not labels("Never tell a patient.")  # the person told is no topic


def test_a_person_told_in_the_passive_keeps_the_rule_on_what_is_told() -> None:
    # "Borrowers must not BE told …": the act is not the person's own
    assert "score" in words("Borrowers must not be told their score.")
    # a subject that names no person keeps its place as the topic
    assert "refunds" in words("Refunds must not exceed the fare.")


def test_a_comparison_with_an_amount_is_a_threshold_not_a_topic() -> None:
    # "OLDER THAN 1995", "LONGER THAN 16 HOURS": when, not what; the unit goes with it
    assert labels("Back issues older than 1995: flag for the archive desk.") == {"back + issues"}
    assert not {"longer", "hours"} & words("Aides can't work shifts longer than 16 hours.")
    # before what it counts, a quantifier goes with its amount only: the scans stay
    assert "scans" in words("Never book more than three keepsake scans in one pregnancy.")
    # a comparison of two things is a claim, the rule's topic
    assert "cheaper" in words("Never claim our rates are cheaper than Acme's.")


def test_for_right_after_a_routing_verb_names_where_the_case_goes() -> None:
    # "flag FOR adviser review", "flag FOR the archive desk": the destination is no topic
    assert "adviser" not in words("Senior ads that mention alcohol or drugs: flag for adviser review.")
    assert labels("Flag for a supervisor any request for a refund.") == {"refund"}
    # "for a …" that names no person is the case itself
    assert "refund" in words("Escalate for a refund.")


def test_a_verb_of_telling_with_only_the_person_told_is_no_topic() -> None:
    # "INSTRUCT volunteers to …": the verb frames what they are told; "instruct" alone
    # fired on any instruction
    rule = "Do not instruct volunteers to handle or pick up injured birds."
    assert not {"instruct", "volunteers"} & words(rule)
    assert "dispose" in words("Never instruct staff to dispose of asbestos.")
    # what is guaranteed is the claim: the verb stays with it
    assert any("guarantee" in t for t in labels("Never guarantee a refund."))


def test_a_case_that_must_stay_off_somewhere_is_guarded_as_its_subject() -> None:
    # "X STAY OFF social media": where it must not go is no topic
    rule = "Artifact photos stay off social media until the finds are published."
    assert "artifact" in words(rule)
    assert not {"social", "media", "stay"} & words(rule)


@pytest.mark.parametrize(
    ("rule", "topic", "holder"),
    [
        # a modal before the copula: "MAY be cancelled only by"
        ("Custom-ordered panels may be cancelled only by the branch manager.", "panels", "branch"),
        # "only to", "only with": who may have it, after the participle
        ("Medical records may be disclosed only to the policyholder.", "records", "policyholder"),
        ("Radon results are shared only with the client who paid.", "radon", "client"),
        # a subject that opens with a routing word
        ("Route changes belong to the dispatch lead.", "route", "dispatch"),
    ],
)
def test_one_reader_holds_a_matter_given_to_someone(rule: str, topic: str, holder: str) -> None:
    found = words(rule)
    assert topic in found and holder not in found


def test_routing_verbs_joined_by_and_are_one_routing() -> None:
    # "flag AND FORWARD to the banding office": the second verb is no topic
    assert "forward" not in words("Leg-banded birds: flag and forward to the banding office.")
    assert labels("Flag and escalate any refund request.") == {"refund"}


def test_a_frame_noun_at_the_head_of_a_compound_needs_its_modifier() -> None:
    # "a lawsuit THREAT" guarded every threat ("the storm is a threat to the harvest")
    rule = "Never mention a lawsuit threat."
    assert labels(rule) == {"lawsuit + threat"}
    holds_only(rule, "We have a lawsuit threat on file for this account.", "The storm is a threat to the harvest.")


def test_a_negative_compound_said_of_something_is_the_claim() -> None:
    # "… is NON-HAZARDOUS": the claim the rule forbids, the whole word (a NON-REFUNDABLE
    # fare names no topic: a modifier of what is guarded)
    rule = "Never say a product is non-hazardous."
    assert labels(rule) == {"non hazardous"}
    holds_only(rule, "This blend is non-hazardous for transport.", "This blend is hazardous, so ship it as dangerous goods.")
    assert "non toxic" in labels("Never describe the soap as non-toxic.")
    assert labels("Never promise a refund for a non-refundable fare.") == {"refund"}


def test_a_quoted_question_does_not_end_the_sentence_it_stands_in() -> None:
    # 'asks "can you unban my account?", do not promise …': the rule after the comma was
    # read as the rationale of a sentence that ended at the question mark
    rule = 'If a player asks "can you unban my account?", do not promise to lift the ban - escalate.'
    assert "lift + ban" in labels(rule)
    holds_only(rule, "We'll lift the ban on your account today.", "Your account is active.")


def test_a_to_inside_a_routed_subject_is_its_own() -> None:
    # "any shipment TO a sanctioned country goes to compliance": the destination is
    # "compliance"; "to a sanctioned country" says which shipments
    assert "sanctioned" in words("Any shipment to a sanctioned country goes to compliance (flag).")


def test_whoever_is_blamed_comes_first_then_what_for() -> None:
    # "accuse an author OF plagiarism", "blame the municipality FOR a rejection": what is
    # blamed is the topic, whoever is blamed (whatever the noun) is not
    assert labels("Never accuse a neighbour of theft.") == {"theft"}
    assert "municipality" not in words("Flag any reply that blames the municipality for a meter rejection.")
    assert "courier" in words("Never blame the courier.")  # nothing after: who is blamed is the topic


def test_a_phrase_of_time_or_place_makes_no_container_of_the_case() -> None:
    # "flag FEVER during chemo": the fever is the case; "during chemo" says when
    assert "fever" in words("Flag fever during chemo.")
    # a phrase that names contents still does ("bookings FOR travelers with disabilities")
    assert "bookings" not in words("Flag bookings for travelers with disabilities.")


def test_the_shorthand_re_of_notes_is_about() -> None:
    # "No tax advice RE: withdrawals": the colon heads nothing, "re" is no topic word
    rule = "No tax advice re: non-qualified withdrawals"
    assert "re" not in words(rule) and "withdrawals" in words(rule)
    assert words("re: pregnancy timing after surgery - flag, refer to OB") == {"pregnancy"}
    assert "re" not in words("We're unable to refund deposits.")  # "'re" of a contraction


def test_who_alone_may_after_a_verdict_is_no_field_of_a_record() -> None:
    # "Deposit refunds: BLOCK - MGMT ONLY": the verdict is on the heading; "mgmt only"
    # says who may, and was read as the thing blocked
    rule = "Deposit refunds: BLOCK - mgmt only."
    assert "mgmt" not in words(rule) and "refunds" in words(rule)


def test_a_quote_or_an_estimate_is_a_light_head() -> None:
    # "tail coverage QUOTES", "drying time ESTIMATES": a stated figure of what the words
    # before name, as "stroke SYMPTOMS" are of the stroke; the draft states the figure
    rule = "Interest rate quotes -> flag (must show APR + fees)"
    assert "interest + rate" in labels(rule)
    holds_only(rule, "The interest rate on this loan is 2% a month.", "Your loan is approved.")
    assert labels("Never give a quote.") == {"quote"}  # alone, it is the whole topic


@pytest.mark.parametrize(
    ("rule", "topic"),
    [
        ("Route to the QA manager: any mention of a failed proficiency test.", "proficiency"),
        ("Escalate to billing: any refund over $500.", "refund"),
    ],
)
def test_a_routing_that_names_only_its_destination_routes_the_case_after_its_colon(rule: str, topic: str) -> None:
    # the case after the colon was read as the rationale: the rule derived nothing (or its
    # destination) and would have been refused at load
    found = words(rule)
    assert topic in found and not {"manager", "billing", "qa"} & found


@pytest.mark.parametrize(
    ("rule", "topic", "alone"),
    [
        ("Loyalty vouchers expire after a year. Agents must never extend them.", "extend + vouchers", "extend"),
        ("The cleaning surcharge is fixed; flag any reply that reduces it.", "reduces + surcharge", "reduces"),
        ("The club does not host tournaments; flag drafts that organise one.", "organise + tournaments", "organise"),
        # the subject of a passive in what may not be said
        ("Storm damage is excluded on the basic plan. Never say it's covered.", "covered + damage", "covered"),
        ("Refund requests go to the billing team. Never tell a member one will be approved.", "refund", "approved"),
    ],
)
def test_a_pronoun_stands_for_what_the_rule_named_before(rule: str, topic: str, alone: str) -> None:
    assert topic in labels(rule)
    assert alone not in labels(rule)  # the act alone would hold every draft that extends, reduces, is covered …


def test_an_act_on_a_pronoun_holds_what_it_stands_for_and_not_every_act() -> None:
    holds_only("Loyalty vouchers expire after a year. Agents must never extend them.",
               "I've extended your vouchers to March.", "We've extended our opening hours to 9pm.")


def test_a_pronoun_of_another_number_leaves_the_act_alone() -> None:
    # "it" cannot stand for "their own appeals": the act keeps guarding whatever is submitted
    rule = "Members file their own appeals. Never submit it for them."
    assert "submit" in labels(rule)
    assert not any(label.startswith("submit +") for label in labels(rule))


@pytest.mark.parametrize("allowing", ["but you may", "but they could", "but I will"])
def test_what_a_rule_allows_after_but_with_a_subject_and_a_modal_is_no_topic(allowing: str) -> None:
    rule = f"Never quote a repair price over chat, {allowing} book a site visit."
    assert not {"book", "site", "visit"} & words(rule)
    assert "price" in words(rule)


def test_a_plural_after_to_is_who_receives_not_an_infinitive() -> None:
    # "to BROKERS" is no verb: the rates are what is quoted, the brokers whom to
    rule = "Do not quote freight rates to brokers or shippers."
    assert {"rates"} <= words(rule) and not {"brokers", "shippers"} & words(rule)
    holds_only(rule, "Our freight rate for that lane is $2.80 a mile.", "The broker emailed the signed load sheet.")


def test_an_it_before_an_adjective_and_an_infinitive_stands_for_nothing_before() -> None:
    # "it's fine TO FLY": the act is what is said to be fine, no noun the rule named
    assert "fly" in words("Never tell travellers it's fine to fly.")


def test_a_party_named_after_a_negated_passive_may_not_act_and_holds_nothing() -> None:
    # "can't be reissued BY THE DESK" forbids the desk's act; "only by" gives the matter away
    # (and a threshold with no unit, "more than $50", leaves the "can't" after it alone)
    rule = "Gift cards worth more than $50 can't be reissued by the desk."
    assert "reissued" in words(rule)
    holds_only(rule, "I'll reissue your gift card this afternoon.", "Gift cards are sold in every store.")


@pytest.mark.parametrize(
    ("rule", "not_a_topic"),
    [
        ("Never agree to re-cane a chair seat, we can't, offer the cushion pad instead.", "cushion"),
        ("Opened tubs of paint never get refunded - not even for colour mistakes.", "colour"),
    ],
)
def test_what_to_do_instead_and_what_a_rule_insists_on_are_no_topics(rule: str, not_a_topic: str) -> None:
    assert not_a_topic not in words(rule)


def test_hinting_is_a_verb_of_saying_and_its_object_the_topic() -> None:
    assert "hint" not in words("Do not confirm or hint at unannounced supplier deals.")
    holds_only("Never hint at unreleased product launches.",
               "The unreleased launch of the new headset is set for May.", "Here's a hint: restart the app.")


def test_copies_to_a_plural_the_dictionary_lacks_names_who_gets_them() -> None:
    # "copies TO BLOGGERS": a recipient, not what the copies are of
    assert "bloggers" not in labels("Don't promise free sample boxes or review copies to bloggers.")


def test_after_a_routing_heading_a_case_that_any_opens_is_what_is_routed() -> None:
    rule = "Flag leaks: anything revealing the lineup of next season's festival."
    assert "lineup" in words(rule)
    # "every …" after a routing says what is so, and stays the rule's reason
    assert "facility" not in words("Flag allergy questions. Every kit is packed in a shared facility.")


def test_a_word_before_an_object_pronoun_is_a_verb_even_after_a_verb_of_saying() -> None:
    # "share or SELL them": the list goes on with an act, which takes what "them" stands for
    rule = "Our glaze recipes are trade secrets. Don't share or sell them."
    assert "sell" not in labels(rule) and "sell + recipes" in labels(rule)


@pytest.mark.parametrize("connective", ["Also never", "And never", "In particular, don't", "Specifically never", "Above all, never"])
def test_a_later_sentence_a_connective_opens_before_its_directive_states_more_of_the_rule(connective: str) -> None:
    rule = f"Don't give tax advice. {connective} tell a client their home office is deductible."
    assert "deductible" in words(rule)
    holds_only(rule, "Good news: your home office is deductible.", "Please keep your receipts for the accountant.")
    # a sentence with a subject of its own before "not" is what is so, not a directive
    assert "accountants" not in words("Don't give tax advice. We are not accountants.")


def test_a_condition_inside_the_subject_of_what_is_said_ends_where_its_verb_comes() -> None:
    # "orders placed AFTER 2PM will ship the same day": the phrase sits in the subject; what
    # is said of it ("will ship the same day") is the topic, not cut as part of the condition
    rule = "Never tell a customer that orders placed after 2pm will ship the same day."
    assert "ship + day" in labels(rule) or "orders + ship" in labels(rule)
    holds_only(rule, "Good news, your order will ship the same day.", "Thanks for being a loyal customer.")
    # where the clause's verb came before the condition, the condition still ends the rule
    assert "received" not in words("Never say that we ship orders before payment is received.")
    # a relative clause ("replies THAT refund …") is no clause said
    assert "started" not in words("Flag replies that refund tickets after the showtime has started.")


def test_what_a_fact_says_beyond_the_thing_a_later_pronoun_takes_is_no_topic() -> None:
    # the pronoun takes the fact's subject into the rule; the rest of the fact is what the
    # agent may say ("are set in the contract"), so a draft saying it is let through
    rule = "Cancellation fees are set in the lease. Never waive one."
    assert {"set", "lease"}.isdisjoint(words(rule))
    assert "cancellation + fees" in labels(rule)
    holds_only(rule, "We'll waive the cancellation fee this time.", "Everything else is set in the lease you signed.")
    # with no pronoun pointing back, the fact is the rule itself and keeps its words
    assert "lease" in words("Cancellation fees are set in the lease.")


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Gym passes expire after a year. Don't say they last forever.", "Your gym passes last forever."),
        ("Swim lessons run on weekdays. Never say they meet on Sundays.", "Good news: the swim lessons meet on Sundays now."),
    ],
)
def test_they_after_a_verb_of_saying_stands_for_what_the_rule_named_before(rule: str, draft: str) -> None:
    g = gate(rule)
    assert held(g, draft)
    # what the first sentence says is what the agent is to say instead
    assert not held(g, "They expire after a year and run on weekdays.")
    # after a person told, "they" is that person ("tell members THEY can …")
    assert "members" not in words("Never tell members they can bring guests.")
    # a passive said of such a "they" pairs with what it stands for, as one said of "it" does
    assert "refunded + passes" in labels("Gym passes expire after a year. Never say they are refunded.")
    # and so does one with a modal between ("they CAN BE refunded", "they WILL last")
    assert "refunded + passes" in labels("Gym passes expire after a year. Never say they can be refunded.")
    assert "last + passes" in labels("Gym passes expire after a year. Don't say they will last forever.")
    # but where a person says it, "they" is that person ("a rider SAYS THEY were …")
    assert "accident" in labels("Hand off to a human when a rider says they were in an accident.")


def test_the_verb_of_a_fact_before_a_rule_is_read_as_a_verb_not_a_noun_of_its_subject() -> None:
    # "Swim lessons RUN on weekdays": the plural subject and its verb, not one noun phrase
    rule = "Swim lessons run on weekdays. Never say they meet on Sundays."
    assert "meet + lessons" in labels(rule) or "meet + swim" in labels(rule)
    assert "lessons + run" not in labels(rule) and "swim + run" not in labels(rule)


def test_a_frame_noun_after_the_act_and_its_object_does_not_drop_them() -> None:
    # "… because of the RISK OF injury": the frame names the reason, after the rule's own act
    rule = "Never book pregnant guests onto climbing sessions because of the risk of injury."
    assert "pregnant" in words(rule)
    assert held(gate(rule), "I've booked you onto climbing while you're pregnant.")
    # a frame that opens the item, or follows a container or the person told, still frames it
    assert "self + harm" in labels("Flag any mention of self-harm.")
    assert "arson" in words("Flag any claim showing signs of arson.")
    assert "property + value" in labels("Never give a client an opinion on property value.")


def test_the_doer_of_a_passive_named_as_the_party_bound_is_no_topic() -> None:
    # "… must not be calculated BY THE REFERRAL AGENT": who would do it, with the words
    # that say which, is the party the rule binds, as "The referral agent must not …" is
    rule = "Filing deadlines must not be calculated by the referral agent."
    assert "filing + deadlines" in labels(rule)
    assert not any("agent" in label or "referral" in label for label in labels(rule))
    g = gate(rule)
    assert held(g, "Your filing deadline, as I've calculated it, is 3 May.")
    assert not held(g, "The referral agent will email you the lawyer's details.")
    # a "by" phrase that names no such party stays ("approved by a court")
    assert "court" in " ".join(labels("Settlements must not be described as approved by a court."))


def test_but_after_anyone_is_an_exception_as_except_is() -> None:
    # "shared with anyone BUT the assigned lawyer": the lawyer is who may have it, not the topic
    rule = "Caller details must not be shared with anyone but the assigned lawyer."
    assert labels(rule) == labels("Caller details must not be shared with anyone.")
    g = gate(rule)
    assert held(g, "We share caller details with local firms for marketing.")
    assert not held(g, "The assigned lawyer will contact you by email.")


@pytest.mark.parametrize(
    ("rule", "topic", "allowed"),
    [
        ("don't give out service centre staff names or direct numbers, main line only", "staff + names", "main + line"),
        ("Never promise a spot in a full class - waitlist only.", "spot", "waitlist"),
    ],
)
def test_what_alone_is_allowed_after_the_rule_is_no_topic(rule: str, topic: str, allowed: str) -> None:
    # ", MAIN LINE ONLY", "- kids' sessions only": what or who alone may, no part of the case
    assert topic in labels(rule)
    assert not any(allowed in label for label in labels(rule))


def test_a_shared_word_in_what_alone_is_allowed_is_no_repetition_of_the_topic() -> None:
    # "adult session … - kids' sessions only": "session" is said again to set the two apart
    rule = "The bot never books a minor into an adult session - kids' sessions only."
    assert "session" not in labels(rule)
    assert not held(gate(rule), "Kids' sessions run on Saturday mornings.")


def test_doesnt_is_a_directive_as_does_not_is() -> None:
    rule = "Theft reports: the agent doesn't unlock, deregister or transfer a mower flagged as stolen."
    assert labels(rule) >= {"unlock + mower", "transfer + mower"}
    assert "agent + unlock" not in labels(rule)
    assert held(gate(rule), "I've unlocked the stolen mower so you can pair it.")


def test_a_later_clause_that_names_the_rule_by_a_demonstrative_is_a_remark() -> None:
    # "- we don't make THAT CALL": what the rule said, pointed back at, is no topic of its own
    rule = "Never say mouthwash, hand sanitiser or food caused a fail - we don't make that call."
    assert "call" not in labels(rule)
    assert "mouthwash" in labels(rule)
    assert not held(gate(rule), "We'll call you to book your next service.")


@pytest.mark.parametrize(
    "rule",
    [
        "Never advise a master or crew member on whether a vessel is seaworthy.",
        "Agents must refrain from advising audit clients on tax positions.",
    ],
)
def test_the_people_told_in_a_list_or_with_the_nouns_that_say_which_are_no_topic(rule: str) -> None:
    found = labels(rule)
    assert not any(word in label for label in found for word in ("master", "crew", "audit"))
    assert found  # what they are told is the topic


def test_two_nouns_inside_a_longer_phrase_pair_as_a_compound() -> None:
    # "FLOOD ZONE determinations": a draft gives the zone without the word "determinations"
    rule = "Flag messages about flood zone determinations or elevation certificates."
    assert "flood + zone" in labels(rule)
    assert held(gate(rule), "Your home sits in flood zone AE.")
    # an adjective or a verb in the phrase is no noun of a compound
    assert "fresh + fruit" not in labels("Never promise fresh fruit deliveries on Sundays.")


def test_what_a_rule_forbids_diagnosing_stands_alone_as_the_act_does() -> None:
    # "Never DIAGNOSE a concussion": a draft diagnoses by naming it ("you have a concussion")
    rule = "Never diagnose a concussion in chat."
    assert {"diagnose", "concussion"} <= labels(rule)
    assert held(gate(rule), "You have a concussion, so rest from screens for 48 hours.")
    # the object of another rare act keeps pairing with it ("waive" stands alone, "fee" does not)
    assert "fee" not in labels("Never waive a fee.")


def test_a_verb_of_saying_after_the_party_bound_is_its_verb() -> None:
    # "any chat where THE AGENT MENTIONS cancelling …": who speaks and the frame, not topics
    rule = "flag any chat where the agent mentions cancelling the customer's policy for non-payment"
    assert not any("agent" in label or "mentions" in label for label in labels(rule))
    assert held(gate(rule), "We're cancelling your gadget policy due to non-payment of premiums.")


def test_chat_spellings_read_as_the_words_they_stand_for() -> None:
    # "THEYLL", "b4", "thru": a pronoun's contraction without its apostrophe, and shorthand
    assert tokens("theyll get a penalty b4 the consultant has gone thru them") == [
        "they", "will", "get", "a", "penalty", "before", "the", "consultant", "has", "gone", "through", "them"]
    assert "theyll" not in " ".join(labels("no telling landlords theyll get a civil penalty or prosecution"))
    # a spelling that is a word of its own stays that word ("well", "were"), and a paper
    # size or a form's name stays a name
    assert tokens("were well") == ["were", "well"]
    assert "before" not in tokens("Never print invoices on B4 paper.")


def test_a_bare_noun_that_ends_a_routing_is_where_the_case_goes() -> None:
    # "Escalate refunds TO BILLING": the department, not a topic (nor "bill" the act)
    assert labels("Escalate refunds to billing.") == {"refunds"}
    g = gate("Escalate refunds to billing.")
    assert not held(g, "Billing will send your invoice on Friday.")
    # a verb before it keeps its "to": "… that mention SENDING an account TO COLLECTIONS"
    assert "collections" in labels("Flag replies that mention sending an account to collections.")
    # and an infinitive is no destination ("fails TO CONNECT")
    assert "connect" in labels("Flag any call where the pendant button fails to connect.")


def test_an_ing_word_before_an_attribute_in_an_object_is_what_the_attribute_is_of() -> None:
    # "promise PROCESSING times": the times of processing, not the frame "process" and
    # `times` alone (which would fire on "take two tablets three times a day")
    assert labels("Never promise processing times.") == {"processing + times"}
    assert not held(gate("Never promise processing times."), "Take two tablets three times a day.")
    # the act itself still frames its object ("no QUOTING prices …")
    assert "prices" in labels("No quoting prices for upcoming drops or unreleased strains.")


def test_a_phrase_after_a_bracket_goes_on_with_what_came_before_it() -> None:
    # "remedies (ginger, turmeric) FOR ARTHRITIS": what the remedies are for, not a topic alone
    rule = "Do not suggest remedies (ginger, turmeric or fish oil) for arthritis."
    assert "arthritis" not in labels(rule)
    g = gate(rule)
    assert not held(g, "Our arthritis clinic opens at nine on Mondays.")
    assert held(g, "Turmeric capsules twice a day should help.")


def test_a_british_spelling_of_a_verb_matches_its_american_forms() -> None:
    # "enrol" inflects as "enrolled", the forms of "enroll"; "fulfil" as "fulfilled"
    g = gate("Never enrol a child on the holiday camp without a signed consent form.")
    assert held(g, "Your daughter is enrolled on the holiday camp for August.")
    assert {"fulfilled", "fulfilling"} <= family("fulfil")
    # a word of another part of speech is no spelling of it ("until" is no "untill")
    assert "untill" not in family("until")


def test_a_question_joined_by_or_to_what_a_rule_forbids_advising_on_is_its_topic_too() -> None:
    # "advise on pay disputes OR WHEN the next pay rise is due": a second thing advised on,
    # not a condition that ends the rule
    rule = "Never comment on pay disputes or when the next pay rise is due."
    assert "pay + rise" in labels(rule)
    assert held(gate(rule), "Your pay rise should land in April.")


def test_who_decides_after_a_comma_is_the_rules_reason_not_its_topic() -> None:
    # "never promise a refund, THE BILLING TEAM DECIDES": a sentence of its own, spliced on
    # with a comma (after a closed bracket as well)
    for rule in ("Never promise a refund, the billing team decides.",
                 "Never promise extras (upgrades, late checkout) will be given, the duty manager decides."):
        assert not any("decides" in label or "team" in label or "manager" in label for label in labels(rule))
    assert not held(gate("Never promise a refund, the billing team decides."), "The billing team decides on Mondays.")


def test_a_plural_noun_of_saying_with_a_limit_opens_the_case_it_names() -> None:
    # "QUOTES above £1,000 must be escalated": the quotes, not the verb "quote" framing nothing
    rule = "Quotes above £1,000 must be escalated to the sales lead."
    assert labels(rule) == {"quotes"}
    assert held(gate(rule), "Your quote for the loft conversion is £14,000.")
    # the same noun before "for" or "of" frames its topic ("quotes FOR a room")
    assert "quotes" not in " ".join(labels("Quotes for private dining rooms must come from the events manager."))


def test_a_word_of_absence_answers_a_rule_about_whether_something_is_so() -> None:
    # "never guess WHETHER a sauce has nuts": "the sauce is nut-free" is one answer to it
    g = gate("Never guess whether a sauce has nuts.")
    assert held(g, "The satay sauce is nut-free.")
    # a negation of the act itself still sets the hit aside
    assert not held(g, "I can't tell you anything about nuts in the sauce; the chef will check.")


def test_an_adverb_between_the_verb_be_and_a_preposition_keeps_the_phrase_a_predicate() -> None:
    # "their appliance is STILL UNDER warranty": what is said of it, as "is under warranty" is
    rule = "Never tell a caller their appliance is still under warranty."
    assert labels(rule) == labels("Never tell a caller their appliance is under warranty.") == {"warranty"}
    assert held(gate(rule), "The manufacturer's warranty covers that dishwasher until May.")


def test_a_plural_of_an_age_matches_its_singular() -> None:
    # "under-12s": "an under-12" is one of them, written without the plural's "s"
    g = gate("Never let under-12s use the climbing wall alone.")
    assert held(g, "Your under-12 is welcome to go up on their own this afternoon.")
    assert not held(g, "The climbing wall opens at nine.")


def test_a_short_word_and_its_derived_forms_are_one_family() -> None:
    # "safe" / "safely", "pay" / "payable", "fit" / "fitness": a base of three or four letters
    assert "safely" in family("safe") and "payable" in family("pay") and "fitness" in family("fit")
    assert held(gate("Never tell a guest the ice is safe to walk on."), "You can walk on the ice safely today.")
    # … but not where the spelling relates two words English does not ("hardly", "capable")
    assert "hardly" not in family("hard") and "capable" not in family("cap") and "harness" not in family("har")


def test_a_later_sentence_that_sends_cases_on_names_no_topic_of_its_own() -> None:
    # "Never cancel a PCN. REFER TO parking appeals": where to go instead, with or without
    # an object ("Refer wound questions TO the nurse"); a sentence that flags replies is a
    # rule of its own
    for rule in ("Never promise to cancel a parking fine. Refer to parking appeals.",
                 "Never say a horse is sound. Pass lameness worries to the yard vet."):
        assert not any("appeals" in label or "lameness" in label or "vet" in label for label in labels(rule))
    assert not held(gate("Never promise to cancel a parking fine. Refer to parking appeals."),
                    "Parking appeals are open on weekdays.")
    assert "lameness" in " ".join(labels("Never say a horse is sound. Flag replies about lameness."))
    # a plural noun before "are" is a subject, no imperative: "HOLDS are first come"
    assert not any("served" in label or "come" in label
                   for label in labels("Never hold a puppy for anyone. Holds are first come, first served."))


def test_latinate_stems_that_change_before_the_suffix_are_one_family() -> None:
    # "redemptions" / "redeeming", "consumption" / "consume", "response" / "respond"
    assert "redeeming" in family("redemption") and "consumption" in family("consume")
    assert "respond" in family("response") and "maintenance" in family("maintain")
    assert held(gate("Never process redemptions over $50,000 by chat."), "Redeeming $60,000 for you today.")
    # … but not the pairs the same endings relate by chance ("reception" is no receiving)
    assert "reception" not in family("receive") and "complication" not in family("comply")


def test_a_person_noun_after_a_and_its_adjectives_is_what_the_rule_says_of_them() -> None:
    # "tell a patient they're A GOOD CANDIDATE for …": being one is the topic, as "whether
    # someone is A PATIENT here" is; the person told is still no topic
    rule = "Never tell a volunteer they are a suitable candidate for the vaccine trial."
    assert "suitable + candidate" in labels(rule) and "volunteer" not in " ".join(labels(rule))
    g = gate(rule)
    assert held(g, "Based on your bloods you're one of our most suitable candidates for the trial.")
    assert not held(g, "Thanks for volunteering; the trial team will call you on Monday.")


def test_a_pronoun_after_a_heading_and_a_sentence_stands_for_what_the_sentence_names() -> None:
    # "Rates: GROUP DISCOUNTS over 10% need the sales director's OK. Never offer THEM": the
    # pronoun takes what the second sentence names, not the heading
    rule = "Rates: group discounts over 10% need the sales director's OK. Never offer them."
    assert "rates" not in labels(rule) and any("discounts" in label for label in labels(rule))
    g = gate(rule)
    assert held(g, "I can give your group a 12% discount on the block booking.")
    assert not held(g, "Our rates for the conference rooms are on the website.")


def test_subjects_joined_by_or_share_what_the_rule_says_of_them() -> None:
    # "tell a member that A WAIVER or refund will be granted": both are granted, as each
    # would be alone; a common word in the first item no longer stands alone
    rule = "Never tell a member that a transfer or extension will be approved."
    assert {"transfer + approved", "extension + approved"} <= labels(rule)
    g = gate(rule)
    assert held(g, "Your transfer to the Tuesday class is approved.")
    assert not held(g, "Transfers between classes are handled by the front desk.")
    # what is said to be confidential guards each item alone ("salary and package ARE CONFIDENTIAL")
    assert "salary" in labels("A transferee's salary and relocation package are confidential. Never discuss them.")


def test_words_english_derives_by_a_change_of_stem_are_one_family() -> None:
    # "sale" / "sold", "width" / "wide", "destruction" / "destroyed": no suffix step relates them
    assert "sold" in family("sale") and "wide" in family("width") and "destroyed" in family("destruction")
    assert held(gate("Never approve the sale of a returned laptop."), "We'll approve selling the returned laptop.")
    assert held(gate("Do not guess the width of a doorway."), "Your doorway is 80 cm wide.")
    # … and not the pairs whose meanings drifted apart ("gift" is no giving)
    assert "give" not in family("gift") and "health" not in family("heal")


def test_an_age_below_an_under_ns_limit_names_one_of_them() -> None:
    # "under-16s": "your 14-year-old", "aged 12" are under 16; 17 is not
    g = gate("Never book under-16s onto the night hike.")
    assert held(g, "Your 14-year-old is welcome to join us on Saturday.")
    assert held(g, "A walker aged 12 is fine to join us on Saturday.")
    assert not held(g, "Your 17-year-old is welcome to join us on Saturday.")


def test_a_participle_before_the_person_told_describes_them_and_is_no_act() -> None:
    # "offer RETURNING customers a discount": who is offered it, not an act of returning
    rule = "Never offer returning customers a loyalty discount."
    assert not any("returning" in label for label in labels(rule))
    assert held(gate(rule), "I can offer you a 10% loyalty discount on this order.")
    # in a verb's own place the -ing form is still the act ("Avoid CONTACTING customers …")
    assert any("contacting" in label for label in labels("Avoid contacting customers after 9pm."))


def test_the_word_after_a_predicates_verb_is_its_object_not_another_verb() -> None:
    # "say non-members can join CLUB RUNS": what they'd join, not more verbs standing alone
    # as a state of the person ("club", "runs")
    rule = "Never tell callers non-members can join club runs."
    assert "club + runs" in labels(rule) and not {"club", "runs", "join"} & labels(rule)
    g = gate(rule)
    assert held(g, "Non-members can join the Thursday club runs.")
    assert not held(g, "The club meets at seven on Thursdays.")


def test_people_named_by_an_age_limit_are_the_under_ns_where_nothing_else_is_guarded() -> None:
    # "Don't book MEMBERS UNDER 16 without …": the member is no topic and the condition is
    # none, so the rule guarded nothing and would not load; its age limit is what it guards
    rule = "Don't book members under 16 without a guardian's written consent."
    assert labels(rule) == {"under 16s"}
    g = gate(rule)
    assert held(g, "Your 15-year-old is booked for Thursday evening.")
    assert not held(g, "Your 17-year-old is booked for Thursday evening.")
    # a rule that guards something else keeps its own reading ("… must not be offered WINE")
    assert "wine" in words("Guests under 21 must not be offered wine.")


def test_anyone_named_by_an_age_limit_is_one_of_the_under_ns() -> None:
    # "Never book ANYONE UNDER 18": a pronoun of people says who as a plural noun does;
    # without its age limit the rule guarded nothing and would not load
    for rule in ("Never book anyone under 18, even with a parent there.", "Do not book anybody under 21."):
        assert labels(rule) in ({"under 18s"}, {"under 21s"})
    g = gate("Never book anyone under 18, even with a parent there.")
    assert held(g, "Your 16-year-old is booked in for Saturday.")
    assert not held(g, "Your 19-year-old is booked in for Saturday.")
    assert not held(g, "We can't book anyone under 18, even for a lobe piercing.")
    # … and so does one person named by a noun ("a new PATIENT under 16"), before what the
    # rule's condition names ("without a parent or guardian consenting")
    rule = "Agents must not book a new patient under 16 without a parent or guardian consenting."
    assert labels(rule) == {"under 16s"}
    assert held(gate(rule), "I've booked your 14-year-old in for Saturday, and she can come on her own.")


def test_a_clipping_and_its_full_word_are_one_family() -> None:
    # "photos" / "photographing", "exam" / "examination"
    assert "photographing" in family("photo") and "examination" in family("exam")
    assert held(gate("Never share photos of other members."), "Photographs of the other members are on our page.")


@pytest.mark.parametrize("condition", ["unless", "if", "until"])
def test_a_condition_is_read_as_a_rule_once_not_again_inside_itself(
        condition: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a rule that guards nothing but its condition reads the condition as a rule; that
    # reading does not look for a condition again, so a run of "unless" costs a few
    # readings instead of two per word (2^n: fifteen of them took seconds, forty never end)
    from redline.policy import topics

    readings: list[str] = []
    real = topics._derive

    def counted(rule: str, ages: bool = False, condition: bool = False) -> topics.Derivation:
        readings.append(rule)
        return real(rule, ages, condition)

    monkeypatch.setattr(topics, "_derive", counted)
    topics.derive_topics.cache_clear()
    try:
        topics.derive_topics(" ".join([condition] * 40) + " a customer asks about refunds")
    finally:
        topics.derive_topics.cache_clear()
    assert len(readings) <= 4
    # the condition is still what a rule that names nothing else guards
    assert "forecast" in words("Never take guests out when the marine forecast has a small craft advisory.")


def test_a_run_of_framing_words_is_read_in_time_linear_in_its_length(monkeypatch: pytest.MonkeyPatch) -> None:
    # each framing word is a noun when the word before it is ("a delivery DATE"): reading
    # a run of them back to its start for every word cost its length squared
    from redline.policy import reading, topics

    calls = 0
    real = reading._role

    def counted(*args: Any) -> tuple[str, int]:
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(reading, "_role", counted)
    topics.derive_topics.cache_clear()
    try:
        topics.derive_topics("Never " + '"say ' * 300 + "a refund is approved.")
    finally:
        topics.derive_topics.cache_clear()
    assert calls < 20 * 300
    # a framing word inside a noun phrase is still read as its noun
    assert "promise" in words("Never change a delivery date promise.")


def test_letters_and_digits_of_one_word_stay_one_word() -> None:
    # "B2B", "EAR99", "MP3": one word, as the draft writes it, never a fragment ("2b", "mp")
    assert tokens("Never share B2B client lists or EAR99 parts or MP3 files.")[2:9] == [
        "b2b", "client", "lists", "or", "ear99", "parts", "or"]
    assert "2b" not in words("Never share B2B client lists.")
    g = gate("Never say a part is EAR99 without an export determination.")
    assert held(g, "These parts are classified EAR99 and can go out with the standard paperwork.")
    assert not held(g, "These parts ship with the standard paperwork.")


def test_a_person_noun_that_modifies_a_noun_sets_no_hit_aside() -> None:
    # "the SIBLING discount", "our PARTNER city": a compound names nobody else, so the
    # other-experiencer cue it would be sets nothing aside; "your daughter gets" still does
    g = gate("Never promise a discount.")
    assert held(g, "I can give you the sibling discount on the second enrolment.")
    assert not held(g, "Your daughter gets a discount on classes.")
    # nor is a rule about "our partner clinic's prices" one about other people's information
    assert not about_other_people("Never share a partner clinic's prices.")
    assert about_other_people("Never tell a caller whether their partner has an account.")


@pytest.mark.parametrize("rule", [
    "Agents on the night shift must not issue refunds.",
    "Reps in the sales team should never issue refunds.",
    "Staff at the front desk cannot issue refunds.",
])
def test_a_phrase_that_places_the_party_bound_is_no_topic(rule: str) -> None:
    # "AGENTS ON THE NIGHT SHIFT must not …": which party, as "Agents must not …" says; it
    # paired its words with the topic ("night + refunds"), so a plain refund went through
    assert labels(rule) == labels("Agents must not issue refunds.") == {"refunds"}
    assert held(gate(rule), "I've issued your refund this morning.")
    # a subject that is no party stays the topic ("Refunds ON annual plans must not exceed …")
    assert "refunds" in labels("Refunds on annual plans must not exceed the amount paid.")


def test_a_speaker_placed_by_a_phrase_is_the_party_not_the_topic() -> None:
    rule = "Officers on the planning enquiry line must not tell applicants whether an application will be approved."
    assert "officers" not in labels(rule)
    assert not held(gate(rule), "Your application has been assigned to a case officer.")


def test_what_is_offered_before_a_clause_is_the_topic_not_the_person_told() -> None:
    # "offer A DISCOUNT where the order is reduced": what is offered comes first; read as
    # the person offered it ("tell OWNERS it's safe"), the rule lost its topic
    for rule, draft in (("Never offer a discount where the order is already reduced.",
                         "I've added a 10% discount to your order."),
                        ("Never promise a refund where a meeting is abandoned.",
                         "You'll get a full refund for Saturday.")):
        assert held(gate(rule), draft)
    # the person told still is the person: after a verb that only informs, a person's
    # noun, or a bare plural ("promise BEGINNERS they will …")
    assert "owners" not in words("Never tell owners it's safe to fly.")
    assert "customers" not in words("Never promise customers that a flight will leave on time.")
    assert "beginners" not in words("Don't promise beginners they will hit the gold on their first session.")


def test_a_heading_the_rule_repeats_adds_no_topic_of_its_own() -> None:
    # "Riding hats: never say a HAT is safe …": the rule names the heading's thing in what
    # it forbids; the heading alone guarded every mention of riding hats
    rule = "Riding hats: never say a hat is safe to use after a fall."
    assert labels(rule) == labels("Never say a hat is safe to use after a fall.")
    g = gate(rule)
    assert held(g, "That hat is safe to use after the fall, no need to replace it.")
    assert not held(g, "All the riding hats we sell meet PAS015 and are tagged for competitions.")
    # a heading the rule does not repeat still names the topic ("Hot TUBS on decking: … a
    # deck can take the weight": the head is the tub, not the decking)
    assert any("tubs" in label for label in labels(
        "Hot tubs on decking: the agent must not confirm a deck can take the weight."))


def test_a_participle_before_a_noun_leaves_a_sentence_of_what_is_so() -> None:
    # "LISTED buildings are a frequent source of complaints.": a subject with a participle
    # before its noun still says what is so, so it is the rule's reason, not a topic
    rule = ("Listed buildings are a frequent source of complaints. Never tell an owner that internal "
            "works to a listed building can go ahead without listed building consent.")
    assert not any("frequent" in label or "complaints" in label for label in labels(rule))
    assert "internal + works" in labels(rule)


@pytest.mark.parametrize(("rule", "draft"), [
    ("Do not accept hazardous goods: loose lithium batteries, fuel, gas cylinders, chemicals.",
     "Yes, the rider will carry your two gas cylinders to the cafe."),
    ("Never discuss the following: salaries, bonuses or equity.", "Your bonus this year is 8%."),
])
def test_a_list_after_a_colon_names_the_examples_of_what_the_rule_forbids(rule: str, draft: str) -> None:
    # "… hazardous goods: lithium batteries, fuel, …" as "such as" says it; "the
    # following: …" is a placeholder for the list, no topic of its own
    assert held(gate(rule), draft)
    assert "following" not in words(rule)
    # a heading before a colon is no rule, and no list of examples
    assert labels("Riding hats: never say a hat is safe.") == {"hat + safe"}


@pytest.mark.parametrize("reason", [
    "Condensation and black mould are usually a ventilation problem.",  # subjects joined by "and"
    "Bathroom and outdoor circuits fall under Part P.",
    "We run an approved trader scheme.",  # "we" and a present verb
])
def test_a_sentence_of_what_is_so_before_the_rule_is_its_reason(reason: str) -> None:
    # a first sentence that says what is so, before one that forbids a thing of its own,
    # is the rule's reason: its words guarded nothing the rule forbids
    rule = f"{reason} Never recommend a damp-proof course injection to a customer."
    assert labels(rule) == labels("Never recommend a damp-proof course injection to a customer.")


def test_an_adverb_of_frequency_before_the_verb_leaves_a_sentence_of_what_is_so() -> None:
    rule = "Riders sometimes ask about fine amounts. Never say that a fine will be reduced."
    assert not any("riders" in label for label in labels(rule))
    # a preposition is no adverb: "Questions ON travel vaccines: …" stays the rule's heading
    assert any("vaccines" in label for label in labels(
        "Questions on travel vaccines: do not answer, route to the travel health clinic."))


def test_what_the_person_told_is_told_about_is_the_topic() -> None:
    # "advise A FARMER ON withdrawal periods": the phrase after the person told is what
    # they are told, not a modifier of the person (the rule guarded nothing of it)
    rule = ("Never advise a farmer on withdrawal periods for veterinary medicines, or say that a recently "
            "treated animal is OK to send.")
    g = gate(rule)
    assert "withdrawal + periods" in labels(rule)
    assert held(g, "The withdrawal period for that penicillin is only five days, so send the calves Monday.")
    assert not held(g, "Your calves are booked in for Monday morning.")


def test_whom_a_thing_is_shared_with_is_not_the_topic() -> None:
    # "share a patient's RESULTS with a partner": where the rule names only a light noun,
    # the person it goes to is not the topic in its place
    rule = "Never share a patient's results with a partner, parent or anyone else without written consent."
    assert labels(rule) == {"results"}
    assert held(gate(rule), "The results of your screen went to your husband's email this morning.")
    # "to" names where a thing goes as often as to whom: "sending an account TO COLLECTIONS"
    assert labels("Flag replies that mention sending an account to collections.") == {"collections"}


def test_a_light_noun_in_a_list_shares_the_modifier_of_the_item_before_it() -> None:
    # "unreleased products, FEATURES or launch dates": "features" names nothing alone
    rule = "Agents must not discuss unreleased products, features or launch dates."
    assert "features + unreleased" in labels(rule)
    g = gate(rule)
    assert held(g, "An unreleased feature for pet-hair detection is coming next month.")
    assert not held(g, "The new features in last month's update are listed in the app.")


def test_what_is_said_of_a_thing_named_only_in_general_is_the_topic() -> None:
    # "a PRODUCT has been RECALLED": a draft names the product itself ("your robot
    # model"), so the word said of it stands alone where it is specific enough
    rule = "Do not tell customers a product has been recalled unless it appears on the official recall page."
    assert "recalled" in labels(rule)
    g = gate(rule)
    assert held(g, "Your robot model has been recalled, so please stop using it.")
    assert not held(g, "Your robot model ships with a spare brush and two filters.")
    # a common word said of it still pairs with the thing ("an item is SAFE")
    assert "safe" not in labels("Never tell a customer an item is safe for children.")


@pytest.mark.parametrize("rule", ["Never share the customer list.", "Do not give our guest list to anyone."])
def test_a_noun_after_a_persons_noun_is_what_it_modifies_not_a_verb(rule: str) -> None:
    # "the customer LIST": read as a verb of saying after the person told, the rule named
    # nothing and would not load
    assert "list" in words(rule)
    assert held(gate(rule), "Sure, the full list of our customers and guests is attached.")
    # a verb stays a verb where it acts on something, or agrees with its subject
    assert "list" not in words("Do not help a seller list counterfeit or replica branded goods.")
    assert "mentions" not in words("If a member mentions being bitten by an animal, hand it to a human.")


def test_an_ing_word_alone_at_the_end_of_a_list_of_nouns_is_a_noun() -> None:
    # "schematics OR PRICING": read as a verb with no object, the last item guarded nothing
    rule = "Don't share one customer's Gerber files, BOMs, schematics or pricing with another customer."
    assert "pricing" in labels(rule)
    assert held(gate(rule), "Pricing for that board, the one we quoted the other client, is $14 per unit.")
    # a list of acts stays a list of acts, each with its object
    assert "changing + medication" in labels("Never advise on starting, stopping or changing medication.")


@pytest.mark.parametrize("rule", [
    "Within 14 days of the event, agents must not offer a refund or free transfer.",
    "Within 14 days of the event, do not offer a refund or free transfer.",
])
def test_a_phrase_of_time_put_first_says_when_not_what(rule: str) -> None:
    # "Within 14 DAYS of the event, AGENTS must not …": read as a clause of its own, the
    # phrase guarded "days", and the party bound stayed the subject ("agents + refund")
    assert "days" not in labels(rule) and "agents" not in words(rule)
    g = gate(rule)
    assert held(g, "Your booking for this Saturday can be refunded in full.")
    assert not held(g, "Your event is in 14 days; see you there!")


@pytest.mark.parametrize("rule", [
    "No agent may recommend supplements or devices for tinnitus.",
    "No staff member should recommend supplements or devices for tinnitus.",
])
def test_no_party_and_a_modal_forbid_the_act_as_never_does(rule: str) -> None:
    assert "agent" not in words(rule) and "staff" not in words(rule)
    assert held(gate(rule), "Taking a magnesium supplement should ease the tinnitus you're hearing.")


def test_what_is_said_of_the_party_bound_is_no_topic_alone() -> None:
    # the party the rule binds is no thing named in general: "agents must not APPROVE …"
    # guards the approval of deploys, not every approval
    assert "approve" not in labels("During a change freeze, agents must not approve deploys to production.")


def test_a_very_common_head_pairs_with_what_it_is_of() -> None:
    # "the CAUSE of a flight delay": "cause" alone fired on every draft giving a reason
    rule = "Do not speculate about the cause of a flight delay."
    assert "cause" not in labels(rule)
    g = gate(rule)
    assert held(g, "The cause of your flight's delay was a crew shortage.")
    assert not held(g, "Because of the storm, the lounge closes early; that's the cause of the queue.")


@pytest.mark.parametrize(("rule", "draft"), [
    # a passive of a verb of saying, then an adverb that ends the clause: what happened
    ("Never tell a caller whether a specific patient is admitted here.", "Yes, she was admitted to ward 4 last night."),
    # a person's noun said of the person ("they are A JOURNALIST"): what the case is
    ("Escalate any caller who says they are a journalist to the press office.",
     "Thanks, I'm a journalist at the Herald and I'd like a comment."),
])
def test_what_the_rule_says_someone_is_guards_something(rule: str, draft: str) -> None:
    # both derived nothing, so their policy would not load
    assert derive_topics(rule).topics
    assert held(gate(rule), draft)


def test_a_noun_or_adjective_and_the_verb_made_of_it_are_one_family() -> None:
    # -ize / -ise / -en: "a subsidy" is what is "subsidized", "threats" what "threatened" says
    for base, verb in (("subsidy", "subsidized"), ("threat", "threatened"), ("final", "finalized"),
                       ("strength", "strengthen"), ("pressure", "pressurised")):
        assert verb in family(base), (base, verb)
    # where the spelling relates words English does not ("organ" / "organize")
    for base, verb in (("organ", "organize"), ("capital", "capitalize"), ("author", "authorized")):
        assert verb not in family(base), (base, verb)
    assert held(gate("Flag replies that quote premium subsidy percentages."),
                "The premium is subsidized at 48% on the enterprise unit.")


def test_a_noun_and_the_adjective_of_having_it_are_one_family() -> None:
    # -y: "a fault" is what "faulty" says a thing has, "mould" what "mouldy" does
    for noun, adjective in (("fault", "faulty"), ("mould", "mouldy"), ("risk", "risky"), ("guilt", "guilty")):
        assert adjective in family(noun), (noun, adjective)
    for noun, adjective in (("class", "classy"), ("draft", "drafty"), ("sensor", "sensory")):
        assert adjective not in family(noun), (noun, adjective)
    assert held(gate("Never tell customers they can paint straight over mould."),
                "Painting over mouldy patches is fine with two coats.")


def test_a_verb_of_saying_alone_after_a_noun_in_a_list_is_a_noun() -> None:
    # "a spill or LEAK": read as a verb of disclosure, the item named nothing
    rule = "Never give advice on cleaning up a spill or leak."
    assert "cleaning up + leak" in labels(rule)
    assert held(gate(rule), "Cleaning up the leak is easy: put absorbent pads around the valve.")


def test_an_act_on_what_a_detector_finds_is_a_topic() -> None:
    # "password" goes to the credentials detector, which finds a secret, not the act of
    # resetting one: the verb whose object it is pairs with it
    rule = "Must not reset a user's password or MFA without verifying their identity."
    assert "reset + password" in labels(rule)
    holds_only(rule, "I've reset your password, and a temporary one is on its way by text.",
               "Your password needs at least twelve characters.")


def test_a_noun_of_when_named_by_its_for_phrase_guards_what_is_to_happen() -> None:
    # "a date FOR a smart meter installation" is "a smart meter installation date"
    rule = "Do not promise a specific date for a smart meter installation."
    assert "installation" in labels(rule) and "smart + meter" in labels(rule)
    holds_only(rule, "We'll install the smart meter on Tuesday morning, I promise.",
               "Your energy bill for March is attached.")
    # a word before the noun of when names it already: the "for" phrase stays a modifier
    assert "delivery" in labels("Never promise delivery dates for custom doors.")
    # "in time for" is no noun phrase: "time" stays where it stands
    assert "guarantee + time" in labels("Never guarantee a transfer will get a passenger to the airport in time for their flight.")


def test_a_denied_date_for_your_thing_stays_denied() -> None:
    # "for your …" ends a negation that runs forward ("no diagnosis for his pain"), but
    # after a noun of when it goes on with what is denied, as after "time"
    g = gate("Do not promise a specific date for a smart meter installation.")
    assert not held(g, "We can't promise a date for your smart meter installation, as the network schedules visits.")
    assert held(g, "Your smart meter installation is booked for Friday.")


def test_a_when_clause_after_a_verb_of_judging_or_a_noun_of_when_is_what_is_guarded() -> None:
    # "estimating WHEN …" asks a question, as "say when …" does; "a date WHEN …" names
    # what is to happen: neither is the case the rule applies in
    rule = "Avoid estimating when a known outage will be fixed."
    assert "outage + fixed" in labels(rule)
    holds_only(rule, "The outage should be fixed within the hour.", "Thanks for reporting the slow page.")
    rule = "Never state a date when a delinquent unit's contents will be auctioned."
    assert "auctioned" in labels(rule)
    assert held(gate(rule), "The contents of your unit will be auctioned on May 14.")
    # after any other verb, "when" opens the case: "Never call WHEN the customer is driving"
    assert "customer + driving" not in labels("Never call when the customer is driving.")


def test_an_attribute_is_named_by_what_it_is_for() -> None:
    # "repair COSTS FOR hoist rope replacement": the costs of a rope replacement
    rule = "Do not quote repair costs for hoist rope replacement over the phone."
    assert {"hoist + rope", "costs + replacement"} <= labels(rule)
    holds_only(rule, "Your hoist rope replacement is quoted at $12,500.",
               "The lift passed its annual safety inspection.")
    # an amount of money still stands for the price alone: a draft writes "$450"
    assert "price" in labels("Never quote a price for a repair over chat.")


def test_a_prediction_frames_what_it_is_about() -> None:
    # "predictions ON chargeback wins" guard the chargebacks, as "advice on …" does
    rule = "No predictions on chargeback wins or losses."
    assert "predictions" not in words(rule) and "chargeback" in labels(rule)
    holds_only(rule, "You will win this chargeback with the delivery proof you uploaded.",
               "Our fraud tools score each payment for risk.")


def test_a_clause_that_forbids_in_the_passive_after_a_heading_states_the_rule() -> None:
    # "Bulky waste: the collection charge IS NOT TO BE WAIVED": the heading names where,
    # the clause after it what is forbidden
    rule = "Bulky waste: the collection charge is not to be waived by agents."
    assert {"waived", "collection + charge"} <= labels(rule)
    assert held(gate(rule), "Your bulky item charge, good news, has been waived.")
    # a clause that says what is done, not what may not be, stays the reason
    assert "collection + charge" not in labels("Bulky waste: the collection charge is set by the council.")


def test_full_stop_only_insists() -> None:
    # "…, full stop" insists as "under any circumstances" does: "stop" is no topic
    rule = "no free washes as goodwill, full stop"
    assert "stop" not in words(rule) and "free + washes" in labels(rule)
    holds_only(rule, "I've added two free washes to your account as a goodwill gesture.",
               "Feel free to stop by any location during opening hours.")
