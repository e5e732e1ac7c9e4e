//! Neuroshima Hex behind the game seam (`citadel_game::Game`).

use crate::data::{self, Army};
use crate::engine::{idx, NeuroshimaGame, N};
use crate::types::*;
use citadel_game::{
    shuffle_with, ChoiceError, Dice, Game, OptionChoice, OptionError, OptionKind, OptionSpec,
    Outcome, Placing, RulesVersion, Seat, SeatPlan, SetupRefused, Viewer,
};
use citadel_hex::{Hex, HEXES};
use serde::{Deserialize, Serialize};

/// Bumped by hand whenever the same setup, seed and commands could give
/// another game.
pub const ENGINE_VERSION: u32 = 1;

/// What one viewer sees: the whole state but the order of the draw
/// piles, which is sorted (NSH-HID-1, 2), plus derived nets and module
/// effects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// The public state; draw piles in id order.
    pub state: State,
    /// Netted tiles' hexes.
    pub netted: Vec<Hex>,
    /// Module effects per tile.
    pub effects: Vec<TileEffects>,
    /// HQ HP.
    pub hq_hp: [u8; 2],
    /// Seats that may act.
    pub to_act: Vec<u8>,
}

/// Module effects on one board tile (NSH-MOD-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TileEffects {
    /// Where.
    pub hex: Hex,
    /// `+1 melee` count.
    pub melee: u8,
    /// `+1 ranged` count.
    pub ranged: u8,
    /// `+1 initiative` count.
    pub initiative: u8,
    /// Extra initiative sources.
    pub extra: u8,
}

/// What a client draws once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Static {
    /// The 19 hexes, in board index order.
    pub board: Vec<Hex>,
    /// The seats' armies (kind indices of `TileId` point into these).
    pub armies: Vec<Army>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Summary {
    /// Armies per seat.
    pub armies: [String; 2],
    /// The result; `None` while unfinished.
    pub result: Option<GameResult>,
    /// Turns played.
    pub turns: u32,
}

impl NeuroshimaGame {
    /// A game rebuilt from a view: the draw piles in the view's (sorted)
    /// order. What a bot may simulate on (NSH-HID-4).
    pub fn from_view(view: &View) -> Option<NeuroshimaGame> {
        let a = data::army(&view.state.armies[0])?;
        let b = data::army(&view.state.armies[1])?;
        Some(NeuroshimaGame {
            state: view.state.clone(),
            armies: [a, b],
        })
    }

    /// The public view for `viewer`.
    pub fn view_for(&self, viewer: Viewer) -> View {
        let mut state = self.state.clone();
        for p in &mut state.players {
            p.draw.sort();
        }
        let ctx = self.ctx();
        let mut netted = Vec::new();
        let mut effects = Vec::new();
        for (i, hex) in HEXES.iter().enumerate() {
            if self.state.board[i].is_none() {
                continue;
            }
            if ctx.netted[i] {
                netted.push(*hex);
            }
            if ctx.melee[i] + ctx.ranged[i] + ctx.init[i] + ctx.extra[i] > 0 {
                effects.push(TileEffects {
                    hex: *hex,
                    melee: ctx.melee[i],
                    ranged: ctx.ranged[i],
                    initiative: ctx.init[i],
                    extra: ctx.extra[i],
                });
            }
        }
        View {
            viewer,
            state,
            netted,
            effects,
            hq_hp: self.hq_hp(),
            to_act: self.seats_to_act(),
        }
    }

    /// The default answer or action for `seat` (NSH-CONV-4).
    pub fn default_command(&self, seat: u8) -> Option<Command> {
        if !self.seats_to_act().contains(&seat) {
            return None;
        }
        match &self.state.stage {
            Stage::Over => None,
            Stage::Hq { .. } => self.legal_commands(seat).into_iter().next(),
            Stage::Discard => self.state.players[usize::from(seat)]
                .hand
                .first()
                .map(|t| Command::Discard { tile: *t }),
            Stage::Action => Some(Command::EndTurn),
            Stage::PushChoice { candidates, .. } => {
                candidates.first().map(|h| Command::PushTo { hex: *h })
            }
            Stage::Bomb => {
                let b = self.state.bomb.as_ref()?;
                Some(Command::Medics {
                    steps: self.default_medic_plan(seat, &b.hits, &self.ctx()),
                })
            }
            Stage::Battle => {
                let b = self.state.battle.as_ref()?;
                if b.hits.is_empty() {
                    Some(Command::Clown { explode: false })
                } else {
                    let (hits, ctx) = self.waiting_hits();
                    Some(Command::Medics {
                        steps: self.default_medic_plan(seat, &hits, &ctx),
                    })
                }
            }
        }
    }

