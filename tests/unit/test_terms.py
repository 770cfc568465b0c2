"""Derivation of a rule's topics, and matching them in drafts (one test per pattern)."""

from __future__ import annotations

import pytest
import yaml

from redline import Gate, Outcome, PolicyError, parse_policy
from redline.policy.lexicon import family
from redline.policy.terms import derive_terms, inflections, term_variants
from redline.policy.topics import derive_topics


def gate(rule: str, **extra: object) -> Gate:
    line = {"id": "r", "rule": rule, "severity": "block", **extra}
    policy = {
        "version": 1,
        "name": "t",
        "auto_send": {"min_confidence": 0},
        "skills": [{"slug": "s", "red_lines": [line]}],
        "detectors": {"credentials": "off", "pii": "off", "technical_content": "off"},
    }
    return Gate(parse_policy(yaml.safe_dump(policy), "<test>"))


def held(g: Gate, text: str) -> bool:
    return g.check(text).outcome is not Outcome.EXECUTE


def topic_words(rule: str) -> set[str]:
    return {w for t in derive_topics(rule).topics for w in t.words}


# -- derivation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("Never promise, approve or confirm a refund; refunds are decided by the billing team.", ("refund",)),
        ("Escalate any mention of self-harm.", ("self + harm", "selfharm")),  # closed up as some write it
        ("Escalate signs of stroke.", ("stroke",)),
        ("Escalate any reports of fraud.", ("fraud",)),
    ],
)
def test_derived_topics_are_the_guarded_topic(rule: str, expected: tuple[str, ...]) -> None:
    assert derive_terms(rule) == expected


@pytest.mark.parametrize(
    ("rule", "detector", "acts"),
    [
        ("Never share another customer's personal details.", "pii", {("share", "personal details")}),
        ("Never reveal credentials, API keys or passwords.", "credentials",
         {("reveal", "credentials"), ("reveal", "keys"), ("reveal", "passwords")}),
    ],
)
def test_what_a_detector_finds_goes_to_it_and_the_act_of_disclosing_it_stays(
    rule: str, detector: str, acts: set[tuple[str, str]]
) -> None:
    derived = derive_topics(rule)
    assert derived.detectors == (detector,)
    assert {t.words for t in derived.topics} == acts  # the words alone are no topic


def test_the_word_a_detector_owns_fires_only_with_the_act() -> None:
    g = gate("Never share passwords or API keys.")
    assert not held(g, "You can reset your password from the login page.")
    assert held(g, "I'll share the admin password with you right here in the ticket.")


@pytest.mark.parametrize(
    "rule",
    [
        "Never recommend that a customer buy or sell a specific stock, fund or cryptocurrency.",
        "Never approve a deploy to production during a change freeze.",
        "Never promise a refund for a non-refundable fare.",
    ],
)
def test_rules_that_derived_nothing_before_now_guard_their_topic(rule: str) -> None:
    assert derive_terms(rule)


@pytest.mark.parametrize("generic", ["customer", "team", "promise", "billing", "action", "share", "decided"])
def test_framing_addressee_and_rationale_words_never_become_topics(generic: str) -> None:
    rules = [
        "Never promise, approve or confirm a refund; refunds are decided by the billing team.",
        "Never share another customer's personal details.",
        "Escalate legal threats such as lawsuits, attorneys or court action.",
    ]
    for rule in rules:
        alone = {t.words[0] for t in derive_topics(rule).topics if len(t.words) == 1}
        assert generic not in alone


def test_verb_and_object_are_separate_words_of_a_topic() -> None:
    topics = {t.words for t in derive_topics("Never waive early termination fees.").topics}
    assert ("waive",) in topics or ("waive", "fees") in topics
    assert all(len(words) <= 2 for words in topics)  # never one glued phrase


def test_framing_words_of_a_hand_off_are_not_the_topic() -> None:
    words = topic_words("Always hand off applicants who are homeless or facing eviction to a human caseworker.")
    assert {"homeless", "eviction"} <= words
    assert not words & {"hand", "off", "applicants", "human", "caseworker", "facing"}


