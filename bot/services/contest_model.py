"""The contest file, declared: every table and key the bot reads, with its kind, default,
limits and meaning, in one place. The reader (``contest_file`` and the modules it calls,
through ``contest_toml.Table``) reads each key through this declaration: a key read but not
declared, or read as another kind, with other limits or another default, is a bug the tests
meet at once (``DeclarationError``). ``docs/contest-file.md`` and
``contests/contest.schema.json`` are written from it (``python -m bot contest-reference``),
and a test fails when either is stale.

A feature's own table is declared beside its settings (``Feature.keys``)."""

from __future__ import annotations

from bot.domain.contest import CHOICE, ESCAPE_PLAYS, PER_ENTRY, PER_MEMBER, TEXT, YES_NO
from bot.domain.ranking import AGE_BY, SHARED_PRIZES, TIE_BREAKS, UNFINISHED_KEYS
from bot.domain.rounds import SEATINGS
from bot.features.standings.rules import RANKING_VISIBILITY
from bot.features.tables.rules import SEATING_RULES
from bot.services.contest_timing import TIMINGS
from bot.services.contest_toml import LANGUAGES, MAX_DURATION_DAYS
from bot.support.contest_keys import DEPENDS, Key, Section
from bot.support.registry import REGISTRY

# an entry's people: a marathon's team of any size (places are matched, not tried one
# seating after another, so a large team costs little; names stay on one line of a list)
MAX_MEMBERS = 30
MAX_AGE = 120  # years, in slots
MAX_PENALTY = 24 * 3600  # seconds one penalty may add
MAX_PAY_WITHIN_DAYS = 365
MAX_HEATS = 50
MAX_PER_TABLE = 4  # entries sharing one table
MAX_CHOICES = 60  # buttons, 3 a row
MAX_TEXT_ANSWER = 200  # characters of a text answer
PUZZLE_ORDERS = ("fixed", "any")
UNFINISHED_SCHEMA = (("items", {"enum": list(UNFINISHED_KEYS)}),)

_DAY = "the contest's date"


def _lang_doc(what: str) -> str:
    return (f"{what}: one text for every language, or one per language "
            f"({{ {', '.join(f'{c} = ...' for c in LANGUAGES[:3])} }}; {', '.join(LANGUAGES)})")


CONTEST = Section("contest", "The contest itself. Required, and read first: its time zone "
                  "and date give every later time its meaning.", (
    Key("name", "text", "The contest's name, as people see it.",
        example='"Concurso de Puzzles Castrillo 2023"'),
    Key("date", "date", "The contest day (the first day, for a contest over several days).",
        example="2023-04-22"),
    Key("timezone", "text", "The time zone every date and time of the file is in (an IANA "
        "name).", example='"Europe/Madrid"'),
    Key("language", "choice", "The language of the organisers' chat and the default for "
        "people whose phone's language the bot does not speak.", default="es",
        choices=LANGUAGES),
    Key("currency", "text", "The currency fees and refunds are in.", default="EUR"),
    Key("venue", "text", "Where it happens, told on the confirmation card.", default=""),
    Key("bring", "texts", _lang_doc("What to bring, told on the confirmation card"),
        default=None, default_doc="nothing said", example='"a pencil"'),
    Key("start", "time", "When the contest is scheduled to start (told to people; the "
        "clocks start when an organiser starts them).", default=None,
        default_doc="not said", example='"14:00"'),
    Key("results_at", "time", "When the results are announced.", default=None,
        default_doc="not said", example='"17:15"'),
    Key("finish_at_limit_counts", "bool", "A finish exactly at the time limit counts as a "
        "finish.", default=True),
    Key("penalised_finish_counts", "bool", "A finish within the limit stays a finish when "
        "its penalties take its time past the limit (false: it ranks as not finished, every "
        "piece placed).", default=True),
    Key("confirm_correction_minutes", "int", "How long after a result a volunteer's "
        "correction is asked to be confirmed.", default=5, minimum=0, maximum=24 * 60),
    Key("plausible_seconds_per_piece", "number", "A finish faster than this per piece is "
        "asked again before it is recorded (0: never asked).", default=2.0, minimum=0,
        maximum=60),
    Key("participants_see_ranking", "choice", "When participants may see the ranking with "
        "the ranking command: once it is final, always, or never.", default="final",
        choices=RANKING_VISIBILITY),
    Key("seating", "choice", "How the tables of a category played in one round are numbered: "
        "by category, or by entry number.", default="categories", choices=SEATING_RULES),
    Key("timing", "choice", "Who records the finishes: volunteers at the tables, or each "
        "entry itself at home (a command, a photo, a reviewer). Every category's default.",
        default="volunteers", choices=TIMINGS),
    Key("own_start", "bool", 'With timing = "self": each entry starts each puzzle itself. '
        "Every category's default.", default=False),
    Key("time_up_photo_minutes", "int", "Played at home: how long after time's up the photo "
        "of the puzzle as it stood is still taken.", default=15, minimum=0,
        maximum=24 * 60),
    Key("tie_break", "choice", "Equal results: shared places, or the earlier round's result "
        "decides.", default="shared", choices=TIE_BREAKS),
    Key("shared_prizes", "choice", "Entries sharing a place each get that place's prize, or "
        "the prizes of the places they cover are pooled.", default="each",
        choices=SHARED_PRIZES),
    Key("unfinished_order", "strings", "What orders the entries that did not finish, first "
        "key first: pieces placed, puzzles finished, the time the last was finished "
        "(a text is a list of one). Every category's default.", default=None,
        default_doc='["pieces"]', example='["puzzles", "time"]', also=(str,),
        extra_schema=UNFINISHED_SCHEMA),
), example='[contest]\nname = "Spring contest"\ndate = 2027-04-22\ntimezone = "Europe/Madrid"')

