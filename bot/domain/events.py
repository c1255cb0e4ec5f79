"""Every kind of event the history holds, as one enum; the groups of kinds derive from it.

``EventKind`` is a ``StrEnum``: a kind is stored, compared and logged as its plain string."""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    # the clocks
    CLOCK_START = "clock_start"
    PAUSE = "pause"
    RESUME = "resume"
    # the escape
    HINT = "hint"
    SOLUTION = "solution"
    REQUEST_REFUSED = "request_refused"
    READY = "ready"
    NOT_FINISHED = "not_finished"  # a volunteer found the puzzle not done after a /listo
    PHOTO = "photo"  # a participant's photo, self-timed at home (data: the file, what for)
    RETAKE = "retake"  # a reviewer asked for another photo of a finish claimed (ref: the /listo)
    OWN_START = "own_start"  # an entry started a puzzle at its own moment (stage: the puzzle)
    STAGE = "stage"
    ESCAPE = "escape"
    HANDOVER = "handover"
    # results
    FINISH = "finish"
    PIECES = "pieces"
    PENALTY = "penalty"
    SPLIT = "split"
    OUTCOME = "outcome"
    UNDO = "undo"
    RESULTS_FINAL = "results_final"  # a category's results made final
    # rounds
    ROUND_FINAL = "round_final"
    INVITED = "invited"  # a qualifier invited to the next round (ref: the round; data: deadline)
    INVITE_REPLY = "invite_reply"  # its answer (data: answer "yes" or "no"; the latest counts)
    INVITE_LAPSED = "invite_lapsed"  # its deadline passed without an answer
    # registration and places
    REGISTERED = "registered"
    PAYMENT = "payment"
    WITHDRAW = "withdraw"
    MEMBER_CHANGE = "member_change"  # a team's member replaced, added or removed (data: old, new)
    # who is who
    LINK = "link"
    VOLUNTEER_INVITE = "volunteer_invite"
    VOLUNTEER_JOIN = "volunteer_join"
    ORGANISER_INVITE = "organiser_invite"
    ORGANISER_JOIN = "organiser_join"
    # what the bot told people
    ALERT = "alert"
    NOTICE = "notice"
    STATUS_NOTICE = "status_notice"
    ANNOUNCEMENT = "announcement"
    CLAIM = "claim"  # a volunteer said "I'm going" to a volunteers' line (ref: the line)
    CLOSING_REPORT = "closing_report"


# Not an event: the store stamps a write to the entries or members tables with this name,
# a correction (an event that supersedes another) with CORRECTION, writes undone with UNDONE.
ENTRY_ROWS = "entry"
CORRECTION = "correction"
UNDONE = "undone"

_K = EventKind
CLOCK_KINDS = (_K.CLOCK_START, _K.PAUSE, _K.RESUME)
ENTRY_KINDS = (_K.HINT, _K.SOLUTION, _K.STAGE, _K.ESCAPE, _K.FINISH, _K.PIECES, _K.READY,
               _K.NOT_FINISHED, _K.PENALTY, _K.SPLIT, _K.OUTCOME, _K.PHOTO, _K.RETAKE,
               _K.OWN_START)
VOLUNTEER_KINDS = (_K.STAGE, _K.ESCAPE, _K.FINISH, _K.PIECES, _K.PENALTY, _K.SPLIT, _K.OUTCOME,
                   _K.NOT_FINISHED, _K.RETAKE)
ROUND_KINDS = (_K.ROUND_FINAL,)  # who goes on: the lineups of the rounds after the first
INVITE_KINDS = (_K.INVITED, _K.INVITE_REPLY, _K.INVITE_LAPSED)  # ... when they are invited
# a place held while its people pay in the chat (value: until when), the payments feature's
# event kind (bot/features/payments): it moves places as payments and withdrawals do
HOLD = "hold"
# a freed place offered to the next in line (value: the deadline to accept it, from when its
# people were told), and the offer accepted: the offers feature's (bot/features/waiting_list)
OFFER = "offer"
ACCEPT = "accept"
# a member's name or birth corrected as at registration (data: position, old, new), the
# corrections feature's (bot/features/corrections): the member is the same person, so it is
# no change of the team's (member_change, keep_originals)
MEMBER_FIX = "member_fix"
# money given back to an entry, as an organiser records it (value: cents), the refunds
# feature's (bot/features/refunds): what is still to give back is what is owed less these
REFUND = "refund"
# an entry registered by someone alone in a category of pairs or teams, looking for a partner
# (its members too few until matched), and the match: another such entry's members joining it
# (data: the other entry and its members), the partners feature's (bot/features/partners);
# a proposal is one entry asking to be matched with another (value: the other's number)
SEEK = "seek"
MATCH = "match"
PROPOSAL = "proposal"
# personal data removed (bot/features/privacy): the contest's retention ran (``purge``, once;
# value: the days kept), an entry's data erased on request (``erase``), an entry's people
# agreeing to keep its births for the ratings or taking it back (``consent``, value 1 or 0)
PURGE = "purge"
ERASE = "erase"
CONSENT = "consent"
# an answer to a question changed by the entry's people or the organisers (bot/features/answers;
# data: member position or null for the entry's own, question, old, new)
ANSWER_FIX = "answer_fix"
PLACE_KINDS = (ENTRY_ROWS, _K.PAYMENT, _K.WITHDRAW, HOLD, OFFER, ACCEPT, REFUND, SEEK, MATCH)
ORGANISER_UNDOABLE = VOLUNTEER_KINDS + CLOCK_KINDS