@pytest.mark.parametrize(
    ("rule", "addressee"),
    [
        ("Never tell a claimant their claim is approved.", "claimant"),
        ("Never promise a seller that a payout will be released early.", "seller"),
        ("Do not advise a customer to dispute a charge.", "customer"),
    ],
)
def test_the_person_addressed_is_not_a_topic(rule: str, addressee: str) -> None:
    assert addressee not in topic_words(rule)
    assert derive_terms(rule)


def test_digits_are_never_topics() -> None:
    words = topic_words("Escalate any client request to withdraw more than $50,000 or liquidate an account.")
    assert not any(ch.isdigit() for w in words for ch in w)
    assert "withdraw" in words


def test_a_rule_about_other_people_is_marked() -> None:
    assert derive_topics("Never confirm whether someone has a prescription with us.").about_others
    assert derive_topics("Never discuss another patient's prescriptions.").about_others
    assert not derive_topics("Never promise a refund.").about_others


def test_a_rule_that_is_all_framing_and_generic_words_derives_nothing() -> None:
    assert derive_terms("Never promise anything to the customer.") == ()


def test_a_rare_word_stands_alone_and_a_common_one_needs_its_partner() -> None:
    topics = {t.words for t in derive_topics("Escalate any customer threatening to churn or cancel an enterprise contract.").topics}
    assert ("churn",) in topics and ("enterprise",) not in topics
    topics = {t.words for t in derive_topics("No bill credits over $50 without a supervisor's approval.").topics}
    assert ("credits",) not in topics and ("bill", "credits") in topics


# -- word families -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("stolen", {"steal", "stole", "stealing"}),
        ("paid", {"pay", "paying", "pays"}),
        ("sold", {"sell", "selling"}),
        ("took", {"take", "taken", "taking"}),
        ("pregnancy", {"pregnant"}),
        ("harassment", {"harassed", "harassing"}),
        ("sponsorship", {"sponsor", "sponsored"}),
        ("withdrawal", {"withdraw", "withdrawn", "withdrew"}),
        ("unauthorized", {"unauthorised"}),
        ("cancellation", {"cancel", "cancelled", "canceled"}),
        ("liability", {"liable"}),
        # the Latinate -ible of a verb, as -able
        ("deductible", {"deduct", "deducted"}),
        ("accessible", {"access"}),
        # -ity on a five-letter adjective
        ("validity", {"valid"}),
        ("toxicity", {"toxic"}),
        ("aggressive", {"aggression"}),
        ("successful", {"success"}),
        ("reduction", {"reduce", "reduced"}),
        ("fluency", {"fluent"}),
        # a word the dictionary does not know, by lemminflect's rules for unseen words
        ("euthanized", {"euthanize", "euthanizing"}),
        ("exfiltrated", {"exfiltrate", "exfiltrates"}),
        # a derived word the dictionary does not list, read by its parts: excuse + -al
        ("excusals", {"excuse", "excused"}),
        # a gerund noun's plural reads as its singular does ("opening": open, opened)
        ("openings", {"open", "opened"}),
        ("pain", {"painful"}),
        ("illegitimacy", {"illegitimate"}),
        ("accuracy", {"accurate"}),
        ("harm", {"harmful"}),
        ("bookings", {"book", "booked"}),
        # the word as written, and a past form's verb forms, even where the dictionary
        # doubts its lemma is a verb ("garnishing" is rare)
        ("copyrighted", {"copyrighted"}),
        ("garnished", {"garnished", "garnishing", "garnish"}),
        # -ness on a four-letter adjective
        ("sickness", {"sick"}),
        ("weakness", {"weak"}),
        # -ify / -ification, a British -ence and an American -ense, a short plural
        ("indemnification", {"indemnify", "indemnified"}),
        ("licence", {"license", "licensed"}),
        ("ads", {"ad"}),
        # -rt / -rsion; a compound verb the dictionary lacks inflects at its head
        ("conversion", {"convert", "converted"}),
        ("jailbreaking", {"jailbroken", "jailbroke"}),
        ("upsell", {"upsold"}),
        # a doubled consonant before -al/-ence (defer/deferral, occur/occurrence), -y/-ial
        ("deferral", {"defer", "deferred"}),
        ("occurrence", {"occur", "occurred"}),
        ("denial", {"deny", "denied"}),
        # a verb reading the dictionary gives a noun keeps its written forms that are its
        # alone, though its -ing form is rare ("lapsing")
        ("lapse", {"lapsed"}),
        ("garnishment", {"garnish", "garnished"}),
        # a long word the dictionary lacks, as common as the words it lists ("remediate")
        ("remediation", {"remediate", "remediated"}),
        # -y / -ical, -ish / -ition; a plural of an -ing noun the dictionary keeps whole
        ("toxicology", {"toxicological"}),
        ("demolition", {"demolish", "demolished"}),
        ("savings", {"save", "saves"}),
        # -ain / -aint, -eigh / -eight for a verb that is nothing else, -er / -ration
        ("complaint", {"complain", "complained"}),
        ("weight", {"weigh", "weighed"}),
        ("registration", {"register", "registered"}),
        # a prefix on an irregular form the dictionary lacks inflects at its stem
        ("refrozen", {"refreeze", "refroze", "refreezing"}),
        ("outgrew", {"outgrow", "outgrown"}),
        ("upselling", {"upsell", "upsold"}),  # "up" as "out": not the lemma "upsel" a rule for unknown words makes
        ("upsized", {"upsize", "upsizing"}),
        # what can be done to it, and an adverb of an -ic adjective
        ("refund", {"refundable"}),
        ("recoverable", {"recover", "recovered"}),
        ("organic", {"organically"}),
        ("alcohol", {"alcoholic"}),
        ("robotic", {"robot", "robots"}),
        ("renew", {"renewal"}),
        ("compliance", {"comply", "complied"}),
        ("subsidence", {"subside", "subsided"}),
    ],
)
def test_a_family_holds_irregular_forms_and_one_step_of_derivation(word: str, forms: set[str]) -> None:
    assert forms <= family(word)