REFUND = Section("registration.refunds", "Refund tiers: a withdrawal before `until` gets "
                 "back `percent` of what the entry paid; the tiers in increasing `until`, "
                 "their percent never going up.", (
    Key("until", "moment", "The first moment this tier no longer applies.",
        example="2027-05-01T00:00:00"),
    Key("percent", "int", "What is given back.", minimum=0, maximum=100, example="50"),
), many=True)

REGISTRATION = Section("registration", "Registration in the chat. Optional: without it, "
                       "registration is always open, first come first served.", (
    Key("opens", "moment", "When registration opens.", default=None,
        default_doc="always open", example="2027-03-01T10:00:00"),
    Key("closes", "moment", "When it closes (after opens).", default=None,
        default_doc="never", example="2027-04-15T23:59:00"),
    Key("priority", "choice", "What decides who gets a place: the registration's date or "
        'the payment\'s ("payment" needs payment_required).', default="registration",
        choices=("registration", "payment")),
    Key("payment_required", "bool", "An entry competes only once it has paid.",
        default=False),
    Key("shared_capacity", "int", "Places shared by all categories, besides each "
        "category's capacity.", default=None, default_doc="no limit", minimum=1),
    Key("shared_people_capacity", "int", "People all categories' entries holding a place may "
        "have together (the hall's seats), besides the capacities in entries: an entry "
        "whose members don't all fit waits.", default=None, default_doc="no limit",
        minimum=1),
    Key("withdrawal_refund_until", "moment", "A withdrawal before then gets everything "
        "back (the simple case of refunds; not with [[registration.refunds]]).",
        default=None, default_doc="no refund"),
    Key("left_out_refund", "text", "What entries left without a place are told about their "
        "refund.", default=""),
    Key("one_entry_per_person", "choice", 'A person may be in one entry per category (true '
        'or "category") or in the whole contest ("contest").', default=False,
        choices=("category", "contest"), also=(bool,)),
    Key("pay_within_days", "int", "An entry not paid within this many days of registering "
        "lapses, and the next in line moves up.", default=None, default_doc="never lapses",
        minimum=1, maximum=MAX_PAY_WITHIN_DAYS),
    Key("members_open", "moment", "When entries with a member (members_if) may register, "
        "before opens.", default=None, default_doc="with everyone"),
    Key("members_if", "strings", "Yes/no questions asked of each member: a yes makes the "
        "entry a member's (with members_open).", default=(), example='["club_member"]'),
    Key("refunds", "tables", "Refund tiers.", default=(), section="registration.refunds"),
    Key("how_to_pay", "texts", _lang_doc("How to pay, told with the fee while an entry is "
        "unpaid"), default=None, default_doc="not said"),
))

