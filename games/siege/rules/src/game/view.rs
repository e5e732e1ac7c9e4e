//! `Game::view`: what one viewer may see (core HID-1..3). Built fresh from
//! the state, so nothing hidden can leak through a forgotten field: hidden
//! collections appear only as counts.

use super::event::{Event, MissionResult, Place};
use super::ids::{FigureId, Seat, Viewer};
use super::secondary::CreditAward;
use super::state::{Activation, Decision, Effects, FigureKind, Game, Phase, Token};
use crate::content::tables::DtCardKind;
use crate::content::Corporation;
use citadel_grid::{Board, Edge, Square};
use serde::{Deserialize, Serialize};

/// One team as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TeamView {
    /// Team index.
    pub team: u8,
    /// Seat.
    pub seat: Seat,
    /// Corporation.
    pub corporation: Corporation,
    /// PP.
    pub pp: i32,
    /// Current rank.
    pub rank: u8,
    /// Credits left (draft).
    pub credits: u8,
    /// Cards in hand.
    pub hand_size: usize,
    /// The hand itself: only for its owner (HID-2).
    pub hand: Option<Vec<DtCardKind>>,
    /// Classic CDT: how many 1993 two-use cards the team holds (public);
    /// not sent in rulesets without them.
    #[serde(default, skip_serializing_if = "super::view::is_zero_usize")]
    #[cfg_attr(feature = "ts", ts(as = "Option<usize>", optional))]
    pub cards_size: usize,
    /// Classic CDT: the 1993 cards themselves, by number: only for their
    /// owner (HID-2), and only while the team holds some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cards: Option<Vec<u32>>,
    /// Chosen white entrance id.
    pub entrance: Option<String>,
    /// MOV-6 flag.
    pub allow_pass: bool,
    /// Reckless tokens.
    pub reckless: u8,
    /// Actions left in the team's extra-action pool (classic CXA); not
    /// sent in rulesets without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub extra_actions: Option<u8>,
    /// Commander token.
    pub commander: bool,
    /// The two DTs.
    pub figures: [FigureId; 2],
    /// The secondary mission kept (SET-10): only for its owner until the
    /// mission ends, then for everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub secondary: Option<u32>,
    /// The two secondary missions drawn, while the owner chooses: only
    /// for the owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub secondary_offer: Option<Vec<u32>>,
    /// Classic CSM-1 (public): the team pursues the primary mission
    /// (`false`: it holds a secondary one instead, and gains no primary
    /// credits, CEC-2). Not sent in CE, where every team does, nor before
    /// the classic assignment after the draft.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub primary: Option<bool>,
}

/// The Dark Legion as seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DarkLegionView {
    /// The DL player's seat (`None` for the AI).
    pub seat: Option<Seat>,
    /// The seat the AI acts through, for an AI DL.
    pub ai_seat: Option<Seat>,
    /// PP.
    pub pp: i32,
    /// Band.
    pub band: u8,
}

/// One figure as seen (all figure state is public, HID-3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FigureView {
    /// Id.
    pub id: FigureId,
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: FigureKind,
    /// Place.
    pub place: Place,
    /// Health.
    pub health: u8,
    /// Weapon id.
    pub weapon: Option<String>,
    /// Items.
    pub items: Vec<String>,
    /// Activation this turn.
    pub activation: Activation,
    /// Actions used.
    pub actions_used: u8,
    /// Actions available.
    pub actions_allowed: u8,
    /// A mission tag (`force_card_34`, `ezoghoul`): the goal figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tag: Option<String>,
    /// Objective tokens it carries (MSN-4), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub carrying: Vec<String>,
    /// Classic CSM card 2 (public, like the capture itself): the team
    /// that took this Dark Legion figure prisoner; it moves it from its
    /// next turn, the Dark Legion no longer does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub captured_by: Option<u8>,
}

/// A door group as seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DoorView {
    /// Its edges.
    pub edges: Vec<Edge>,
    /// `closed`, `open` or `removed` (BRD-6).
    pub state: DoorState,
}