def test_a_word_of_a_topic_phrase_inflects_at_both_ends() -> None:
    from redline.screen.matcher import topic_keys
    assert {" card number ", " card numbers "} <= topic_keys("card numbers")
    assert " picking and packing " in topic_keys("pick and pack")
    assert " checks in " in topic_keys("check in") and " check inned " not in topic_keys("check in")
    # a pronoun object between a phrasal verb and its particle
    assert {" pay it off ", " paid them off ", " getting yourself up "} <= topic_keys("pay off") | topic_keys("get up")


def test_a_family_stays_within_its_word() -> None:
    assert "claimant" not in family("claim")  # a person, not the thing
    # "-able" relates what can be done to the act, but not where the adjective drifted
    assert "considerable" not in family("consider") and "probable" not in family("probe")
    assert "organic" not in family("organ") and "graphic" not in family("graph")
    assert "appliance" not in family("apply") and "variance" not in family("vary")
    assert "competence" not in family("compete") and "providence" not in family("provide")
    assert "feed" not in family("fee")
    assert "feed" not in family("fees")  # a plural is no form of a verb "fee"
    assert "countie" not in family("counties")  # a plural of a word, not "co" + "unties"
    assert "sleigh" not in family("sleight") and "veneer" not in family("veneration")
    assert "budge" not in family("budget")
    # -y nouns of verbs only where the verb is nothing else (injure / injury; not police /
    # policy, factor / factory, batter / battery)
    assert "policy" not in family("police") and "factor" not in family("factory")
    assert "batter" not in family("battery") and "injure" in family("injury")
    # pairs the rows relate by spelling only are never one family
    assert "importance" not in family("import") and "pressure" not in family("press")
    assert "audition" not in family("audit") and "coverage" in family("cover")
    assert "majority" not in family("major") and "priority" not in family("prior")
    assert "sensible" not in family("sense")