CHOICES = Section("questions.choices", "A choice of a choice question written as a table "
                  "(a plain text is a choice with no label of its own).", (
    Key("id", "text", "What is stored and exported: 1 to 32 letters, digits, single spaces, "
        ". _ ' ( ) or -.", example='"FR"'),
    Key("label", "texts", _lang_doc("What its button shows"), default=None,
        default_doc="the id"),
    Key("places", "int", "At most this many entries with this answer hold a place in each "
        "category.", default=None, default_doc="no limit", minimum=1),
), many=True)

QUESTIONS = Section("questions", "Questions asked in the chat at registration, in the "
                    "file's order.", (
    Key("id", "text", "Letters, digits, - or _ (at most 40): the CSV column.",
        example='"country"'),
    Key("text", "texts", _lang_doc("The question")),
    Key("kind", "choice", "Yes/No buttons, one button per choice, or a typed answer.",
        default=YES_NO, choices=(YES_NO, CHOICE, TEXT)),
    Key("per", "choice", "Asked of each member, or once per entry.", default=PER_MEMBER,
        choices=(PER_MEMBER, PER_ENTRY)),
    Key("choices", "strings", 'kind = "choice": the choices, each a text or a table '
        "(questions.choices).", default=None, default_doc='required with kind = "choice"',
        example='["ES", "FR", { id = "DE", label = "Deutschland" }]',
        section="questions.choices",
        extra_schema=(("items", {"anyOf": [{"type": "string"},
                                           {"$ref": "#/$defs/questions.choices"}]}),
                      ("minItems", 1), ("maxItems", MAX_CHOICES))),
    Key("max_length", "int", 'kind = "text": the longest answer, in characters.',
        default=40, minimum=1, maximum=MAX_TEXT_ANSWER),
    Key("label", "texts", _lang_doc("The short name shown before an answer"),
        default=None, default_doc="the id"),
    Key("show", "bool", "Choice and text questions: the answer follows the names in "
        "rankings.", default=False),
    Key("quota", "int", 'kind = "choice": at most this many entries with the same answer '
        "hold a place in each category.", default=None, default_doc="no limit", minimum=1),
    Key("categories", "strings", "Asked only in these categories (ids).", default=(),
        default_doc="every category"),
    Key("public", "bool", "Its answers may be published (export document --public).",
        default=False),
    Key("on_tables", "bool", "Its answers are printed on the table lists, after the names "
        "(a need the hall must meet: an accessible table, a left-handed member). A yes/no "
        "question prints its label when a member answered yes.", default=False),
), many=True)

LOCAL = Section("local", "Local entries (reserved places, local prizes).", (
    Key("any_member", "strings", "Yes/no questions asked of each member: an entry is local "
        "when a member answers yes to one.", example='["lives_here"]'),
))

DISCOUNT = Section("discount", "A discount per member.", (
    Key("amount", "money", "Taken off the fee per member answering yes to any of any_of.",
        example="2"),
    Key("any_of", "strings", "Yes/no questions asked of each member.",
        example='["club_member"]'),
))

MEAL = Section("meal", "A meal sold with the registration.", (
    Key("adult", "money", "The price for an adult.", example="12"),
    Key("child", "money", "The price for a child.", example="8"),
))

BREAKS = Section("breaks", "Times when every clock stops.", (
    Key("start", "time", "When the break begins.", example='"15:00"'),
    Key("end", "time", "When it ends (after start).", example='"15:15"'),
    Key("date", "date", "Its day, for a contest over several days.", default=DEPENDS,
        default_doc=_DAY),
), many=True)

PENALTIES = Section("penalties", "The kinds of penalty volunteers record with the penalty "
                    "command.", (
    Key("id", "text", "Lowercase letters, digits, - or _ (at most 32): typed in "
        "the penalty command.", example='"lost_piece"'),
    Key("name", "texts", _lang_doc("Its name, one line")),
    Key("seconds", "int", "Seconds each adds to the entry's time.", minimum=1,
        maximum=MAX_PENALTY, example="10"),
), many=True)

_STAGE_TEXT = (
    Key("stage", "int", "The stage (1 to stages).", minimum=1, example="2"),
    Key("text", "text", "What the volunteers hand over.", example='"Look under the table"'),
)
HINTS = Section("escape.hints", "A clue's text per stage, for the volunteers.", _STAGE_TEXT,
                many=True)
