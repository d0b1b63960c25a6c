"""Sections 4 and 5 for each update one of our seats is sent: the next seq, a view that is
the seat's own and sane, events trimmed for the seat and explaining the view, the bout's
limit, who may throw in, and the opening of each game (the deal, the trump, who leads).
Most are game-long rules (``Record.invariant``), reported once after the games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from client.cli.conformance.peer import Peer
from client.cli.conformance.public import (
    GAME_REASONS,
    Public,
    cards_of,
    event_name,
    next_in_play,
)
from client.cli.conformance.report import Record
from engine import (
    BoutStarted,
    Dealt,
    Drew,
    FirstAttacker,
    GameEnded,
    GameResult,
    Phase,
    SeatView,
    Transferred,
    TrumpTurned,
)
from protocol import Message, Reveal, RoomUpdate, Snapshot, Update


@dataclass(slots=True)
class Player:
    """What the game checks know of one of our seats."""

    peer: Peer
    seq: int = -1
    game: int = 0
    view: SeatView | None = None
    ended: GameEnded | None = None
    first_bout: bool = True
    bout_max: int = 0  # the bout's most attack cards (0: not known, joined mid-bout)
    revealed: bool = False  # the game's last reveal came


class Updates:
    """Checks every update of our seats as it is taken (a ``Peer.hook``); ``seen`` keeps
    the event kinds (and, from the player, the verbs) the games showed."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.seen: set[str] = set()  # the event kinds and verbs the games showed

    def first_attacker(self, update: Update, previous: GameResult | None) -> None:
        """Who leads the first bout (rules.md, "Who leads"), as far as one seat can tell."""
        view, n = update.view, update.view.rules.players
        lead = next((e for e in update.events if isinstance(e, FirstAttacker)), None)
        if lead is None:
            return
        trumps = sorted(c.rank for c in view.hand if c.suit == view.trump)
        if view.rules.durak_defends_first and previous is not None and previous.durak is not None:
            ok = lead.shown is None and lead.seat == (previous.durak - 1) % n
            what = "under durak_defends_first the previous Durak's right neighbour leads"
        elif lead.shown is None:
            dealer = n - 1 if previous is None or previous.durak is None else previous.durak
            ok = not trumps and lead.seat == (dealer + 1) % n
            what = "with no trump shown, nobody holds one and the dealer's left neighbour leads"
        else:
            lowest = lead.shown.rank
            ok = lead.shown.suit == view.trump and (
                trumps[0] == lowest if lead.seat == view.seat else not trumps or trumps[0] > lowest
            )
            what = "the first attacker shows the lowest trump"
        self.record.check(f"first_attacker: {what}", ok, f"{lead!r}, our trumps {trumps}")

    def opening(self, player: Player, update: Update) -> None:
        view = update.view
        events = update.events
        n = view.rules.players
        dealt = [e for e in events if isinstance(e, Dealt)]
        mine = next((e for e in dealt if e.seat == view.seat), None)
        self.record.check(
            "the opening deals 6 cards to each seat, showing only one's own",
            [e.seat for e in dealt] == list(range(n))
            and all(e.count == 6 for e in dealt)
            and mine is not None
            and set(mine.cards or ()) == set(view.hand),
            repr(dealt[:2]),
        )
        kinds_ = [type(e) for e in events[len(dealt) :]]
        self.record.check(
            "the opening goes on trump_turned, first_attacker, bout_started",
            kinds_ == [TrumpTurned, FirstAttacker, BoutStarted],
            repr(kinds_),
        )
        lead = next((e for e in events if isinstance(e, FirstAttacker)), None)
        bout = next((e for e in events if isinstance(e, BoutStarted)), None)
        if lead is not None and bout is not None:
            shown_ok = lead.shown is None or (
                lead.shown.suit == view.trump
                and (lead.seat == view.seat or lead.shown in view.known[lead.seat])
            )
            self.record.check(
                "first_attacker leads the first bout; a shown trump is a trump, known",
                lead.seat == bout.attacker and shown_ok,
                f"{lead!r} {bout!r}",
            )
            most = 5 if view.rules.first_bout_five else 6
            self.record.check(
                "the first bout's limit is the defender's 6 cards, 5 under first_bout_five",
                bout.limit == min(most, view.hand_sizes[bout.defender]),
                repr(bout),
            )
        turned = next((e for e in events if isinstance(e, TrumpTurned)), None)
        if turned is not None:
            dealt_all = 6 * n == view.rules.deck_size
            if turned.holder is None:
                ok = not dealt_all and view.stock_size == view.rules.deck_size - 6 * n
            else:
                held = view.hand if turned.holder == view.seat else view.known[turned.holder]
                ok = dealt_all and view.stock_size == 0 and turned.card in held
            self.record.check(
                "trump_turned: under the stock (holder nil), or with every card dealt in the "
                "holder's hand, known to all",
                ok and turned.card == view.trump_card,
                repr(turned),
            )

    def observe(self, player: Player, update: Message) -> None:
        """Every update: the next seq, this seat's view, trimmed events, a sane view."""
        if isinstance(update, RoomUpdate) and update.room.status == "lobby":
            self.record.invariant(
                "the room goes back to the lobby only after the update with game_ended",
                player.ended is not None,
                f"seat {player.peer.seat} at seq {player.seq}",
            )
            self.record.invariant(
                "the room goes back to the lobby only after the whole reveal",
                player.revealed,
                f"seat {player.peer.seat} game {player.game}",
            )
        if isinstance(update, Reveal):
            self.record.invariant(
                "a reveal comes after the update with game_ended, for that game",
                player.ended is not None and update.game == player.game,
                f"seat {player.peer.seat} game {update.game} at seq {player.seq}",
            )
            player.revealed = player.revealed or update.done
        if not isinstance(update, Update | Snapshot):
            return
        view = update.view
        seat = player.peer.seat
        if player.seq < 0:  # the first of the game
            player.game = update.game
        if isinstance(update, Update):
            self.record.invariant(
                "every update of a game has the next seq, nothing missing",
                update.game == player.game and update.seq == player.seq + 1,
                f"game {update.game} seq {update.seq} after seq {player.seq}",
            )
            public = (
                Public.before_deal(view.rules) if player.view is None else Public.of(player.view)
            )
            for event in update.events:
                public.apply(event)
                self.event(player, event, view)
                self.seen.add(event_name(event))
            wrong = public.differences(view)
            self.record.invariant(
                "each update's events explain its view (hand sizes, stock, discard, table, "
                "phase, attacker, defender, taking, passed, shown, places)",
                not wrong,
                f"seq {update.seq}: {'; '.join(wrong)}",
            )
            self.throwers(update)
        player.seq, player.view = update.seq, view
        self.record.invariant(
            "a view is its own seat's", view.seat == seat, f"view of seat {view.seat}"
        )
        self.record.invariant(
            "a view's hand matches its hand size",
            len(view.hand) == view.hand_sizes[seat],
            repr(view.hand_sizes),
        )
        hand = set(view.hand)
        self.record.invariant(
            "legal actions use only the seat's own cards",
            all(set(cards_of(a)) <= hand for a in view.legal),
            repr(view.legal),
        )
        playable = {card for action in view.legal for card in cards_of(action)}
        hinted = [card for card, _ in view.hints]
        self.record.invariant(
            "hints name, once each, exactly the cards of the hand no legal action plays",
            len(set(hinted)) == len(hinted) and set(hinted) == hand - playable,
            f"hints {view.hints}, legal {view.legal}",
        )
        self.record.invariant(
            "every hint's reason is a code of section 6",
            all(reason.value in GAME_REASONS for _, reason in view.hints),
            repr(view.hints),
        )
        self.record.invariant(
            "the seat's own known cards are empty",
            not view.known[seat],
            repr(view.known),
        )

    def throwers(self, update: Update) -> None:
        """At a bout's start and after a transfer, who may add (section 2, ``throw_in``)."""
        view = update.view
        if not update.events or view.phase is Phase.OVER:
            return
        if not isinstance(update.events[-1], BoutStarted | Transferred):
            return
        n, defender = view.rules.players, view.defender
        if view.rules.throw_in.value == "neighbours":
            left = next_in_play(view, defender)
            expected = {view.attacker} | ({left} if left is not None else set())
        else:
            expected = {s for s in range(n) if not view.places[s]}
        self.record.invariant(
            "throwers: everyone in the game but the defender, or under neighbours the "
            "attacker and the defender's left neighbour",
            set(view.throwers) == expected - {defender},
            f"throwers {view.throwers}, expected {sorted(expected - {defender})}",
        )

    def event(self, player: Player, event: Any, view: SeatView) -> None:
        seat = player.peer.seat
        if isinstance(event, Dealt | Drew):
            own = event.seat == seat
            self.record.invariant(
                "deals and draws show cards to their own seat only",
                (event.cards is not None and len(event.cards) == event.count)
                if own
                else event.cards is None,
                repr(event),
            )
        elif isinstance(event, BoutStarted):
            player.bout_max = 5 if player.first_bout and view.rules.first_bout_five else 6
            player.first_bout = False
            if view.phase is Phase.LEAD:
                self.record.invariant(
                    "a bout's limit is the defender's hand, at most 6 (5 in the first bout)",
                    event.limit == min(player.bout_max, view.hand_sizes[event.defender])
                    and view.limit == event.limit,
                    f"{event!r} hands {view.hand_sizes}",
                )
        elif isinstance(event, Transferred):
            expected = next_in_play(view, event.seat)
            self.record.invariant(
                "a transfer goes to the next seat still in play",
                event.to == expected == view.defender and view.attacker == event.seat,
                f"{event!r}, expected {expected}",
            )
            if player.bout_max:
                self.record.invariant(
                    "after a transfer the limit is counted against the new defender",
                    view.limit == min(player.bout_max, view.hand_sizes[event.to]),
                    f"limit {view.limit}, hands {view.hand_sizes}",
                )
        elif isinstance(event, GameEnded):
            player.ended = event
            self.record.invariant(
                "game_ended comes with a view that is over and names the result",
                view.phase is Phase.OVER and view.result == event.result and not view.legal,
                repr(view.result),
            )
