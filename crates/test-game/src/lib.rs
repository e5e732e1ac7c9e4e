//! "Tricks": a small card game with hidden hands and a simultaneous
//! secret bid, written only to test the seam (it is no game the platform
//! offers). 2–4 seats; a deck of cards 1..=4·seats; each seat is dealt 3
//! cards in secret. First every seat bids, all at once and in secret, how
//! many tricks it will take (0–3); the bids are shown when the last one
//! is in. Then three tricks: seats play one card each in turn from the
//! trick's leader; the highest card takes the trick and leads the next.
//! Score: tricks taken, +2 for a bid met. Highest score wins; ties share.
//!
//! The seam's conformance tests play it (with planted defects, which the
//! suite must catch), and the server's tests register it beside Siege to
//! play it end to end over WebSockets: a second game that needs no
//! platform change.

use citadel_game::{
    ChoiceError, Dice, Game, OptionError, OptionKind, OptionSpec, Outcome, Placing, RulesVersion,
    Seat, SeatPlan, SetupRefused, Viewer,
};
use serde::{Deserialize, Serialize};

pub const HAND: usize = 3;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub seats: u8,
    /// A planted defect, to show that the conformance suite catches it.
    #[serde(default)]
    pub flaw: Option<Flaw>,
}

/// Defects the conformance suite must catch.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Flaw {
    /// The spectator's view shows seat 0's hand.
    LeakHand,
    /// A refused command rolls a die first.
    DrawOnReject,
    /// A refused command still takes a trick.
    ChangeOnReject,
}