SOLUTIONS = Section("escape.solutions", "A solution's text per stage, for the volunteers.",
                    _STAGE_TEXT, many=True)

MAX_PICTURE_BYTES = 10 * 1024 * 1024  # Telegram's most for a photo sent by upload
MAX_ENIGMA_CHOICES = 12

ENIGMAS = Section("escape.enigmas", 'play = "chat": one stage\'s enigma, hosted by the bot '
                  "(one per stage).", (
    Key("stage", "int", "The stage (1 to stages).", minimum=1, example="1"),
    Key("text", "texts", _lang_doc("The enigma, sent to the pair's phones when the stage "
        "begins")),
    Key("answers", "strings", "The answers accepted, compared as people type them: "
        "capitals, accents, spaces and punctuation don't count.",
        example='["Zaragoza", "Saragossa"]', extra_schema=(("minItems", 1),)),
    Key("numbers", "bool", "An answer that is a whole number is also right written in "
        "words, in any language the bot speaks (12, doce, twelve, douze).", default=False),
    Key("choices", "strings", "Answers offered as buttons (the answer command shows them; "
        "typing still counts). At least one of them must be accepted.", default=(),
        example='["Norte", "Sur", "Este", "Oeste"]',
        extra_schema=(("maxItems", MAX_ENIGMA_CHOICES),)),
    Key("picture", "text", "A picture (.jpg, .jpeg, .png, .webp: sent as a photo) or a "
        "file (.pdf or any other: sent as a document) beside the contest file, its path "
        "relative to it; at most 10 MB.", default=None, default_doc="none",
        example='"escape/stage1.jpg"'),
    Key("hint", "texts", _lang_doc("The clue the bot sends when it is bought"),
        default=None, default_doc="[[escape.hints]]'s text for the stage"),
    Key("solution", "texts", _lang_doc("The solution the bot sends when it is bought"),
        default=None, default_doc="[[escape.solutions]]'s text for the stage"),
), many=True)

ESCAPE = Section("escape", "The escape game played before the puzzle by escape categories "
                 "(hints and solutions bought with tickets).", (
    Key("stages", "int", "How many stages the game has.", minimum=1, example="5"),
    Key("initial_tickets", "int", "Tickets each pair starts with.", minimum=0, example="3"),
    Key("hint_cost", "int", "Tickets a hint costs.", minimum=1, example="1"),
    Key("solution_cost", "int", "Tickets a solution costs.", minimum=1, example="2"),
    Key("cooldown", "duration", "The least time between two purchases.", example='"5:00"'),
    Key("ticket_value", "duration", "The time a ticket bought with time costs.",
        example='"10:00"'),
    Key("time_limit", "duration", "The escape's time limit.", example='"1:30:00"'),
    Key("cap_solved", "int", "Unused tickets counted at most, for a pair that solved the "
        "game.", minimum=0, example="3"),
    Key("caps_by_stage", "ints", "Unused tickets counted at most, by the stage reached at "
        "the limit (one per stage).", example="[0, 0, 1, 2, 3]",
        extra_schema=(("items", {"type": "integer", "minimum": 0}),)),
    Key("hint_ticket_penalty", "duration", "Time added per hint bought without tickets.",
        example='"5:00"'),
    Key("solution_ticket_penalty", "duration", "Time added per solution bought without "
        "tickets.", example='"10:00"'),
    Key("confirmation_grace", "duration", "How long after the limit a stage may still be "
        "confirmed.", default="15:00"),
    Key("hints", "tables", "Hint texts.", default=(), section="escape.hints"),
    Key("solutions", "tables", "Solution texts.", default=(), section="escape.solutions"),
    Key("play", "choice", 'Who runs the game: volunteers, with the game itself elsewhere '
        '(they hand clues over and confirm stages), or the bot in the chat ("chat": the '
        "enigmas below, answers checked, clues sent, every stage known).",
        default="volunteers", choices=ESCAPE_PLAYS),
    Key("enigmas", "tables", 'play = "chat": the enigmas, one per stage.', default=(),
        section="escape.enigmas"),
    Key("pause_after", "int", 'play = "chat": wrong answers in a row in one stage before '
        "the pair must wait (guessing).", default=3, minimum=1, maximum=100),
    Key("pause", "duration", 'play = "chat": how long that wait lasts.', default="1:00"),
    Key("tell_volunteers", "bool", 'play = "chat": the volunteers hear of every clue and '
        "solution given (they always do when volunteers run the game).", default=False),
))

