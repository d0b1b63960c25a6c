"""Hard at the tables people play, 4 to 6 seats: positions where the heads-up habits
(beat when you can, keep your hand small) make a seat the Durak, and what Hard's
playouts expect the players at such a table to do.

Each position is a line of ``engine.notation``; the seat to decide remembers the discard
(as a seat that saw every bout would), so it knows where every card is.
"""

from __future__ import annotations

from engine import Discarded, GameState, parse_action
from engine.actions import TAKE
from engine.ai import HardBot, NormalBot
from engine.ai.hard import aimed_action, candidates, policy_action
from engine.ai.solver import Solver
from engine.cards import cards_of, mask_of
from engine.view import observe

# Six seats, three out. Seat 3 defends against the jack of diamonds with Jc Jh 6s (clubs
# are trump); seat 0 holds the king of spades, seat 5 the ace (both picked up: everyone
# knows). Beating with the jack of clubs leaves seat 3 to lead into the ace and then to
# defend against the king with nothing that beats it; taking all nine cards gives it the
# trumps to outlast both.
NINE_CARDS = (
    "rules=36 hands=Ks*/-/-/Jc*Jh*6s*/-/As* stock=- trump=Kc "
    "table=7d:9d,7h:9h,7s:Js,9s:9c,Jd discard=6c7c8cTcQcKcAc6d8dTdQdKdAd6h8hThQhKhAh8sTsQs "
    "attacker=0 defender=3 leader=0 dealer=5 phase=open cap=6 held=7 taking=no passed=- "
    "shown=- throwers=0,5 places=0,2,1,0,3,0 result=- moves=88 "
    "seen=5:6:7d7h7s9s/-/-/9cJc9dJd9hJh6sJs/-/KsAs;3:6:7d7h7s9sKs/-/-/9cJc9dJd9hJh6sJs/-/As;"
    "0:6:7d7h7s9sKs/-/-/9cJc9d9hJh6sJs/-/JdAs"
)

# Six seats, three out; seat 2 leads with Qc Ac Qd Qh Ah (spades are trump), seat 4 (to
# defend) holds the queen of spades and seat 0 Th Jh, all of them picked up before. Only
# the ace of clubs is safe whatever the other two do (the ace of hearts loses, the queen
# of hearts draws at best); Normal leads the queen of clubs, which Hard's search with its
# move order finds is not safe either.
ACE_OF_CLUBS = (
    "rules=36 hands=Th*Jh*/-/Qc*Ac*Qd*Qh*Ah*/-/Qs*/- stock=- trump=9s table=- "
    "discard=6c7c8c9cTcJcKc6d7d8d9dTdJdKdAd6h7h8h9hKh6s7s8s9sTsJsKsAs attacker=2 defender=4 "
    "leader=2 dealer=5 phase=lead cap=6 held=1 taking=no passed=- shown=- throwers=0,2 "
    "places=0,2,0,2,0,1 result=- moves=114 seen=2:6:ThJh/-/QcAcQdQhAh/-/Qs/-"
)


def remembering(bot: HardBot | NormalBot, state: GameState) -> None:
    bot.see(Discarded(cards_of(state.discard)))


def test_beating_with_the_trump_lets_the_others_make_seat_3_the_durak() -> None:
    """The position is what the test below says: against two players who both play
    against it, seat 3 loses after beating (and Normal beats)."""
    state = GameState.from_text(NINE_CARDS)
    beat = parse_action("beat Jd with Jc")
    child = state.copy()
    child.apply(3, beat)
    assert Solver(3).value(child) == 0.0
    normal = NormalBot(3, state.rules, 0)
    remembering(normal, state)
    assert normal.decide(observe(state, 3)) == beat


def test_hard_at_six_seats_takes_nine_cards_rather_than_be_the_durak() -> None:
    state = GameState.from_text(NINE_CARDS)
    for seed in range(3):
        bot = HardBot(3, state.rules, seed, budget=None, iterations=30, solver_nodes=4_000)
        remembering(bot, state)
        assert bot.decide(observe(state, 3)) == TAKE


def test_with_three_hands_left_and_every_card_placed_hard_plays_the_safe_lead() -> None:
    state = GameState.from_text(ACE_OF_CLUBS)
    values = {}
    for lead in ("attack Ac", "attack Ah", "attack Qh"):  # the others take long to prove
        child = state.copy()
        child.apply(2, parse_action(lead))
        values[lead] = Solver(2).value(child, 0.75, 1.0)  # a win, or at most 3/4
    assert values == {"attack Ac": 1.0, "attack Ah": 0.0, "attack Qh": 0.5}
    normal = NormalBot(2, state.rules, 0)
    remembering(normal, state)
    assert normal.decide(observe(state, 2)) == parse_action("attack Qc")
    for seed in range(5):
        bot = HardBot(2, state.rules, seed, budget=None, iterations=30)
        remembering(bot, state)
        assert bot.decide(observe(state, 2)) == parse_action("attack Ac")
        assert bot.last_method == "solver"