    /// SHA-256 of the state's JSON, first 16 bytes in hex.
    pub fn state_checksum(&self) -> String {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_vec(&self.state).unwrap_or_default();
        data::hex16(&Sha256::digest(&json))
    }
}

fn seat_u8(seat: Seat) -> Option<u8> {
    (seat.0 < 2).then_some(seat.0)
}

impl Game for NeuroshimaGame {
    type Options = Options;
    type Choice = String;
    type Setup = Setup;
    type Command = Command;
    type Event = Event;
    type View = View;
    type Rejection = Rejection;
    type Static = Static;
    type Summary = Summary;

    const ID: &'static str = "neuroshima";
    const NAME: &'static str = "Neuroshima Hex";

    fn rules_version() -> RulesVersion {
        RulesVersion {
            engine: ENGINE_VERSION,
            content: data::content_hash(),
        }
    }

    fn option_specs() -> Vec<OptionSpec> {
        let choice = |name: &str, label: &str, values: &[(&str, &str)]| OptionSpec {
            name: name.into(),
            label: label.into(),
            kind: OptionKind::Choice {
                choices: values
                    .iter()
                    .map(|(v, n)| OptionChoice {
                        value: serde_json::Value::String((*v).into()),
                        name: (*n).into(),
                    })
                    .collect(),
                default: serde_json::Value::String(values[0].0.into()),
            },
            note: String::new(),
        };
        vec![
            choice(
                "first_player",
                "First player",
                &[("seat0", "Seat 0"), ("random", "Random")],
            ),
            choice(
                "infinity_combo",
                "Redirect loops",
                &[("capped", "Capped"), ("unbounded", "Unbounded")],
            ),
            choice(
                "bots",
                "Bots",
                &[
                    ("easy", "Easy (heuristic)"),
                    ("normal", "Normal (search)"),
                    ("hard", "Hard (longer search)"),
                ],
            ),
        ]
    }

    fn seat_plan(_options: &Options) -> Result<SeatPlan, OptionError> {
        Ok(SeatPlan {
            players: 2,
            automata: 0,
        })
    }

    fn check_choice(
        _options: &Options,
        _seat: Seat,
        choice: &String,
        _others: &[Option<String>],
    ) -> Result<(), ChoiceError> {
        if data::army(choice).is_some() {
            Ok(())
        } else {
            Err(ChoiceError(format!("no army `{choice}`: ddm or moloch")))
        }
    }

    fn setup(
        options: &Options,
        choices: &[Option<String>],
        seed: u64,
    ) -> Result<Setup, SetupRefused> {
        if choices.len() > 2 {
            return Err(SetupRefused("two seats".into()));
        }
        let pick = |i: usize, default: &str| {
            choices
                .get(i)
                .cloned()
                .flatten()
                .unwrap_or_else(|| default.to_string())
        };
        let armies = [pick(0, "ddm"), pick(1, "moloch")];
        for a in &armies {
            if data::army(a).is_none() {
                return Err(SetupRefused(format!("no army `{a}`")));
            }
        }
        Ok(Setup {
            options: *options,
            armies,
            seed,
        })
    }

    fn start(setup: &Setup, dice: &mut dyn Dice) -> Result<(Self, Vec<Event>), SetupRefused> {
        let get = |id: &str| data::army(id).ok_or_else(|| SetupRefused(format!("no army `{id}`")));
        let armies = [get(&setup.armies[0])?, get(&setup.armies[1])?];
        // NSH-HID-5: first player, then seat 0's pile, then seat 1's.
        let first = match setup.options.first_player {
            FirstPlayer::Seat0 => 0,
            FirstPlayer::Random => dice.below(2) as u8,
        };
        let mut players = Vec::new();
        let mut events = vec![Event::Started {
            first_player: first,
            armies: setup.armies.clone(),
        }];
        for (seat, army) in armies.iter().enumerate() {
            let mut pile = Vec::new();
            for (ki, k) in army.kinds.iter().enumerate() {
                if k.class == crate::data::Class::Hq {
                    continue;
                }
                for n in 1..=k.count {
                    pile.push(TileId {
                        seat: seat as u8,
                        kind: ki as u8,
                        k: n,
                    });
                }
            }
            shuffle_with(dice, &mut pile);
            events.push(Event::Shuffled {
                seat: seat as u8,
                order: Some(pile.clone()),
            });
            players.push(PlayerState {
                draw: pile,
                hand: Vec::new(),
                discard: Vec::new(),
                hq_placed: false,
            });
        }
        let (Some(p1), Some(p0)) = (players.pop(), players.pop()) else {
            return Err(SetupRefused("two seats".into()));
        };
        let state = State {
            options: setup.options,
            armies: setup.armies.clone(),
            first,
            turn: 0,
            active: first,
            players: [p0, p1],
            board: [None; N],
            stage: Stage::Hq { seat: first },
            rotation_used: false,
            finale: None,
            battle: None,
            bomb: None,
            result: None,
        };
        Ok((NeuroshimaGame { state, armies }, events))
    }