_PLACE = (
    Key("born_from", "int", "Born in this year or later.", default=None, example="2010"),
    Key("born_to", "int", "Born in this year or earlier.", default=None, example="2015"),
    Key("min_age", "int", "Aged at least this on the contest day.", default=None,
        minimum=0, maximum=MAX_AGE),
    Key("max_age", "int", "Aged at most this on the contest day.", default=None,
        minimum=0, maximum=MAX_AGE),
    Key("with_adult", "int", "Only beside another member of the entry aged at least this.",
        default=None, minimum=1, maximum=MAX_AGE, example="18"),
)
SLOTS = Section("categories.slots", "One member's place, one per member ({} is anyone): "
                "birth years or ages, not both.", _PLACE + (
    Key("or", "tables", "Alternatives, each such a place (not nested further).", default=(),
        section="categories.slots.or", example="[{ with_adult = 18 }]"),
), many=True, example="slots = [{ min_age = 14, or = [{ with_adult = 18 }] }, {}]")
SLOT_OR = Section("categories.slots.or", "An alternative place.", _PLACE, many=True)

RESERVED = Section("categories.reserved", "Places kept for local entries ([local]).", (
    Key("places", "int", "How many.", minimum=1, example="5"),
    Key("for", "choice", "Who they are kept for.", choices=("local",)),
    Key("until", "moment", "When they are given to everyone.",
        example="2023-04-01T00:00:00"),
), many=True)

EXTRA_PRIZES = Section("categories.extra_prizes", "Prizes besides the positions.", (
    Key("id", "text", "Its id.", example='"best_local"'),
    Key("name", "text", "Its name.", example='"Best local pair"'),
    Key("prize", "text", "The prize.", example='"A puzzle"'),
    Key("among", "choice", "Among everyone, or local entries only.", default="all",
        choices=("all", "local")),
    Key("cumulative", "bool", "May go to an entry that already has a position's prize.",
        default=True),
), many=True)

RANKINGS = Section("categories.rankings", "A ranking of its own within the category "
                   "(youth, seniors, a country).", (
    Key("id", "text", "Lowercase letters, digits, - or _.", example='"youth"'),
    Key("name", "texts", _lang_doc("Its name")),
    Key("min_age", "int", "Every member at least this old on the contest day.",
        default=None, minimum=0, maximum=MAX_AGE),
    Key("max_age", "int", "Every member at most this old on the contest day.",
        default=None, minimum=0, maximum=MAX_AGE),
    Key("age_by", "choice", 'What min_age and max_age count: the age on the contest day '
        '("day": a member known only by the year of birth is in only when both ages the year '
        'allows fit), or the age reached in the contest\'s year ("year": the year of birth '
        "decides, for everyone).", default="day", choices=AGE_BY),
    Key("question", "text", "A question whose answers (answers) put an entry in it.",
        default=None),
    Key("answers", "strings", "With question: the answers in this ranking.", default=()),
    Key("prizes", "strings", "Its prizes, first place first.", default=()),
), many=True)

INVITE = Section("categories.rounds.advance.invite", "The qualifiers are invited and "
                 "confirm (by, within, or both).", (
    Key("by", "moment", "The date-time the qualifiers answer by.", default=None),
    Key("within", "duration", "How long they have to answer once told.", default=None,
        example='"3 days"'),
    Key("remind", "duration", 'Those still silent are reminded this long before their '
        'deadline ("0:00": never).', default=None, default_doc="a day before, or less"),
))

ADVANCE = Section("categories.rounds.advance", "Who goes to the next round (required "
                  "before the last round). At least one of per_heat, best, top_percent, "
                  "better_than.", (
    Key("per_heat", "int", "The best of each heat.", default=None, minimum=1),
    Key("best", "int", "The best of the round besides them.", default=None, minimum=1),
    Key("top_percent", "int", "The best percent of the round.", default=None, minimum=1,
        maximum=100),
    Key("better_than", "duration", "Every entry faster than this.", default=None),
    Key("max_per", "int", "At most this many with the same answer to by.", default=None,
        minimum=1),
    Key("by", "text", "The question max_per counts by (a country, a club).", default=None),
    Key("invite", "table", "Invitations to confirm.", default=None,
        section="categories.rounds.advance.invite"),
), example='advance = { per_heat = 2, best = 8 }')