/// BRD-6 door states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DoorState {
    /// Acts as a wall.
    Closed,
    /// Held open by a DL figure.
    Open,
    /// Gone for good.
    Removed,
}

/// A tile as seen: face-down cards only as a count (FRC-3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TileView {
    /// Tile id.
    pub id: u32,
    /// Name.
    pub name: String,
    /// Origin.
    pub origin: Square,
    /// Rotation.
    pub rotation: u16,
    /// Face-down force cards on it.
    pub face_down: usize,
    /// Teams whose token is on it.
    pub marked: Vec<u8>,
    /// Smoke.
    pub smoke: bool,
}

/// The phase as seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    /// Equipment draft; `team` picks.
    Equipment {
        /// Team to pick.
        team: u8,
    },
    /// A corporation turn.
    Corporation {
        /// Team.
        team: u8,
    },
    /// The DL turn.
    DarkLegion,
    /// Over.
    Finished {
        /// Result.
        result: Option<MissionResult>,
    },
}

/// Everything one viewer may see of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GameView {
    /// Who this is for.
    pub viewer: Viewer,
    /// Mission id.
    pub mission: String,
    /// Round.
    pub round: u32,
    /// The final round has begun.
    pub final_round: bool,
    /// Phase.
    pub phase: PhaseView,
    /// Whose input the game waits for.
    pub to_act: Option<Seat>,
    /// The decision waited for, if any.
    pub pending: Option<Decision>,
    /// The figure acting now.
    pub active: Option<FigureId>,
    /// Teams.
    pub teams: Vec<TeamView>,
    /// The DL.
    pub dark_legion: DarkLegionView,
    /// Figures.
    pub figures: Vec<FigureView>,
    /// Tokens.
    pub tokens: Vec<Token>,
    /// Doors.
    pub doors: Vec<DoorView>,
    /// Classic Remote Controlled Door: the doors the card placed, each on
    /// the edge between its two squares (a wall for everyone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<[Square; 2]>>", optional))]
    pub card_doors: Vec<[Square; 2]>,
    /// Tiles.
    pub tiles: Vec<TileView>,
    /// Force draw pile size (its order is hidden).
    pub force_pile: usize,
    /// Force discard pile (public).
    pub force_discard: Vec<u32>,
    /// Event deck size (its order is hidden).
    pub event_deck: usize,
    /// The event card in play.
    pub current_event: Option<u32>,
    /// Discarded events.
    pub event_discard: Vec<u32>,
    /// Markers still to be drawn this round: how many (TRN-3).
    pub markers_left: usize,
    /// Lasting effects.
    pub effects: Effects,
    /// Mission Special actions done.
    pub specials: Vec<(String, u32)>,
    /// A DT card was played this turn.
    pub card_played: bool,
    /// `ONCE=yes` Special actions (MSN-3): the features already counted,
    /// as (action id, feature square).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<(String, Square)>>", optional))]
    pub special_features: Vec<(String, Square)>,
    /// Mission tokens removed by attacks (core ATK-16), as they were when
    /// removed (a hacked terminal keeps its mark).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<Token>>", optional))]
    pub destroyed_tokens: Vec<Token>,
    /// The AI deck (AI-1), in a game with an AI Dark Legion: its revealed
    /// cards are public, its order is not (HID-1, HID-3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ai_deck: Option<super::ai_deck::AiDeckView>,
    /// Objective tokens that left the board with their carrier (MSN-4):
    /// token name, exit id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<(String, String)>>", optional))]
    pub carried_out: Vec<(String, String)>,
    /// DTs that left the board and the entrance or exit each took (MOV-14).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<(FigureId, String)>>", optional))]
    pub exits: Vec<(FigureId, String)>,
    /// A `then(first, next)` goal (MSN-2): `first` has held (it latches),
    /// so what counts now is `next` (1993 mission 1: 20 PP, then out).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub goal_first_done: bool,
    /// Classic CSM-2, once the mission has ended: the credits the
    /// secondary missions give (the campaign keeps credits). Empty, and
    /// not sent, in CE.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<CreditAward>>", optional))]
    pub credits: Vec<CreditAward>,
}