# Four seats, diamonds trump, the stock full. Seat 0 defends with the high clubs and
# hearts and neither a spade nor a trump; seat 3 leads from 6c 7s 9c 8h Td Jd, seat 1
# holds 6h and 6s.
GAPS = (
    "rules=36 hands=QcKcAcQhKhAh/7c8c6h6s9hTh/TcJcJh7h8s9s/6c7s9c8hTdJd "
    "stock=7d8d9dQdKdAdTsJsQsKsAs6d trump=6d table=- discard=- attacker=3 defender=0 "
    "leader=3 dealer=3 phase=lead cap=5 held=6 taking=no passed=- shown=- throwers=1,2,3 "
    "places=0,0,0,0 result=- moves=0 seen=-"
)


def test_hards_playouts_lead_and_throw_in_what_the_defender_cannot_beat() -> None:
    """In a sample every hand is there, and Hard's model of the players aims at the
    defender's gaps: seat 3 leads the seven of spades, not its cheapest card (the six of
    clubs, which the queen beats), and over 6c:Qc seat 1 throws in the six of spades, not
    of hearts. Normal's policy without an estimate (the coach's model) plays the cheap
    ones; the defender, with nothing that beats the six of spades, takes in both."""
    state = GameState.from_text(GAPS)
    legal = state.legal_actions(3)
    assert policy_action(state, 3, legal) == parse_action("attack 6c")
    assert aimed_action(state, 3, legal) == parse_action("attack 7s")
    state.apply(3, parse_action("attack 6c"))
    state.apply(0, parse_action("beat 6c with Qc"))
    legal = state.legal_actions(1)
    assert policy_action(state, 1, legal) == parse_action("throw 6h")
    assert aimed_action(state, 1, legal) == parse_action("throw 6s")
    state.apply(1, parse_action("throw 6s"))
    legal = state.legal_actions(0)  # the defender is Normal's as it was
    assert aimed_action(state, 0, legal) == policy_action(state, 0, legal) == TAKE


# Four seats, clubs trump, the stock full. Seat 3 leads the six of hearts against seat 0;
# seat 1 may throw in the six of clubs (a trump) or the six of spades.
SIXES = (
    "rules=36 hands=QhKhAhQsKsAs/6c6s7d8d9dTd/JcQcJh7h8s9s/6h7c8c9cJdQd "
    "stock=6dKdAd8h9hTh7sTsJsKcAcTc trump=Tc table=- discard=- attacker=3 defender=0 "
    "leader=3 dealer=3 phase=lead cap=5 held=6 taking=no passed=- shown=- throwers=1,2,3 "
    "places=0,0,0,0 result=- moves=0 seen=-"
)


def test_where_no_sample_tells_the_moves_apart_hard_plays_as_normal() -> None:
    """The candidates list the six of clubs first (the order of the cards); with no
    sample to weigh the moves, Hard keeps its trump and throws in the six of spades, as
    Normal does. At six seats a third of Hard's searches end with every move scoring the
    same in every sample."""
    state = GameState.from_text(SIXES)
    state.apply(3, parse_action("attack 6h"))
    view = observe(state, 1)
    assert candidates(view.legal, mask_of(view.hand), view.trump)[0] == parse_action("throw 6c")
    assert NormalBot(1, state.rules, 0).decide(view) == parse_action("throw 6s")
    hard = HardBot(1, state.rules, 0, budget=None, iterations=0)
    assert hard.decide(view) == parse_action("throw 6s")


# Four seats, clubs trump, the stock empty and every hand known to all. Seat 0 leads the
# six of spades against seat 1, which holds Jd 7s 9s and no trump. Covering with the
# seven lets seat 0 throw in the seven of clubs, which seat 1 cannot beat; nobody holds
# another nine, so the nine ends the bout and makes seat 1 the next attacker.
SEVEN_OR_NINE = (
    "rules=36 hands=7c*Ah*As*/Jd7s9s/Kd*Qh*/Ks*Qs* stock=- trump=Kc table=6s "
    "discard=6c8c9cTcJcQcKcAc6d7d8d9dTdQdAd6h7h8h9hThJhKh8sTsJs attacker=0 defender=1 "
    "leader=0 dealer=3 phase=open cap=6 held=3 taking=no passed=- shown=- throwers=0,2,3 "
    "places=0,0,0,0 result=- moves=60 seen=-"
)


def test_hard_weighs_a_dearer_cover_whose_rank_nobody_can_add() -> None:
    """Normal covers with the cheapest card, the seven, and the seven of clubs follows it;
    the nine is not among the sensible moves the coach weighs, but Hard's search covers
    with it."""
    state = GameState.from_text(SEVEN_OR_NINE)
    view = observe(state, 1)
    seven, nine = parse_action("beat 6s with 7s"), parse_action("beat 6s with 9s")
    assert nine not in candidates(view.legal, mask_of(view.hand), view.trump)
    assert nine in candidates(view.legal, mask_of(view.hand), view.trump, every_cover=True)
    assert NormalBot(1, state.rules, 0).decide(view) == seven
    thrown = state.copy()
    thrown.apply(1, seven)
    assert policy_action(thrown, 0, thrown.legal_actions(0)) == parse_action("throw 7c")
    hard = HardBot(1, state.rules, 0, budget=None, iterations=200)
    remembering(hard, state)
    assert hard.decide(view) == nine