HEAT = Section("categories.rounds.heat", "One heat's own day, time and place (one table "
               "per heat).", (
    Key("date", "date", "Its day.", default=DEPENDS, default_doc="the round's"),
    Key("start", "time", "Its start.", default=DEPENDS, default_doc="the round's"),
    Key("venue", "text", "Where it is played.", default=""),
    Key("closes", "moment", "First round, heats chosen at registration: its registration "
        "deadline.", default=None),
    Key("from", "strings", "A later round: the heats of the round before whose qualifiers "
        "play it (choices or numbers).", default=None, default_doc="all",
        extra_schema=(("items", {"type": ["string", "integer"]}),)),
    Key("name", "texts", _lang_doc("Its name"), default=None, default_doc="numbered"),
), many=True)

_ORDER = (
    Key("puzzles", "ints", "Several puzzles played one after the other, their pieces "
        "(two or more; pieces is their total).", default=[], default_doc="one puzzle",
        example="[1000, 500]", extra_schema=(("items", {"type": "integer", "minimum": 1}),
                                              ("minItems", 2))),
    Key("puzzle_order", "choice", "With puzzles: the listed order, or each entry chooses its "
        "own.", default="fixed", choices=PUZZLE_ORDERS),
    Key("play", "int", 'With puzzle_order = "any": each entry plays this many of the '
        "puzzles.", default=None, default_doc="all of them", minimum=2),
)

ROUNDS = Section("categories.rounds", "Heats, semi-finals, a final: each round on its day; "
                 "every round but the last says who advances.", (
    Key("id", "text", "Lowercase letters, digits or _ (at most 24).", example='"final"'),
    Key("name", "texts", _lang_doc("Its name")),
    Key("date", "date", "Its day.", default=DEPENDS, default_doc=_DAY),
    Key("start", "time", "Its start.", default=None, default_doc="not said"),
    Key("pieces", "int", "Its puzzle's pieces.", default=DEPENDS,
        default_doc="the category's", minimum=1),
    Key("time_limit", "duration", "Its time limit.", default=None,
        default_doc="the category's"),
    Key("heats", "int", "Heats played apart.", default=1, minimum=1, maximum=MAX_HEATS),
    Key("heats_by", "text", "A choice question asked per entry: a heat per choice.",
        default=None),
    Key("heat", "tables", "Each heat's day, time, place.", default=(),
        section="categories.rounds.heat"),
    Key("advance", "table", "Who goes on.", default=None, default_doc="required but in the "
        "last round", section="categories.rounds.advance"),
    Key("seating", "choice", "How its tables are given.", default="",
        default_doc="in blocks", choices=SEATINGS),
    Key("per_table", "int", "Entries sharing one table.", default=1, minimum=1,
        maximum=MAX_PER_TABLE),
    *_ORDER,
), many=True)