def test_each_false_derivation_is_one_the_rows_would_make(monkeypatch: pytest.MonkeyPatch) -> None:
    """The list of pairs related by spelling only holds no dead entry: without it, the
    derivation rows relate every pair it names."""
    from redline.policy import lexicon

    pairs = sorted({tuple(sorted(pair)) for pair in lexicon._FALSE_DERIVATIONS})
    assert pairs
    monkeypatch.setattr(lexicon, "_FALSE_DERIVATIONS", frozenset())
    for a, b in pairs:
        assert b in lexicon._derived(a) or a in lexicon._derived(b), (a, b)
    assert "posing" not in family("pos")  # a point of sale: the regular form is pose's
    assert "gp" not in family("gps")  # a word of its own, not the plural of "gp"
    assert "homeless" not in family("home")
    assert "partial" not in family("party")  # -ial nominalizes a verb that is nothing else (deny)
    assert "savage" not in family("save") and "message" not in family("mess")  # -age makes nouns only (dosage)
    assert "euthaniz" not in family("euthanized")  # no stem that is not a word


# -- matching ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Never waive early termination fees.", "I'll waive your early termination fee so you can leave."),
        ("Never waive early termination fees.", "The early termination fee on your line has been waived."),
        ("Escalate any reports of fraud.", "Honestly, this looks like fraud to me."),
        ("Escalate reports of stolen cards.", "I see that your card was stolen yesterday."),
        ("Do not offer account credits or compensation without approval.", "A credit was applied to your account today."),
        ("Escalate legal threats such as lawsuits, attorneys or court action.", "If this isn't fixed we will take you to court."),
        ("Always hand off questions about pregnancy to a pharmacist.", "Since you're pregnant, this cold medicine is fine."),
        ("Flag any customer reporting harassment.", "You've been harassed by these calls for a week."),
        ("Never promise visa sponsorship to a candidate.", "We will sponsor your visa once you accept the offer."),
        ("Never tell a claimant their claim is paid.", "We paid your claim in full this morning."),
        ("Never recommend that a customer buy or sell a specific stock, fund or cryptocurrency.", "You should sell that fund before Friday."),
        ("Never approve a deploy to production during a change freeze.", "I've approved the deploy to production for tonight."),
        ("Never promise a refund for a non-refundable fare.", "You'll be refunded the full fare by Friday."),
        ("Never diagnose a condition in chat.", "My diagnosis is a mild sinus infection."),
        ("Never tell a claimant their claim is denied.", "The roof claim, unfortunately, was denied."),
    ],
)
def test_a_topic_matches_in_other_forms_orders_and_splits(rule: str, draft: str) -> None:
    assert held(gate(rule), draft), derive_terms(rule)


@pytest.mark.parametrize(
    ("rule", "draft"),
    [
        ("Avoid predicting market movements or interest-rate changes.", "The market looks promising for your plan."),
        ("Never promise a refund for a non-refundable fare.", "Your fare includes one checked bag."),
        ("Never tell a claimant their claim is approved.", "Your adjuster will call about the claim tomorrow."),
        ("Never waive early termination fees.", "Your monthly fee is due on the 15th."),
        ("Escalate any client request to withdraw more than $50,000.", "Your balance is $50,000 as of today."),
        ("Never promise visa sponsorship to a candidate.", "Our promise to every candidate is a reply within a week."),
    ],
)
def test_words_the_draft_merely_shares_with_the_rule_do_not_fire(rule: str, draft: str) -> None:
    assert not held(gate(rule), draft), derive_terms(rule)


def test_the_two_words_of_a_topic_must_share_a_sentence() -> None:
    g = gate("Never waive early termination fees.")
    assert held(g, "The early fee on your line is gone.")
    assert not held(g, "You asked about an early upgrade. The fee is listed online.")


def test_a_negation_between_the_two_words_sets_the_hit_aside() -> None:
    g = gate("Never tell a claimant their claim is denied.")
    assert not held(g, "Your claim hasn't been denied; it is waiting on the invoice.")
    assert held(g, "We denied your claim because the policy had lapsed.")  # the other word is no cue