impl Game {
    /// What `viewer` may see now. A spectator sees only public state; a
    /// seat also sees its own hand. No viewer sees face-down force cards,
    /// deck orders or the remaining marker order (HID-1, HID-2).
    pub fn view(&self, viewer: Viewer) -> GameView {
        let tables = &self.rules.tables;
        let teams = self
            .teams
            .iter()
            .enumerate()
            .map(|(i, t)| TeamView {
                team: i as u8,
                seat: t.seat,
                corporation: t.corporation,
                pp: t.pp,
                rank: t.rank,
                credits: t.credits,
                hand_size: t.hand.len(),
                hand: (viewer == Viewer::Seat(t.seat)).then(|| t.hand.clone()),
                cards_size: t.cards.len(),
                cards: (viewer == Viewer::Seat(t.seat) && !t.cards.is_empty())
                    .then(|| t.cards.clone()),
                entrance: t
                    .entrance
                    .and_then(|e| self.rules.white.get(usize::from(e)))
                    .map(|e| e.id.clone()),
                allow_pass: t.allow_pass,
                reckless: t.reckless,
                extra_actions: self.hooks().extra_action_pool.map(|_| t.extra_actions),
                commander: t.commander,
                figures: t.figures,
                secondary: self.secondary_seen_by(i as u8, viewer == Viewer::Seat(t.seat)),
                secondary_offer: self
                    .sec
                    .offers
                    .get(i)
                    .filter(|o| !o.is_empty() && viewer == Viewer::Seat(t.seat))
                    .cloned(),
                primary: self.on_primary(i as u8),
            })
            .collect();
        let figures = self
            .figures
            .iter()
            .map(|f| FigureView {
                id: f.id,
                name: self.names[f.id.index()].clone(),
                kind: f.kind.clone(),
                place: f.place,
                health: f.health,
                weapon: f.weapon.map(|w| tables.weapon_def(w).id.clone()),
                items: f
                    .items
                    .iter()
                    .map(|&i| tables.equipment_def(i).id.clone())
                    .collect(),
                activation: f.turn.activation,
                actions_used: f.turn.used,
                actions_allowed: f.turn.allowed,
                tag: f.tag.clone(),
                carrying: self
                    .mission
                    .carried
                    .iter()
                    .filter(|(_, c)| *c == f.id)
                    .map(|(t, _)| t.clone())
                    .collect(),
                captured_by: self.captor(f.id).map(|(t, _)| t),
            })
            .collect();
        let doors = (0..self.rules.doors.len())
            .map(|g| DoorView {
                edges: self.rules.doors[g].clone(),
                state: if self.door_removed[g] {
                    DoorState::Removed
                } else if self.door_open(g, None) {
                    DoorState::Open
                } else {
                    DoorState::Closed
                },
            })
            .collect();
        let tiles = self
            .rules
            .board
            .tiles
            .iter()
            .zip(&self.tiles)
            .map(|(p, s)| TileView {
                id: p.id,
                name: p.name.clone(),
                origin: p.origin,
                rotation: p.rotation,
                face_down: s.face_down.len(),
                marked: s.marked.clone(),
                smoke: s.smoke,
            })
            .collect();
        let phase = match &self.phase {
            Phase::Equipment { order, next } => PhaseView::Equipment { team: order[*next] },
            Phase::Corporation { team } => PhaseView::Corporation { team: *team },
            Phase::DarkLegion { .. } => PhaseView::DarkLegion,
            Phase::Finished => PhaseView::Finished {
                result: self.result,
            },
        };
        GameView {
            viewer,
            mission: self.rules.mission.id.clone(),
            round: self.round,
            final_round: self.final_round,
            phase,
            to_act: self.seat_to_act(),
            pending: self.pending.front().map(|p| p.decision.clone()),
            active: self.active,
            teams,
            dark_legion: DarkLegionView {
                seat: (!self.dl.ai).then_some(self.dl.seat),
                ai_seat: self.dl.ai.then_some(self.dl.seat),
                pp: self.dl.pp,
                band: self.dl.band,
            },
            figures,
            tokens: self.tokens.clone(),
            doors,
            card_doors: self.card_doors.clone(),
            tiles,
            force_pile: self.force_pile.len(),
            force_discard: self.force_discard.clone(),
            event_deck: self.edition.rules().events_left(),
            current_event: self.edition.rules().current_event(),
            event_discard: self.edition.rules().event_discard().to_vec(),
            markers_left: self.edition.rules().sides_left(),
            effects: self.effects.clone(),
            specials: self
                .specials
                .iter()
                .map(|&(s, n)| (self.rules.mission.special_def(s).id.clone(), n))
                .collect(),
            card_played: self.card_played,
            special_features: self
                .specials_at
                .iter()
                .map(|&(s, q)| (self.rules.mission.special_def(s).id.clone(), q))
                .collect(),
            destroyed_tokens: self.destroyed.clone(),
            ai_deck: self.ai_deck.as_ref().map(|d| d.view()),
            carried_out: self.mission.carried_out.clone(),
            exits: self.mission.exits.clone(),
            goal_first_done: self.mission.then_mark.is_some(),
            credits: self.credits.clone(),
        }
    }