CATEGORIES = Section("categories", "The categories entries register in and are ranked in. "
                     "At least one.", (
    Key("id", "text", "Lowercase letters, digits, - or _: names it in commands and exports.",
        example='"pairs"'),
    Key("name", "text", "Its name.", example='"Pairs"'),
    Key("members", "int", "People in an entry (the most).", minimum=1, maximum=MAX_MEMBERS,
        example="2"),
    Key("min_members", "int", "The fewest, when entries may be smaller.", default=None,
        default_doc="members", minimum=1, limits_doc="at most members"),
    Key("at_table", "int", "How many of an entry's members play at the table at a time (a "
        "marathon's large teams taking turns): a capacity in people counts this many per "
        "entry at most.", default=None, default_doc="members", minimum=1,
        limits_doc="at most members", example="4"),
    Key("slots", "tables", "One place per member.", default=(), default_doc="anyone",
        section="categories.slots"),
    Key("pieces", "int", "The puzzle's pieces.", default=DEPENDS,
        default_doc="required, or the puzzles' total", minimum=1, example="500"),
    Key("time_limit", "duration", "The time limit.", example='"1:30:00"'),
    Key("fee", "money", "The fee per entry.", example="10"),
    Key("capacity", "int", "Entries holding a place (the rest wait).", default=None,
        default_doc="no limit", minimum=1),
    Key("people_capacity", "int", "People its entries holding a place may have together "
        "(teams of any size in a hall of so many seats): an entry whose members don't all "
        "fit waits, as one beyond capacity does.", default=None, default_doc="no limit",
        minimum=1, limits_doc="at least members"),
    Key("escape", "bool", "Plays the escape game first ([escape]).", default=False),
    Key("start", "time", "Played once: its own scheduled start (its table cards, lists, "
        "the day plan and the projector say it).", default=None,
        default_doc="[contest]'s start", example='"15:30"'),
    Key("seating", "choice", 'Played once: its tables in number order ("blocks") or drawn '
        '("draw", the same draw after a restart; its tables change with a withdrawal until '
        "its clock starts).", default="", default_doc="blocks", choices=SEATINGS),
    Key("prizes", "strings", "The prizes, first place first.", default=()),
    Key("reserved", "tables", "Places kept for local entries.", default=(),
        section="categories.reserved"),
    Key("extra_prizes", "tables", "Prizes besides the positions.", default=(),
        section="categories.extra_prizes"),
    *_ORDER,
    Key("jokers", "int", "With puzzles, played once at the table: how many of them an "
        "entry may give up (the joker command). A puzzle given up counts nothing, and the entry is "
        "ranked by its pieces (its other puzzles whole) even if it finishes the rest.",
        default=0, minimum=0, limits_doc="fewer than the puzzles played", example="1"),
    Key("joker_bonus", "int", "With jokers: pieces added to an entry's count for each joker "
        "it did not use, where pieces rank it (a marathon's +250 for a joker kept).",
        default=0, minimum=0, example="250"),
    Key("rounds", "tables", "Rounds.", default=(), default_doc="played once",
        section="categories.rounds"),
    Key("rankings", "tables", "Rankings of their own.", default=(),
        section="categories.rankings"),
    Key("timing", "choice", "Who records the finishes.", default=DEPENDS,
        default_doc="[contest]'s", choices=TIMINGS),
    Key("own_start", "bool", "Each entry starts each puzzle itself.", default=DEPENDS,
        default_doc="[contest]'s"),
    Key("unfinished_order", "strings", "Who ranks first among those who did not finish.",
        default=DEPENDS, default_doc="[contest]'s", also=(str,),
        extra_schema=UNFINISHED_SCHEMA),
    Key("keep_originals", "int", "Teams may change before they play, keeping this many of "
        "their members (the substitute command).", default=None, default_doc="no change", minimum=0,
        limits_doc="at most members"),
), many=True)

ROOT = Section("", "A contest file.", (
    Key("contest", "table", "The contest.", section="contest"),
    Key("registration", "table", "Registration.", default=None, section="registration"),
    Key("questions", "tables", "Questions.", default=(), section="questions"),
    Key("local", "table", "Local entries.", default=None, section="local"),
    Key("discount", "table", "A discount.", default=None, section="discount"),
    Key("meal", "table", "A meal.", default=None, section="meal"),
    Key("breaks", "tables", "Breaks.", default=(), section="breaks"),
    Key("penalties", "tables", "Penalties.", default=(), section="penalties"),
    Key("escape", "table", "The escape game.", default=None, section="escape"),
    Key("categories", "tables", "Categories.", section="categories"),
))

CORE = (ROOT, CONTEST, REGISTRATION, REFUND, QUESTIONS, CHOICES, LOCAL, DISCOUNT, MEAL,
        BREAKS, PENALTIES, ESCAPE, HINTS, SOLUTIONS, ENIGMAS, CATEGORIES, SLOTS, SLOT_OR, RESERVED,
        EXTRA_PRIZES, ROUNDS, HEAT, ADVANCE, INVITE, RANKINGS)


def sections() -> dict[str, Section]:
    """Every section by its path: the core's and the installed features' tables (the root
    then lists theirs)."""
    out = {s.path: s for s in CORE}
    extra = [f.keys for f in REGISTRY.features if f.keys is not None]
    for s in extra:
        out[s.path] = s
    out[""] = Section("", ROOT.doc, ROOT.keys + tuple(
        Key(s.path, "table", s.doc.split(".")[0] + ".", default=None, section=s.path)
        for s in extra))
    return out


__all__ = ["MAX_DURATION_DAYS", "sections"]