/// A seat's lobby choice: a name for its side, only to exercise choices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Colour(pub String);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub seats: u8,
    pub colours: Vec<String>,
    #[serde(default)]
    pub flaw: Option<Flaw>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    Bid { tricks: u8 },
    Play { card: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `cards` is `None` in every copy but the owner's.
    Dealt {
        seat: Seat,
        cards: Option<Vec<u8>>,
    },
    /// `tricks` is `None` in every copy but the bidder's.
    Bid {
        seat: Seat,
        tricks: Option<u8>,
    },
    BidsShown {
        bids: Vec<u8>,
    },
    Played {
        seat: Seat,
        card: u8,
    },
    TrickTaken {
        seat: Seat,
    },
    Over {
        scores: Vec<i64>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    NotYourTurn,
    NotInHand,
    BadBid,
    AlreadyBid,
    Over,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Viewer,
    /// The viewer's own hand (empty for a spectator).
    pub hand: Vec<u8>,
    /// Every seat's card count.
    pub hand_sizes: Vec<usize>,
    /// Each seat has bid; the amounts once all are in, or the viewer's own.
    pub bid_in: Vec<bool>,
    pub bids: Vec<Option<u8>>,
    pub trick: Vec<(Seat, u8)>,
    pub tricks: Vec<u8>,
    pub deck_left: usize,
    pub to_act: Vec<Seat>,
    pub over: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub scores: Vec<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tricks {
    flaw: Option<Flaw>,
    seats: u8,
    hands: Vec<Vec<u8>>,
    deck: Vec<u8>,
    bids: Vec<Option<u8>>,
    trick: Vec<(Seat, u8)>,
    leader: u8,
    tricks: Vec<u8>,
    over: bool,
}

impl Tricks {
    fn bidding(&self) -> bool {
        self.bids.iter().any(Option::is_none)
    }

    fn next_to_play(&self) -> Seat {
        Seat((self.leader + self.trick.len() as u8) % self.seats)
    }

    fn scores(&self) -> Vec<i64> {
        (0..usize::from(self.seats))
            .map(|i| {
                let taken = self.tricks[i];
                let bonus = if self.bids[i] == Some(taken) { 2 } else { 0 };
                i64::from(taken) + bonus
            })
            .collect()
    }

    fn check(&self, seat: Seat, command: &Command) -> Result<(), Rejection> {
        if self.over {
            return Err(Rejection::Over);
        }
        let i = usize::from(seat.0);
        if i >= usize::from(self.seats) {
            return Err(Rejection::NotYourTurn);
        }
        match command {
            Command::Bid { tricks } => {
                if !self.bidding() {
                    return Err(Rejection::NotYourTurn);
                }
                if self.bids[i].is_some() {
                    return Err(Rejection::AlreadyBid);
                }
                if usize::from(*tricks) > HAND {
                    return Err(Rejection::BadBid);
                }
            }
            Command::Play { card } => {
                if self.bidding() || self.next_to_play() != seat {
                    return Err(Rejection::NotYourTurn);
                }
                if !self.hands[i].contains(card) {
                    return Err(Rejection::NotInHand);
                }
            }
        }
        Ok(())
    }
}

impl Game for Tricks {
    type Options = Options;
    type Choice = Colour;
    type Setup = Setup;
    type Command = Command;
    type Event = Event;
    type View = View;
    type Rejection = Rejection;
    type Static = Vec<String>;
    type Summary = Summary;

    const ID: &'static str = "tricks";
    const NAME: &'static str = "Tricks (test game)";

    fn rules_version() -> RulesVersion {
        RulesVersion {
            engine: 1,
            content: "none".into(),
        }
    }

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: "seats".into(),
            label: "Players".into(),
            kind: OptionKind::Integer {
                min: 2,
                max: 4,
                default: None,
            },
            note: String::new(),
        }]
    }

    fn seat_plan(options: &Options) -> Result<SeatPlan, OptionError> {
        if !(2..=4).contains(&options.seats) {
            return Err(OptionError::new("seats", "seats must be 2-4"));
        }
        Ok(SeatPlan {
            players: options.seats,
            automata: 0,
        })
    }

    fn check_choice(
        _options: &Options,
        seat: Seat,
        choice: &Colour,
        others: &[Option<Colour>],
    ) -> Result<(), ChoiceError> {
        let taken = others
            .iter()
            .enumerate()
            .any(|(i, c)| i != usize::from(seat.0) && c.as_ref() == Some(choice));
        if taken {
            return Err(ChoiceError("colour taken".into()));
        }
        Ok(())
    }

    fn setup(
        options: &Options,
        choices: &[Option<Colour>],
        _seed: u64,
    ) -> Result<Setup, SetupRefused> {
        Self::seat_plan(options).map_err(|e| SetupRefused(e.to_string()))?;
        Ok(Setup {
            flaw: options.flaw,
            seats: options.seats,
            colours: (0..usize::from(options.seats))
                .map(|i| {
                    choices
                        .get(i)
                        .cloned()
                        .flatten()
                        .map_or_else(|| format!("colour {i}"), |c| c.0)
                })
                .collect(),
        })
    }

    fn start(setup: &Setup, dice: &mut dyn Dice) -> Result<(Self, Vec<Event>), SetupRefused> {
        let n = usize::from(setup.seats);
        let mut deck: Vec<u8> = (1..=(4 * setup.seats)).collect();
        citadel_game::shuffle_with(dice, &mut deck);
        let mut hands = vec![Vec::new(); n];
        for hand in &mut hands {
            for _ in 0..HAND {
                if let Some(c) = deck.pop() {
                    hand.push(c);
                }
            }
            hand.sort_unstable();
        }
        let events = hands
            .iter()
            .enumerate()
            .map(|(i, h)| Event::Dealt {
                seat: Seat(i as u8),
                cards: Some(h.clone()),
            })
            .collect();
        Ok((
            Tricks {
                flaw: setup.flaw,
                seats: setup.seats,
                hands,
                deck,
                bids: vec![None; n],
                trick: Vec::new(),
                leader: 0,
                tricks: vec![0; n],
                over: false,
            },
            events,
        ))
    }

    fn apply(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, Rejection> {
        if let Err(r) = self.check(seat, &command) {
            match self.flaw {
                Some(Flaw::DrawOnReject) => {
                    dice.d6();
                }
                Some(Flaw::ChangeOnReject) => {
                    if let Some(t) = self.tricks.get_mut(usize::from(seat.0)) {
                        *t += 1;
                    }
                }
                _ => {}
            }
            return Err(r);
        }
        let i = usize::from(seat.0);
        let mut events = Vec::new();
        match command {
            Command::Bid { tricks } => {
                self.bids[i] = Some(tricks);
                events.push(Event::Bid {
                    seat,
                    tricks: Some(tricks),
                });
                if !self.bidding() {
                    events.push(Event::BidsShown {
                        bids: self.bids.iter().map(|b| b.unwrap_or(0)).collect(),
                    });
                }
            }
            Command::Play { card } => {
                self.hands[i].retain(|c| *c != card);
                self.trick.push((seat, card));
                events.push(Event::Played { seat, card });
                if self.trick.len() == usize::from(self.seats) {
                    let (winner, _) = self
                        .trick
                        .iter()
                        .copied()
                        .max_by_key(|(_, c)| *c)
                        .unwrap_or((seat, card));
                    self.tricks[usize::from(winner.0)] += 1;
                    self.leader = winner.0;
                    self.trick.clear();
                    events.push(Event::TrickTaken { seat: winner });
                    if self.hands.iter().all(Vec::is_empty) {
                        self.over = true;
                        events.push(Event::Over {
                            scores: self.scores(),
                        });
                    }
                }
            }
        }
        Ok(events)
    }

    fn legal(&self, seat: Seat) -> Vec<Command> {
        let Some(hand) = self.hands.get(usize::from(seat.0)) else {
            return Vec::new();
        };
        if !self.to_act().contains(&seat) {
            return Vec::new();
        }
        if self.bidding() {
            (0..=HAND as u8)
                .map(|tricks| Command::Bid { tricks })
                .collect()
        } else {
            hand.iter()
                .map(|card| Command::Play { card: *card })
                .collect()
        }
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.over {
            Vec::new()
        } else if self.bidding() {
            (0..self.seats)
                .filter(|s| self.bids[usize::from(*s)].is_none())
                .map(Seat)
                .collect()
        } else {
            vec![self.next_to_play()]
        }
    }

    fn is_finished(&self) -> bool {
        self.over
    }

    fn view(&self, viewer: Viewer) -> View {
        let own = match viewer {
            Viewer::Seat(s) => Some(usize::from(s.0)),
            Viewer::Spectator => None,
        };
        let shown = !self.bidding();
        View {
            viewer,
            hand: match (own, self.flaw) {
                (None, Some(Flaw::LeakHand)) => self.hands[0].clone(),
                _ => own
                    .and_then(|i| self.hands.get(i).cloned())
                    .unwrap_or_default(),
            },
            hand_sizes: self.hands.iter().map(Vec::len).collect(),
            bid_in: self.bids.iter().map(Option::is_some).collect(),
            bids: self
                .bids
                .iter()
                .enumerate()
                .map(|(i, b)| if shown || own == Some(i) { *b } else { None })
                .collect(),
            trick: self.trick.clone(),
            tricks: self.tricks.clone(),
            deck_left: self.deck.len(),
            to_act: self.to_act(),
            over: self.over,
        }
    }

    fn redact(event: &Event, viewer: Viewer) -> Event {
        let mine = |seat: &Seat| viewer == Viewer::Seat(*seat);
        match event {
            Event::Dealt { seat, cards } if !mine(seat) && cards.is_some() => Event::Dealt {
                seat: *seat,
                cards: None,
            },
            Event::Bid { seat, tricks } if !mine(seat) && tricks.is_some() => Event::Bid {
                seat: *seat,
                tricks: None,
            },
            other => other.clone(),
        }
    }

    fn static_data(&self) -> Vec<String> {
        (0..self.seats).map(|s| format!("seat {s}")).collect()
    }

    fn checksum(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let scores = self.scores();
        Some(Outcome {
            placings: scores
                .iter()
                .enumerate()
                .map(|(i, s)| Placing {
                    seat: Seat(i as u8),
                    team: None,
                    place: 1 + scores.iter().filter(|o| *o > s).count() as u8,
                    score: *s,
                })
                .collect(),
        })
    }

    fn summary(&self) -> Summary {
        Summary {
            scores: self.scores(),
        }
    }

    fn timeout_command(&self, seat: Seat) -> Option<Command> {
        self.legal(seat).into_iter().next()
    }

    fn resample_hidden(&self, viewer: Viewer, dice: &mut dyn Dice) -> Self {
        let mut copy = self.clone();
        let own = match viewer {
            Viewer::Seat(s) => Some(usize::from(s.0)),
            Viewer::Spectator => None,
        };
        // Every card the viewer cannot see, dealt again with the same
        // hand sizes.
        let mut pool: Vec<u8> = copy.deck.clone();
        for (i, hand) in copy.hands.iter().enumerate() {
            if own != Some(i) {
                pool.extend(hand);
            }
        }
        citadel_game::shuffle_with(dice, &mut pool);
        for (i, hand) in copy.hands.iter_mut().enumerate() {
            if own != Some(i) {
                let n = hand.len();
                *hand = pool.drain(..n).collect();
                hand.sort_unstable();
            }
        }
        copy.deck = pool;
        // Bids not shown yet, other than the viewer's, drawn again.
        if copy.bidding() {
            for (i, bid) in copy.bids.iter_mut().enumerate() {
                if own != Some(i) && bid.is_some() {
                    *bid = Some(dice.below(HAND as u32 + 1) as u8);
                }
            }
        }
        copy
    }
}