    /// `events` as `viewer` may see them: same length, same order, secrets
    /// replaced (lichess-style stubs keep numbering contiguous).
    pub fn filter_events(events: &[Event], viewer: Viewer) -> Vec<Event> {
        events.iter().map(|e| e.for_viewer(viewer)).collect()
    }

    /// What never changes during the game (mission, board, tables): public,
    /// and shared, so a bot can hold it without holding the game.
    pub fn rules(&self) -> &std::sync::Arc<super::state::Rules> {
        &self.rules
    }

    /// The static board (public).
    pub fn board(&self) -> &Board {
        &self.rules.board
    }

    /// The mission record (public).
    pub fn mission(&self) -> &crate::content::MissionDef {
        &self.rules.mission
    }

    /// The value hooks of the game's ruleset (core CONV-6).
    pub(crate) fn hooks(&self) -> &'static super::ruleset::Hooks {
        self.edition.id().hooks()
    }

    /// How the game's edition reads the cards both editions print.
    pub(crate) fn cards(&self) -> &'static super::ruleset::cards::CardRules {
        self.edition.id().cards()
    }

    /// The ruleset the game is played by.
    pub fn ruleset(&self) -> super::ruleset::RulesetId {
        self.edition.id()
    }

    /// The setup the game was started from.
    pub fn setup(&self) -> &super::setup::Setup {
        &self.setup
    }

    /// True once the mission has ended.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// The mission result, once finished.
    pub fn result(&self) -> Option<MissionResult> {
        self.result
    }

    /// The seat the Dark Legion acts through (an extra seat for the AI).
    pub fn dark_legion_seat(&self) -> Seat {
        self.dl.seat
    }

    /// All seats that take part, in seat order, the AI DL's seat last.
    pub fn seats(&self) -> Vec<Seat> {
        let mut v: Vec<Seat> = self.teams.iter().map(|t| t.seat).collect();
        v.push(self.dl.seat);
        v.sort();
        v
    }

    /// The current round.
    pub fn round(&self) -> u32 {
        self.round
    }
}

impl Game {
    /// `(corporations won, Dark Legion won, result)` once finished (SCR-2).
    pub fn outcome(&self) -> Option<(bool, bool, MissionResult)> {
        let result = self.result?;
        let best = self.teams.iter().map(|t| t.pp).max().unwrap_or(0);
        let dl = self.dl.pp >= best;
        Some((!dl, dl, result))
    }
}

/// For `skip_serializing_if`: a zero count is not sent.
pub(crate) fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

pub(crate) fn is_zero(n: &u8) -> bool {
    *n == 0
}
