"""Issue 17, the rules behind a shorter registration: what the next member of an entry needs
(``open_slots``), the other categories where the members typed fit as they are
(``fitting_categories``), and a question's short form in the summary."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from bot.domain.contest import Category, Contest, Question, Slot
from bot.features.registration.rules import Member, fitting_categories, open_slots


def year(name: str, born: int, answers: tuple[str, ...] = ()) -> Member:
    return Member(name, born_year=born, answers=frozenset(answers))


def dated(name: str, born: str) -> Member:
    d = date.fromisoformat(born)
    return Member(name, born=d, born_year=d.year)


def ids(categories: tuple) -> list[str]:
    return [c.id for c in categories]


def test_the_place_left_beside_a_child_in_a_castrillo_pair_is_the_adults(castrillo: Contest):
    pair = castrillo.category("parejas")
    assert pair is not None
    day = castrillo.date
    assert open_slots(pair, [], day) == (Slot(born_to=2010), Slot())
    # an adult first: the second may be anyone (either place is still free)
    assert set(open_slots(pair, [year("Ana", 1980)], day)) == {Slot(born_to=2010), Slot()}
    # a child first takes the place open to anyone: the second must be born 2010 or earlier
    assert open_slots(pair, [year("Kid", 2015)], day) == (Slot(born_to=2010),)
    assert open_slots(pair, [year("Kid", 2015), year("Ana", 1980)], day) == ()


def test_the_place_left_beside_an_adult_in_billom_mixte_is_the_childs(billom: Contest):
    mixte = billom.category("mixte")
    assert mixte is not None
    assert open_slots(mixte, [dated("Marc", "1970-01-01")], billom.date) == (Slot(max_age=11),)


def test_a_child_refused_in_the_wrong_age_group_fits_the_right_one(castrillo: Contest):
    b = castrillo.category("infantil-b")
    assert b is not None
    day = castrillo.date
    assert ids(fitting_categories(castrillo, b, [year("Nico", 2012)], day)) == ["infantil-c"]
    assert ids(fitting_categories(castrillo, b, [year("Hugo", 2018)], day)) == ["infantil-a"]
    # one person stays one person: an adult fits the individual category, not the pairs
    assert ids(fitting_categories(castrillo, b, [year("Ana", 1980)], day)) == ["adultos"]
    # a child who fits the category chosen is not offered it again, nor anything else
    assert fitting_categories(castrillo, b, [year("Nico", 2015)], day) == ()
    # nothing typed: nothing to fit
    assert fitting_categories(castrillo, b, [], day) == ()


def test_two_children_fit_no_castrillo_category_together(castrillo: Contest):
    pair = castrillo.category("parejas")
    assert pair is not None
    kids = [year("Kid One", 2015), year("Kid Two", 2016)]
    assert fitting_categories(castrillo, pair, kids, castrillo.date) == ()
    assert fitting_categories(castrillo, pair, kids[1:], castrillo.date) == ()  # not a pair
    # the second child on their own fits Infantil B (what the chat names)
    assert ids(fitting_categories(castrillo, pair, kids[1:], castrillo.date, alone=True)) == [
        "infantil-b"]


def test_a_billom_junior_pair_with_an_adult_fits_mixte(billom: Contest):
    junior = billom.category("junior")
    assert junior is not None
    team = [dated("Léa", "2000-03-11"), dated("Tom", "1990-01-01")]
    assert ids(fitting_categories(billom, junior, team, billom.date)) == ["mixte"]
    # a 15-year-old first fits the pairs for 12 and over
    teen = [dated("Teen", "1996-06-21")]
    assert ids(fitting_categories(billom, junior, teen, billom.date)) == ["adulte", "expert"]
    # a year alone cannot fit a category that goes by age on the day
    assert fitting_categories(billom, junior, [year("Tom", 1990)], billom.date) == ()


def test_a_switch_is_not_offered_where_the_members_would_be_asked_other_questions(
        billom: Contest):
    """The earlier members' answers must stay valid: a category asking them other questions
    is not offered (with one member, who has answered nothing yet, it is)."""
    only_mixte = Question("club", {"en": "Club?"}, categories=("mixte", "adulte"))
    contest = replace(billom, questions=(*billom.questions, only_mixte))
    junior = contest.category("junior")
    assert junior is not None
    team = [dated("Léa", "2000-03-11"), dated("Tom", "1990-01-01")]
    assert fitting_categories(contest, junior, team, contest.date) == ()
    teen = [dated("Teen", "1996-06-21")]
    assert ids(fitting_categories(contest, junior, teen, contest.date)) == ["adulte", "expert"]


def test_a_question_short_form_is_its_label_else_the_question_without_its_marks():
    labelled = Question("aepuzz_member", {"es": "¿Es socio/a de Aepuzz?"},
                        label={"es": "socio/a de Aepuzz"})
    assert labelled.short("es") == "socio/a de Aepuzz"
    bare = Question("aepuzz_member", {"es": "¿Es socio/a de Aepuzz?",
                                      "fr": "Membre d'Aepuzz ?", "en": "Aepuzz member?"})
    assert [bare.short(lang) for lang in ("es", "fr", "en")] == [
        "Es socio/a de Aepuzz", "Membre d'Aepuzz", "Aepuzz member"]
    assert Question("x", {"en": "?"}).short("en") == "x"


PAIRS = Category(id="pairs", name="Pairs", members=2, pieces=500, time_limit=3600, fee=0,
                 slots=(Slot(), Slot()))
# 14 or over, or any age with an adult (18 or over) in the entry; the other place: anyone
FAMILY = Category(id="family", name="Family", members=2, pieces=500, time_limit=3600, fee=0,
                  slots=(Slot(min_age=14, alternatives=(Slot(with_adult=18),)), Slot()))
FAMILY_CONTEST = Contest(name="Family", date=date(2027, 7, 3), timezone="UTC",
                         categories=(PAIRS, FAMILY))


def test_a_switch_needs_the_adult_only_once_the_entry_is_complete():
    kid, kid2 = dated("Kid", "2015-01-01"), dated("Kid Two", "2015-06-01")  # 12 on the day
    adult = dated("Ana", "1980-01-01")
    day = FAMILY_CONTEST.date
    # one child: an adult may still come as the second member
    assert ids(fitting_categories(FAMILY_CONTEST, PAIRS, [kid], day)) == ["family"]
    assert ids(fitting_categories(FAMILY_CONTEST, PAIRS, [kid, adult], day)) == ["family"]
    # two children make the whole entry: nobody is the adult the first place needs
    assert fitting_categories(FAMILY_CONTEST, PAIRS, [kid, kid2], day) == ()


def test_a_switch_keeps_the_questions_asked_of_the_members_already_entered():
    team = [dated("Kid", "2015-01-01"), dated("Ana", "1980-01-01")]
    day = FAMILY_CONTEST.date
    both = Question("club", {"en": "Club?"}, categories=("pairs", "family"))
    contest = replace(FAMILY_CONTEST, questions=(both,))
    assert ids(fitting_categories(contest, PAIRS, team, day)) == ["family"]
    # asked in pairs only: the family entry would lose the answers given
    pairs_only = Question("club", {"en": "Club?"}, categories=("pairs",))
    contest = replace(FAMILY_CONTEST, questions=(pairs_only,))
    assert fitting_categories(contest, PAIRS, team, day) == ()
    assert ids(fitting_categories(contest, PAIRS, team[:1], day)) == ["family"]  # no answer yet
    # a question of the entry (not of each member) is asked once the members are all in:
    # no answer to keep yet
    per_entry = Question("club", {"en": "Club?"}, per="entry", categories=("pairs",))
    contest = replace(FAMILY_CONTEST, questions=(per_entry,))
    assert ids(fitting_categories(contest, PAIRS, team, day)) == ["family"]