def test_a_rule_about_other_people_is_not_set_aside_by_another_experiencer() -> None:
    g = gate("Never confirm whether someone has a prescription with us.")
    decision = g.check("Yes, your husband has a prescription with us.")
    assert decision.outcome is Outcome.ESCALATE, decision.to_dict()
    plain = gate("Never discuss prescriptions.")
    assert plain.check("Yes, your husband has a prescription with us.").outcome is Outcome.EXECUTE


def test_an_operator_can_still_suppress_other_experiencers_for_such_a_rule() -> None:
    g = gate("Never confirm whether someone has a prescription with us.", suppress=["other_experiencer"])
    assert g.check("Yes, your husband has a prescription with us.").outcome is Outcome.EXECUTE


# -- rules that guard nothing ------------------------------------------------------------


def test_a_rule_that_guards_nothing_does_not_load() -> None:
    text = yaml.safe_dump({
        "version": 1, "name": "t",
        "skills": [{"slug": "s", "red_lines": [
            {"id": "ok", "rule": "Never promise a refund.", "severity": "block"},
            {"id": "empty", "rule": "Never promise anything to the customer.", "severity": "block"},
        ]}],
    }, sort_keys=False)
    with pytest.raises(PolicyError) as caught:
        parse_policy(text, "policy.yaml")
    error = caught.value
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "anything" in row)
    assert error.path == "policy.yaml" and error.line == line and error.key == "skills[0].red_lines[1].rule"
    assert "s:empty guards nothing" in str(error) and "add `terms: [...]`" in str(error)


def test_an_empty_terms_list_guards_nothing() -> None:
    text = yaml.safe_dump({"version": 1, "name": "t", "skills": [{"slug": "s", "red_lines": [
        {"id": "e", "rule": "Never promise a refund.", "severity": "block", "terms": []}]}]})
    with pytest.raises(PolicyError, match="s:e guards nothing"):
        parse_policy(text)


def test_a_boundary_that_guards_nothing_does_not_load() -> None:
    text = yaml.safe_dump({"version": 1, "name": "t", "soul": {"boundaries": {"never": ["Never do that."]}}})
    with pytest.raises(PolicyError, match="soul:never:0 guards nothing"):
        parse_policy(text)


def test_a_policy_built_in_code_gets_the_same_check() -> None:
    from redline import Policy

    policy = Policy.model_validate({"version": 1, "name": "t", "skills": [{"slug": "s", "red_lines": [
        {"id": "e", "rule": "Never do that.", "severity": "block"}]}]})
    with pytest.raises(PolicyError, match="skills\\[0\\].red_lines\\[0\\].rule"):
        Gate(policy)


# -- an operator's terms -------------------------------------------------------------


def test_inflections_cover_regular_and_irregular_forms() -> None:
    assert {"refund", "refunds", "refunded", "refunding"} <= inflections("refund")
    assert {"apply", "applies", "applied"} <= inflections("apply")
    assert {"stop", "stopped", "stopping"} <= inflections("stop")
    assert {"bleed", "bleeds", "bleeding", "bled"} <= inflections("bleeding")
    assert {"cough", "coughed", "coughing"} <= inflections("coughing")
    assert {"zorbify", "zorbifies", "zorbified"} <= inflections("zorbify")  # not in the dictionary


def test_a_copula_may_stand_before_a_participle_but_not_elsewhere() -> None:
    variants = {" ".join(v) for v in term_variants(("face", "drooping"))}
    assert "face is drooping" in variants
    assert "face was drooping" in variants
    plain = {" ".join(v) for v in term_variants(("chest", "pain"))}
    assert "chest is pain" not in plain
    assert not any(" not " in f" {v} " for v in variants | plain)


def test_the_first_word_of_an_operators_term_is_inflected_too() -> None:
    g = gate("Escalate suicidal thoughts.", terms=["kill myself", "cough up blood"])
    assert held(g, "I keep thinking about killing myself.")
    assert held(g, "Last night I coughed up blood.".replace("Last night ", ""))
