"""Topic derivation on red-line rules written the way operators write them.

The three corpora in tests/fixtures/rules-corpus were written for the project by people
who had not seen the derivation code, in twenty-four domains none of which the code was
tuned on: HR, marketplaces, banking, DevOps, education, property management, legal
intake, automotive (heldout-a); food delivery, airlines, utilities, health insurance,
gaming, crypto exchanges, hotels, public records (heldout-b); veterinary care, home
insurance, gyms, IT helpdesks, charities, rental cars, dentistry, payroll (heldout-c).
A fourth (heldout-d: travel agencies, mortgages, telecom, pharmacies, returns, school
admissions, home security, wealth management) was written to paraphrase: its drafts say
the forbidden thing in other words, and its near misses use the topic's own word in a
harmless sense. A lexical screen cannot hold most of it (that is the judge's work); its
floor guards what the screen does hold there. A fifth (heldout-e: payment apps, physio
clinics, auto claims, solar sales, staffing, parcels, congregations, esports) follows the
dev file's specification again. Three more were written the same way later, with rules in
the shapes operators use that the earlier files lacked (a reason after a dash, a case
routed "to Billing", "they've", parenthesised examples): heldout-f (tax preparation,
online dating, clinical trial recruitment, debt collection, childcare, event ticketing,
fertility clinics, security operations), heldout-g (ride-hailing, freelance marketplaces,
home health care, financial aid, auto repair, pet adoption, sports betting, elder care)
and heldout-h (mortgage servicing, pet pharmacy, coworking, hearing aid clinics, moving
and storage, plasma donation, online courses, marinas); heldout-i (dental insurance, rental
hosts, grocery delivery, legal aid, car financing, campus housing, meal kits, immigration
documents) was written terse and sloppy on purpose ("BLOCK: telling a customer …", "pls
don't …", a context sentence before the rule); heldout-j (veterinary compounding, solar
sales, funeral homes, aviation charter, weddings, roadside assistance, a crisis text line,
parking enforcement) mixes plain rules with notes in shorthand ("roof q's -> site
surveyor", "grief counseling - dont counsel"); heldout-k (pediatric triage, a dispensary,
home warranties, a university IT desk, pawn shops, trucking dispatch, animal control,
student loans) mixes a compliance manual's clauses with a team lead's chat messages
("heads up: if someone asks about X, don't tell them it'll be waived"); heldout-l (glucose
monitors, vacation rentals, youth sports, auto parts, hospice, small business lending, a
cloud abuse desk, language schools) has rules by non-native writers, numbered lists and
quoted bad replies; heldout-m (EV charging, pest control, orthodontics, real estate,
event venues, bike share, kennels, cyber insurance) is clauses of formal policy documents
("It is forbidden to …", "Agents are prohibited from …", "6.1 The agent must not …");
heldout-n (HVAC, a pharmacy benefit manager, airport lounges, music streaming,
landscaping, a credit union, a tattoo studio, senior living) is a team wiki's do/don't
checklist ("AVOID: …", "NO: …", "❌ promising …"); heldout-o (genetic testing kits, a water
utility, cruises, furniture delivery, museum memberships, photo studios, a food co-op,
court reporting) is a manager talking to the bot ("Stay away from …", "Keep quiet about
…", "It's not your place to …", "If a guest mentions X, hand it to a human"). heldout-p (hospital billing, courier support, optometry, pet insurance, translation, in-app
purchases, self storage, transit fares) is excerpts of chatbot system prompts ("As the
Acme billing assistant, you never …", "Do not, under any circumstances, …", "You may …,
but you must never …"); heldout-q (auto glass, elevators, waste collection, an ISP outage
desk, air cargo, campgrounds, a blood lab, appliance repair) is rows of an ops team's
decision table ("Trigger: … | Action: escalate to …", "When: … Then: …", "IF … THEN no
…"); heldout-r (wine clubs, salons, payday loans, escape rooms, boat insurance, summer
camps, a taproom, e-bikes) is a QA reviewer's corrections of wording ("Say 'X', not
'Y'", "Wrong: '…' Right: '…'", "Instead of promising X, tell them Y"). heldout-s (a
veterinary emergency desk, solar batteries, a university library, commercial cleaning,
orthopedic devices, coach hire, mobile top-up kiosks, pool installation) has no
prescribed style: each rule as its operator would write it; heldout-t (a UK letting
agency, an Australian super fund, an Indian tutoring platform, an Irish energy supplier,
UK council tax, NZ vehicle registration, Canadian parcel brokerage, a Singapore condo
office) is written in those Englishes ("Staff are not to …", "Agents shan't …", "Kindly do
not …", "Under no circumstance is the agent to …"); heldout-u (home inspection, an IVF
pharmacy, esports, medical collections, watch resale, rural broadband, adoption, drone
services) is a reviewer's checklist ("Does the reply promise X? Block it.", "Fail the
reply if …", "Red flag: agent implies …"). heldout-v (travel insurance, hotel loyalty, reverse mortgages, dermatology
telemedicine, car subscriptions, a music school, equipment rental, a food bank) states
rules as obligations and routings ("Anything about X goes straight to …", "X is reserved
for the Y team", "Leave X to …"); heldout-w (occupational health, real-estate auctions, a
broker-dealer, school buses, fuel delivery, wildlife rehabilitation, managed IT,
funeral pre-planning) uses a compliance team's defined terms and references ("Investment
Advice (as defined in Section 2)", "(Policy 4.3)"); heldout-x (kitchen remodeling, coffee
subscriptions, animal hospital billing, study abroad, ferries, vision insurance, formalwear
rentals, building permits) has longer rules of two or three sentences by different people
on one team. m to x were scored blind first, then read for their shapes (s and x were
scored blind and not read; w was read for one shape: a rule against asking for what a
detector finds). heldout-y (a bakery, a bike shop, a dental lab, a plumbing supply store, dog
grooming, a yoga studio, a print shop, a used bookstore) is small-business owners typing
fast ("dont promis same day cakes", "no shade matching gaurantees pls"); heldout-z (lost
baggage, an HSA administrator, a demand-response program, a sports club, medical
transcription, rental car damage, online notaries, a registrar) puts a condition or an
exception on every rule ("Except during an advertised promotion, never waive …"); both were
scored blind, then read. heldout-aa (physical therapy, HVAC financing, language tutoring,
airport parking, rental listings, a garden center, injury-law intake, a children's dental
clinic) and heldout-bb (pet air cargo, cremation, park season passes, camera cloud
storage, corporate travel, community solar, a veterinary referral hospital, a craft
marketplace) have no set style and were written last and scored blind: they measure the
reader on rules nobody has seen. aa was not read; bb was read for one shape ("outside"
after a bare act, where two of its rules derived nothing). heldout-cc (home lab test kits,
a trade school, a marina fuel dock, identity theft protection, senior meal delivery,
office furniture leasing, an urgent dental line, festival camping), no set style either,
was written and scored after every change of this file's floors above (five of its misses
were read later, and nothing changed for them). heldout-dd (wedding photography, a recreation
center, a used-car marketplace, occupational therapy, solar leasing, a climbing gym,
expense cards, boarding school admissions) writes rules as a "blocked topics" screen's
labels ("Refund promises", "Loan approval — only underwriting decides this"); heldout-ee
(satellite TV, orthotics, timeshare resales, dog training, a property tax office,
sprinkler inspection, car sharing, a medical spa) in impersonal passive and nominal
clauses ("Credits for outages are not to be offered", "Disclosure of … is prohibited");
heldout-ff (a relay service, a farm equipment dealer, a sleep clinic, a student visa
office, a kayak outfitter, payroll software, estate sales, an allergy clinic) in no set
style; heldout-gg (bail bonds, an aquarium store, contact lenses, roofing, jet cards,
school enrollment, credit counseling, wine delivery) guards several things in each rule
("…, … or …", "such as", slashes). All four were scored blind first; ee was read for its
shapes, ff for its two rules that derived nothing, dd and gg not at all. heldout-hh
(observability, payments, Kubernetes hosting, ERP consulting, MDR security, telematics, a
lab information system, crypto custody) is technical teams' jargon ("No ETAs on P1
fixes"); heldout-ii (a registrar, a family clinic, apartments, a carrier, a fitness
studio, a vet, a staffing agency, a hotel) keeps other people's information from the one
asking, and its hits name that person ("Yes, your daughter is enrolled"); both were
scored blind, then read. heldout-jj (home health aides, tee times, textbook buyback, water
heaters, speech therapy, lift tickets, a small-claims help center, infusion pharmacy), no
set style, was scored blind and not read; so was heldout-kk (patient transport, a craft
beer store, preschool billing, tree removal, prepaid debit cards, photo printing,
corporate relocation, a blood bank), written after every change but the last; heldout-ll
(bridal alterations, a sliding-fee clinic, stairlifts, chess coaching, animal licensing, a
dealer auction, hospice pharmacy, co-living), written with it, was scored blind, then read. heldout-mm
(airport wheelchair assistance, e-book lending, radon and mold inspection, frozen food
boxes, a college ticket office, a mobile notary, a microchip registry, a hotel spa) and
heldout-nn (driving lessons, solar panel cleaning, scrubs, crowdfunding, retirement dining,
egg freezing, towing, a language immersion program), no set style, were written last and
scored blind; mm was not read, nn was. heldout-oo (chiropractic, money remittance, a
driver licensing office, mattresses, warehouse fulfillment, dry cleaning, locksmiths,
chimney sweeps) and heldout-pp (medical waste, dialysis scheduling, a county clerk,
cold-chain logistics, process servers, a cemetery office, a hostel, hood cleaning), no set
style; heldout-qq (rules lifted from operating procedures, with rationale, scope, a
reference and what to do instead: locksmiths, a boarding stable, scuba, jury
administration, hunting licences, a mobile home park, cemetery sales, structural
engineering); and heldout-rr (hits that lean on word forms: piano restoration, balloon
rides, horse boarding, septic pumping, chimney sweeps, locksmiths, jewelry repair, a
bowling league) were scored blind, then read. heldout-ss and -tt (beekeeping, clock
repair, taxidermy, cord blood banking, mushroom kits, an ice rink, stained glass, a
luthier; linen rental, crane hire, asbestos abatement, an unclaimed property office, wound
care, a guest ranch, art shipping, a homeownership nonprofit), no set style, heldout-uu
(rules on the actions an agent takes: a car wash club, cord blood banking, a domain
registrar, ghost kitchens, vending, an irrigation district, lab calibration, portable
toilets) and heldout-vv (safety and health: poison control, pool chemicals, car seats,
home oxygen, a trampoline park, a school cafeteria, power tools, medical alert pendants)
were written after those changes, scored blind, then read. ss's near misses share the
guarded object itself ("Mercury pendulums travel in a sealed crate" under a rule about
shipping mercury pendulums), so its false-positive floor is high. heldout-ww (a bullion
dealer, genealogy research, patent filing, a swim school, vinyl pressing, yacht
brokerage, window replacement, 3D printing) and heldout-xx (a tool library, a rail ticket
office, district heating, adult literacy, an elections office, allotments, a cobbler, a
butcher), no set style, were written after the next round and scored blind, then read.
Six more, each in a sector and a style not met before, were scored blind, then read:
heldout-yy (manufacturing and B2B supply, no set style), heldout-zz (arts, media and
publishing, terse settings lines: "Reading fees: never.", "Political ads? Escalate."),
heldout-ab (public offices, courts and regulated professions, compliance-handbook
clauses: "Agents shall not …", "In accordance with …"), heldout-ac (small local
services, owners' casual notes to the bot: "ok so pls never promise same-day resoling,
the glue has to cure overnight"), heldout-ad (allied health, half its rules on what must
not be disclosed) and heldout-ae (consumer technology and niche finance, compound noun
phrases); and heldout-af (transport and vehicle services; its rail ticketing is near xx's
rail ticket office), heldout-ag (hospitality and leisure), heldout-ah (insurance,
property and finance) and heldout-ai (education and community services; two of its
domains are near two of xx's), no set style, were written after the changes those six led to and scored
blind, not read (ah's misses were read later, for the APR and "language" shapes). Six
more were scored blind: heldout-aj (energy, utilities and home services, rules stated
positively: "Only a licensed electrician may …", "Drilling quotes require a site visit",
"Always confirm … before …", "Leave … to the …"), heldout-ak (tourism and food outside
Europe and North America, written by operators whose first language is not English:
"Never tell location of leopard den") and heldout-al (retail niches, examples in
brackets: "(e.g. GlowMart, Lumiere Beauty)") were then read; heldout-am (public sector
and non-profits, trigger-style: "If a caller asks about X, hand off …"), heldout-an
(online services, second person with varied verbs of avoidance: "Steer clear of …",
"Keep out of …") and heldout-ao (health and personal services, no set style) were not
(a reverted experiment's printout showed drafts of eight of am's rules and one of an's).
Four written after the changes aj-al led to, no set style, were scored blind and not
read: heldout-ap (agriculture, animals and the outdoors; only the rule text of the one
rule the load refused was read, and a round later the topic lists of some of its misses
were seen in a printout), heldout-aq (finance, legal, insurance and property,
some rules stated positively), heldout-ar (media, sport and events, examples in brackets
and sentences of context) and heldout-as (manufacturing, trades and B2B services) (after
scoring, that printout showed drafts of one of aq's rules and three of as's; ar's misses
were read a round later).
Five more, written after the changes aj-al led to, were scored blind: heldout-at
(logistics, trades and manufacturing, terse notes in a config: "Demurrage waivers -> ops
mgr ONLY", abbreviations and arrows), heldout-au (consumer brands and marketing, the
claims or words the agent must not use: 'Never call a diamond "flawless"') and
heldout-aw (health-adjacent services, animals and sport, a reason first and the rule
after it: "Our forge throws sparks. Never agree to hot shoe a horse inside a barn") were
then read; heldout-av (public services and non-profits, an exception or condition after
the topic: "unless …", "other than …", "once …") and heldout-ax (finance, travel,
hospitality, media and technology, no set style) were not. Three more were written during
the round those led to and scored blind: heldout-ay (public sector, utilities, transport
and construction, no set style), then read; heldout-az (retail, food and hobby shops, no
set style, some claims not to use and some reasons first) and heldout-ba (health, care,
finance, insurance and legal services, terse notes with arrows and abbreviations), not
read (but for the rule text of the one ba rule that derived nothing). heldout-bc
(education, childcare, sport, arts and community groups), heldout-bd (technology,
telecoms and online platforms, some rules stated positively) and heldout-be (travel,
transport, automotive, property and home services, some claims not to use and some
reasons first), no set style, were written last and scored blind, not read (be was read
the round after, for its negated drafts). Then four more, scored blind: heldout-bf
(public services and civic offices, rules to the agent in the second person with
contractions: "Don't ever …", "You're not allowed to …"), heldout-bg (science,
agriculture, environment and energy, conditions and what to do: "If someone asks about X,
hand it to a human"), heldout-bh (manufacturing, logistics, retail and food production,
by operators whose first language is not English: "Never advice customer to dispose
battery pack") and heldout-bi (media, entertainment, gaming and hospitality, two or three
things and an exception in one sentence). Then two more, scored blind: heldout-bj
(transport, construction, trades and utilities, rules with no "never" or "do not": "X
stays with the track engineer", "X comes from the conservation officer", "X is the
harbour master's decision"), read, and heldout-bk (finance, insurance, law and public
services, rules that cite their source in the same line: "Per OFAC screening policy 7.4:
never …", "[AML-11] Agents must not …"), read; heldout-bl (health, social services,
education and community groups, what the organisation does not do: "We don't …", "Our
staff cannot …") and heldout-bm (retail, e-commerce and consumer apps, rules copied from
a system prompt in Markdown: bullets, bold, CAPS, emoji), both read; heldout-bn (mining,
chemicals, agriculture supply, forestry, fisheries, hazardous waste) and heldout-bo
(travel, sport, beauty, pets, events, home services), no set style, scored blind at the
end of that round, bo then read; heldout-bp (retail, logistics, manufacturing, energy,
agriculture and automotive, rules in the third person about the assistant or the staff:
"Our helper is barred from …", "Reps need to stay away from …") and heldout-bq (public
services, education, non-profits, media, publishing and research, no set style), scored
blind, then read; heldout-br (telecoms, utilities, software, hardware, gaming, consumer
electronics, rules that quote what a customer asks or what not to say: 'If someone asks
"can I get my deposit back?", do not answer') and heldout-bs (health care, insurance,
banking, lending, legal services, payroll, no set style), scored blind, then read;
heldout-bt (science labs, engineering services, aerospace, marine, chemicals,
construction) and heldout-bu (hospitality, food service, personal care, household and
funeral services, community groups), no set style, scored blind at the end of that
round: bt's three rules that derived nothing then read ("Route to the QA manager: any
mention of …"), bu read in the round after it; heldout-bv (property, recruiting and HR
services, security services, events, printing, vehicle services; rules that name the act
with phrasal verbs and idioms: "Don't let slip …", "Never go ahead with …", "Hold off on
…") and heldout-bw (banking, telecoms, schools and colleges, sports clubs, museums, online
marketplaces; rules whose topic is an activity named by an -ing form or a noun made from
a verb: "No upselling of …", "Cancellation of … by phone is not allowed"), scored blind;
heldout-bx (dental and ENT practices, insurance brokers, estate agents, tour operators,
gyms, software vendors; a later sentence refers back with "it", "them", "one": "Early
termination fees are set in the contract. Never waive one."), scored blind, then read, and
heldout-by (parcel carriers, energy suppliers, credit unions, supermarkets, vehicle hire,
hotels; limits set by a number, an amount, a time or a count), scored blind; heldout-bz
(public transport, airports, ports, rail freight, coach operators, cycling) and heldout-ca
(arts and crafts, photography, music production, publishing, game studios, theatres), no
set style, scored blind at the end of that round, ca then read for two misses;
heldout-cb (home blood draws, check cashing, mail forwarding, go-kart tracks, a taxpayer
helpline, a coding bootcamp, glamping, a perfume shop; each rule states what is so and
forbids saying otherwise: "Results take 2-3 business days. Don't promise them same-day.")
and heldout-cd (organic certification, a wafer foundry, a planetarium, a football club, a
meditation retreat, a wildfire information line, video on demand, hydrogen refuelling; no
set style), scored blind at the start of the next round, cb then read; heldout-ce
(a cycle-tracking app, sign language interpreting, stamp auctions, ostomy supplies, a
makerspace, a falconry centre, ambulance billing, an anti-doping line) and heldout-cf
(hyperbaric oxygen, title loans, refrigerated trucking, a water park, a land registry,
spray foam insulation, 3D printer support, a birth center), no set style, scored blind
later in that round; heldout-cg (a menopause clinic, structured settlements, a ship
chandlery, street trading licences, an axe-throwing bar, robotic mowers, ignition
interlocks, a racehorse syndicate) and heldout-ch (pipe organ building, a ham radio
retailer, homebrew supplies, a vein clinic, sheep shearing, a lawyer referral service,
whisky cask brokers, an instrument insurer; many rules of two sentences, permissions with
an exception, headings, passives and modals), scored blind at the start of the round after;
heldout-ci (a concussion clinic, gadget insurance, HMO licensing, a hydraulics
distributor, an exam board, mountain guiding, a connected-car app, a mobility retailer)
and heldout-cj (a wheelchair dealer, a green coffee importer, a vine nursery, heritage
consent advice, a liferaft station, a food testing lab, a fountain pen shop, an
architects' registration board), no set style, scored blind later in that round;
heldout-ck (a vasectomy clinic, consular assistance, firearms licensing, a cycling
federation, modular homes after-sales, a housing co-op, a sewing machine shop, a migraine
clinic) and heldout-cl (fireworks displays, a knife forge, a fossil dealer, marquee hire,
cattle genetics, a milliner, an archery range, a private investigator), no set style,
scored blind at the end of that round with its final code; heldout-cm (a barbershop, a
memory clinic, fencing, a deposit protection scheme, litigation funding, a bingo hall,
signage, a court fines line) and heldout-cn (a zip-line park, a deposit protection scheme,
bookkeeping and VAT, plastering, a rheumatology clinic, warehouse racking, vehicle wraps,
victim support), no set style, scored blind at the start of the round after, then read;
heldout-co (refrigeration repair, community mediation, a pain clinic, an ice cream
parlour, merchant cash advances, a laser tag arena, payables software, a survey panel)
and heldout-cp (a naturopathy clinic, conveyancing, a comedy club, a tourist information
centre, a search marketing agency, a running shop, rope access cleaning, revenue-based
financing), no set style, scored blind later in that round, then read; heldout-cq (an
angel syndicate, a blue badge office, a caving centre, a Christmas tree farm, corporate
gifts, public rights of way, a long COVID clinic, loft conversions) and heldout-cr
(plastic surgery, a zoning appeals board, stone worktops, a fund transfer agent,
paragliding, contract sterilization, small-engine repair, a syringe services program),
no set style, scored blind at the end of that round with its final code, read in the
next; heldout-cs (awnings, colocation, electric toothbrushes, gymnastics, hard money
lending, head lice removal, a ketamine clinic, liquor licensing) and heldout-ct (a
martial arts dojo, orienteering, a scrap yard, a surrogacy agency, a type foundry, used
cooking oil collection, whitewater rafting, a refill shop), no set style, scored blind
at the start of that round, then read; heldout-cu (annuities, bouncy castle hire,
embroidery, a bridge club, hypnotherapy, interior design, kosher certification,
apprenticeships) and heldout-cv (a sugarhouse, a metal detecting club, Medicare
supplement brokerage, the Office of the Public Guardian, sled dog tours, tiling,
wilderness first aid, water softeners), no set style, scored blind at the end of that
round with its final code, not read but for cu's hypno-05 ("Don't book clients under
18 without …"), which derived nothing with that code (its policy would not load) and
now guards the under-18s; heldout-cw (a wet room installer, an osteopathy clinic, an
Islamic home purchase plan, a fishery, a concessionary bus pass office, forklift hire, horse
transport, a school uniform shop) and heldout-cx (managed print, an osteopathy clinic,
raceday hospitality, a saddlery, Shariah-compliant home finance, a planning enquiry desk,
underfloor heating, cargo-bike delivery), no set style, scored blind at the start of a
later round (0.787 / 0.250 and 0.675 / 0.256: their hits paraphrase more than earlier
files', the naive matcher holds 0.908 and 0.867 of them), then read; heldout-cy (container
drayage, damp proofing, an eating disorder service, a fire and rescue safety team, an
insolvency practitioner, a kitesurfing school, a lighting showroom, water coolers) and
heldout-cz (stove installation, a sperm bank, a SIPP provider, track days, trading
standards advice, office plant hire, bulk liquid haulage, a pram shop), no set style,
scored blind at the end of that round with its final code (their misses read a round
later); heldout-da (sterile processing, equity release, thatching, e-readers, expedition
cruises, wastewater works, a bicycle shop, a crematorium), heldout-db (weights and measures, government surplus
auctions, boiler inspection, PCB assembly, an abattoir, pigeon racing, model rocketry,
bonsai) and heldout-dc (prenatal screening, cochlear implants, an eviction defence
clinic, a criminal defence firm, LTL freight, customs brokerage, robot vacuums, air
fryers), no set style, scored blind at the start of a later round (0.904 / 0.163, 0.808 /
0.206 and 0.863 / 0.163), then read; heldout-de (farm credit, gift cards, a capsule hotel,
houseboat hire, test prep, an executive MBA office, boiler servicing, joinery) and
heldout-df (an unemployment claims line, fly-tipping enforcement, single sign-on support,
smart locks, airport shuttles, vehicle emissions testing, adult day care, foster care),
no set style, scored blind at the end of that round with its final code, not read;
heldout-dg (a gin distillery, a circus school, pollination hive rental, an oyster farm, a
clay shooting ground, a pinball bar, heat pump installation, tailoring) and heldout-dh (a
rural electric cooperative, a radio-control hobby shop, an anticoagulation clinic, a
tannery, reservoir boating permits, a quilting shop, truck tyre retreading, a lymphoedema
clinic), no set style, scored blind at the end of a later round, not read.
The floors sit a little under what the gate measures today (README, "Topic derivation"):
a change that loses recall or adds false alarms on material it was not written for fails
here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from redline.eval.rules_corpus import rate, read_corpus, score

CORPORA = Path(__file__).parent.parent / "fixtures" / "rules-corpus"


@pytest.mark.parametrize(
    ("corpus", "min_recall", "max_fpr"),
    [
        ("heldout-a.jsonl", 0.89, 0.06),
        ("heldout-b.jsonl", 0.92, 0.08),
        ("heldout-c.jsonl", 0.85, 0.04),
        ("heldout-d.jsonl", 0.34, 0.28),
        ("heldout-e.jsonl", 0.90, 0.15),
        ("heldout-f.jsonl", 0.82, 0.17),
        ("heldout-g.jsonl", 0.76, 0.20),
        ("heldout-h.jsonl", 0.80, 0.21),
        ("heldout-i.jsonl", 0.71, 0.30),
        ("heldout-j.jsonl", 0.80, 0.10),
        ("heldout-k.jsonl", 0.75, 0.23),
        ("heldout-l.jsonl", 0.87, 0.25),
        ("heldout-m.jsonl", 0.80, 0.15),
        ("heldout-n.jsonl", 0.90, 0.19),
        ("heldout-o.jsonl", 0.90, 0.28),
        ("heldout-p.jsonl", 0.89, 0.18),
        ("heldout-q.jsonl", 0.86, 0.21),
        ("heldout-r.jsonl", 0.93, 0.29),
        ("heldout-s.jsonl", 0.88, 0.19),
        ("heldout-t.jsonl", 0.91, 0.19),
        ("heldout-u.jsonl", 0.92, 0.22),
        ("heldout-v.jsonl", 0.88, 0.11),
        ("heldout-w.jsonl", 0.84, 0.17),
        ("heldout-x.jsonl", 0.90, 0.20),
        ("heldout-y.jsonl", 0.88, 0.27),
        ("heldout-z.jsonl", 0.93, 0.11),
        ("heldout-aa.jsonl", 0.88, 0.13),
        ("heldout-bb.jsonl", 0.83, 0.25),
        ("heldout-cc.jsonl", 0.86, 0.27),
        ("heldout-dd.jsonl", 0.92, 0.08),
        ("heldout-ee.jsonl", 0.88, 0.14),
        ("heldout-ff.jsonl", 0.93, 0.23),
        ("heldout-gg.jsonl", 0.88, 0.18),
        ("heldout-hh.jsonl", 0.88, 0.14),
        ("heldout-ii.jsonl", 0.84, 0.08),
        ("heldout-jj.jsonl", 0.91, 0.26),
        ("heldout-kk.jsonl", 0.89, 0.22),
        ("heldout-ll.jsonl", 0.86, 0.21),
        ("heldout-mm.jsonl", 0.84, 0.26),
        ("heldout-nn.jsonl", 0.81, 0.20),
        ("heldout-oo.jsonl", 0.89, 0.27),
        ("heldout-pp.jsonl", 0.93, 0.29),
        ("heldout-qq.jsonl", 0.88, 0.24),
        ("heldout-rr.jsonl", 0.92, 0.20),
        ("heldout-ss.jsonl", 0.90, 0.39),
        ("heldout-tt.jsonl", 0.89, 0.19),
        ("heldout-uu.jsonl", 0.96, 0.16),
        ("heldout-vv.jsonl", 0.91, 0.22),
        ("heldout-ww.jsonl", 0.89, 0.14),
        ("heldout-xx.jsonl", 0.90, 0.14),
        ("heldout-yy.jsonl", 0.91, 0.12),
        ("heldout-zz.jsonl", 0.95, 0.11),
        ("heldout-ab.jsonl", 0.90, 0.19),
        ("heldout-ac.jsonl", 0.88, 0.25),
        ("heldout-ad.jsonl", 0.95, 0.08),
        ("heldout-ae.jsonl", 0.95, 0.23),
        ("heldout-af.jsonl", 0.95, 0.20),
        ("heldout-ag.jsonl", 0.93, 0.18),
        ("heldout-ah.jsonl", 0.87, 0.15),
        ("heldout-ai.jsonl", 0.87, 0.21),
        ("heldout-aj.jsonl", 0.93, 0.06),
        ("heldout-ak.jsonl", 0.94, 0.10),
        ("heldout-al.jsonl", 0.92, 0.17),
        ("heldout-am.jsonl", 0.93, 0.09),
        ("heldout-an.jsonl", 0.94, 0.12),
        ("heldout-ao.jsonl", 0.94, 0.13),
        ("heldout-ap.jsonl", 0.92, 0.20),
        ("heldout-aq.jsonl", 0.92, 0.13),
        ("heldout-ar.jsonl", 0.86, 0.12),
        ("heldout-as.jsonl", 0.92, 0.16),
        ("heldout-at.jsonl", 0.87, 0.14),
        ("heldout-au.jsonl", 0.93, 0.22),
        ("heldout-av.jsonl", 0.95, 0.03),
        ("heldout-aw.jsonl", 0.92, 0.26),
        ("heldout-ax.jsonl", 0.95, 0.14),
        ("heldout-ay.jsonl", 0.88, 0.10),
        ("heldout-az.jsonl", 0.88, 0.16),
        ("heldout-ba.jsonl", 0.84, 0.14),
        ("heldout-bc.jsonl", 0.82, 0.12),
        ("heldout-bd.jsonl", 0.93, 0.13),
        ("heldout-be.jsonl", 0.93, 0.25),
        ("heldout-bf.jsonl", 0.89, 0.06),
        ("heldout-bg.jsonl", 0.96, 0.09),
        ("heldout-bh.jsonl", 0.93, 0.15),
        ("heldout-bi.jsonl", 0.90, 0.16),
        ("heldout-bj.jsonl", 0.91, 0.06),
        ("heldout-bk.jsonl", 0.92, 0.23),
        ("heldout-bl.jsonl", 0.95, 0.08),
        ("heldout-bm.jsonl", 0.90, 0.18),
        ("heldout-bn.jsonl", 0.93, 0.13),
        ("heldout-bo.jsonl", 0.88, 0.14),
        ("heldout-bp.jsonl", 0.94, 0.11),
        ("heldout-bq.jsonl", 0.94, 0.12),
        ("heldout-br.jsonl", 0.94, 0.12),
        ("heldout-bs.jsonl", 0.93, 0.13),
        ("heldout-bt.jsonl", 0.94, 0.10),
        ("heldout-bu.jsonl", 0.90, 0.19),
        ("heldout-bv.jsonl", 0.95, 0.09),
        ("heldout-bw.jsonl", 0.96, 0.13),
        ("heldout-bx.jsonl", 0.95, 0.14),
        ("heldout-by.jsonl", 0.96, 0.06),
        ("heldout-bz.jsonl", 0.94, 0.16),
        ("heldout-ca.jsonl", 0.88, 0.17),
        ("heldout-cb.jsonl", 0.90, 0.23),
        ("heldout-cd.jsonl", 0.86, 0.22),
        ("heldout-ce.jsonl", 0.85, 0.26),
        ("heldout-cf.jsonl", 0.94, 0.20),
        ("heldout-cg.jsonl", 0.92, 0.13),
        ("heldout-ch.jsonl", 0.91, 0.17),
        ("heldout-ci.jsonl", 0.88, 0.15),
        ("heldout-cj.jsonl", 0.95, 0.08),
        ("heldout-ck.jsonl", 0.87, 0.24),
        ("heldout-cl.jsonl", 0.94, 0.17),
        ("heldout-cm.jsonl", 0.91, 0.06),
        ("heldout-cn.jsonl", 0.85, 0.15),
        ("heldout-co.jsonl", 0.88, 0.16),
        ("heldout-cp.jsonl", 0.91, 0.14),
        ("heldout-cq.jsonl", 0.88, 0.17),
        ("heldout-cr.jsonl", 0.88, 0.16),
        ("heldout-cs.jsonl", 0.96, 0.12),
        ("heldout-ct.jsonl", 0.96, 0.13),
        ("heldout-cu.jsonl", 0.95, 0.17),
        ("heldout-cv.jsonl", 0.95, 0.16),
        ("heldout-cw.jsonl", 0.78, 0.26),
        ("heldout-cx.jsonl", 0.65, 0.27),
        ("heldout-cy.jsonl", 0.80, 0.18),
        ("heldout-cz.jsonl", 0.76, 0.25),
        ("heldout-da.jsonl", 0.89, 0.18),
        ("heldout-db.jsonl", 0.80, 0.22),
        ("heldout-dc.jsonl", 0.88, 0.17),
        ("heldout-de.jsonl", 0.85, 0.26),
        ("heldout-df.jsonl", 0.77, 0.21),
        ("heldout-dg.jsonl", 0.87, 0.16),
        ("heldout-dh.jsonl", 0.92, 0.16),
    ],
)
def test_rules_in_plain_words_hold_the_drafts_that_mention_their_topic(
    corpus: str, min_recall: float, max_fpr: float
) -> None:
    report = score(read_corpus([str(CORPORA / corpus)]), naive=False)
    overall = report["overall"]
    recall = rate(overall["hits_held"], overall["hits"])
    fpr = rate(overall["clean_held"], overall["clean"])
    assert recall >= min_recall, f"hit recall {recall:.3f} < {min_recall}"
    assert fpr <= max_fpr, f"clean false-positive rate {fpr:.3f} > {max_fpr}"
    # a rule that derived nothing would stop its policy from loading (a policy error by name)
    assert report["no_topic"] == [], "every rule derives a topic"


def test_the_naive_substring_baseline_is_what_derivation_improves_on() -> None:
    rows = read_corpus([str(CORPORA / "heldout-a.jsonl")])
    naive = score(rows, naive=True)["overall"]
    assert rate(naive["clean_held"], naive["clean"]) > 0.9  # it fires on nearly every clean draft