    fn apply(
        &mut self,
        seat: Seat,
        command: Command,
        _dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, Rejection> {
        let s = seat_u8(seat).ok_or(Rejection::NotYourMove)?;
        let ctx = self.ctx();
        self.check(s, &command, &ctx)?;
        let mut ev = Vec::new();
        self.execute(s, command, &mut ev);
        Ok(ev)
    }

    fn legal(&self, seat: Seat) -> Vec<Command> {
        seat_u8(seat)
            .map(|s| self.legal_commands(s))
            .unwrap_or_default()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.seats_to_act().into_iter().map(Seat).collect()
    }

    fn is_finished(&self) -> bool {
        self.state.stage == Stage::Over
    }

    fn view(&self, viewer: Viewer) -> View {
        self.view_for(viewer)
    }

    fn redact(event: &Event, _viewer: Viewer) -> Event {
        match event {
            Event::Shuffled { seat, .. } => Event::Shuffled {
                seat: *seat,
                order: None,
            },
            e => e.clone(),
        }
    }

    fn static_data(&self) -> Static {
        Static {
            board: HEXES.to_vec(),
            armies: self.armies.iter().map(|a| (*a).clone()).collect(),
        }
    }

    fn checksum(&self) -> String {
        self.state_checksum()
    }

    fn outcome(&self) -> Option<Outcome> {
        let r = self.state.result?;
        let placings = (0..2u8)
            .map(|s| Placing {
                seat: Seat(s),
                team: None,
                place: match r.winner {
                    None => 1,
                    Some(w) if w == s => 1,
                    Some(_) => 2,
                },
                score: i64::from(r.hq_hp[usize::from(s)]),
            })
            .collect();
        Some(Outcome { placings })
    }

    fn summary(&self) -> Summary {
        Summary {
            armies: self.state.armies.clone(),
            result: self.state.result,
            turns: self.state.turn,
        }
    }

    fn timeout_command(&self, seat: Seat) -> Option<Command> {
        self.default_command(seat_u8(seat)?)
    }

    fn resample_hidden(&self, _viewer: Viewer, dice: &mut dyn Dice) -> Self {
        // Nobody sees any pile's order (NSH-HID-2): every viewer's belief
        // re-deals both. Each pile is put in its public (sorted) order
        // first, so the re-deal is a function of the view and the dice
        // alone: two games that differ only in their piles' order re-deal
        // alike, and a search bot with a fixed seed chooses alike on both.
        let mut copy = self.clone();
        for p in &mut copy.state.players {
            p.draw.sort_unstable();
            shuffle_with(dice, &mut p.draw);
        }
        copy
    }

    fn bot(&self, seat: Seat, seed: u64) -> Box<dyn citadel_game::Bot<Self>> {
        // Bot seats and leavers play at the table's level
        // (docs/neuroshima/BOTS.md, DECISIONS.md I19).
        let seed = seed
            ^ u64::from(seat.0)
                .wrapping_add(1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        match self.state.options.bots {
            BotLevel::Easy => Box::new(crate::bot::HeuristicBot),
            BotLevel::Normal => Box::new(crate::search::search_bot(
                citadel_search::Budget::Playouts(crate::search::NORMAL_PLAYOUTS),
                seed,
            )),
            BotLevel::Hard => Box::new(crate::search::search_bot(
                citadel_search::Budget::Playouts(crate::search::HARD_PLAYOUTS),
                seed,
            )),
        }
    }

    fn bot_rating_name(options: &Options, _seat: Seat, _automaton: bool) -> String {
        // Each level is its own opponent on the ladder.
        match options.bots {
            BotLevel::Easy => "Bot (easy)".into(),
            BotLevel::Normal => "Bot (normal)".into(),
            BotLevel::Hard => "Bot (hard)".into(),
        }
    }
}

/// Is the hex on the board?
pub fn on_board(h: Hex) -> bool {
    idx(h).is_some()
}
