//! Mission rules beyond the Special-action counters: starting on a tile
//! (core MOV-12), carried objects (MSN-4), tagged figures and the goal
//! predicates that read them (MSN-2), and the special rules of missions.md
//! (C1M2 early end, C2M1 debris setup, C2M2 loot, C2M5 arrivals).

use super::command::Command;
use super::event::{Event, Place};
use super::ids::{FigureId, Side};
use super::rejection::Rejection;
use super::state::{Decision, Game, LastAction, Pending, Token, TokenState};
use crate::content::missions::{Goal, StartMode, TokenKind};
use crate::content::CreatureKind;
use citadel_grid::Square;

/// C1M2: the mission ends once no DT remains on-board (README D34).
pub(crate) const ENDS_WHEN_NO_DT_ON_BOARD: &str = "ends_when_no_dt_on_board";
/// C2M2: looting removes the container, +1 PP to the looting team.
pub(crate) const LOOT_REMOVES_CONTAINER: &str = "loot_removes_container";
/// C2M1: before play the DL places 4 debris tokens on tile 1.
pub(crate) const DEBRIS_SETUP_TILE_1: &str = "debris_setup_tile_1";
/// C2M5: the Ezoghoul arrives next to the portal in round 5.
pub(crate) const EZOGHOUL_ARRIVES_ROUND_5: &str = "ezoghoul_arrives_round_5";
/// C2M5: a Nepharite starts next to the portal unless C2M4 was completed.
pub(crate) const NEPHARITE_IF_C2M4_FAILED: &str = "nepharite_if_c2m4_failed";

/// Debris tokens the DL places in C2M1.
const DEBRIS_TOKENS: u8 = 4;
/// The tile C2M1's debris goes on.
const DEBRIS_TILE: u32 = 1;
/// The round the Ezoghoul arrives in (C2M5).
const EZOGHOUL_ROUND: u32 = 5;
/// The tag of C2M5's Ezoghoul (`eliminated(ezoghoul)`).
pub(crate) const EZOGHOUL_TAG: &str = "ezoghoul";
/// The tag of the figure of C1M4's card 34.
pub(crate) const CARD_34_TAG: &str = "force_card_34";

impl Game {
    /// The board index of the placed tile with this tile id.
    pub(crate) fn tile_index(&self, id: u32) -> Option<usize> {
        self.rules.board.tiles.iter().position(|t| t.id == id)
    }

    /// Squares of a mission feature kind: desks from the record (they are
    /// features), every other kind from the tokens still on the board.
    pub(crate) fn feature_squares(&self, kind: TokenKind) -> Vec<Square> {
        if kind == TokenKind::Desk {
            return self
                .rules
                .mission
                .tokens
                .iter()
                .filter(|t| t.kind == kind)
                .map(|t| t.square)
                .collect();
        }
        self.tokens
            .iter()
            .filter(|t| matches!(&t.kind, TokenState::Mission { kind: k, .. } if *k == kind))
            .map(|t| t.square)
            .collect()
    }

    // ---------------------------------------------------------------- setup

    /// Place the mission's `FIGURE` figures (classic bosses and tagged
    /// figures, missions.md classic note 1): each is taken from the pool,
    /// placed on its square and given its tag. A figure whose square is
    /// taken, or whose kind the pool lacks, is skipped (core DL-1).
    pub(crate) fn place_mission_figures(&mut self, events: &mut Vec<Event>) {
        let rules = self.rules.clone();
        for f in &rules.mission.figures {
            if self.figure_at(f.square).is_some() {
                continue;
            }
            if let Some(id) = self.place_creature(f.kind, f.square, events) {
                self.figures[id.index()].tag = Some(f.tag.clone());
            }
        }
    }

    /// Decisions a mission asks before play (C2M1 debris, C2M5 Nepharite).
    pub(crate) fn queue_mission_setup(&mut self) {
        let rules = self.rules.clone();
        let mission = &rules.mission;
        if mission.has_rule(DEBRIS_SETUP_TILE_1) {
            self.ask_dl(Decision::DebrisSquare {
                left: DEBRIS_TOKENS,
            });
        }
        if mission.has_rule(NEPHARITE_IF_C2M4_FAILED) && self.setup.c2m4_completed != Some(true) {
            let squares = self.arrival_squares();
            self.ask_dl(Decision::MissionPlacement {
                kind: CreatureKind::Nepharite,
                squares,
                tag: None,
            });
        }
    }

    /// C2M1: where the next debris token may go: an empty passable square
    /// of tile 1 without a token, not adjacent to a wall (ADJ-8), not an
    /// 8-neighbour of another debris token, and (authored) neither on nor
    /// next to the fallen soldier. In `(y, x)` order.
    pub(crate) fn debris_squares(&self) -> Vec<Square> {
        let board = &self.rules.board;
        let Some(tile) = self.tile_index(DEBRIS_TILE) else {
            return Vec::new();
        };
        let debris = self.feature_squares(TokenKind::Debris);
        let objectives: Vec<Square> = self
            .rules
            .mission
            .tokens
            .iter()
            .filter(|t| t.kind == TokenKind::Objective)
            .map(|t| t.square)
            .collect();
        self.rules
            .tile_squares(tile)
            .filter(|s| {
                board.passable(*s)
                    && self.figure_at(*s).is_none()
                    && self.token_at(*s).is_none()
                    && !board.adjacent_to_wall(*s)
                    && !debris.iter().any(|d| d.is_neighbour8(*s))
                    && !objectives.iter().any(|o| o.dist(*s) <= 1)
            })
            .collect()
    }

    /// C2M5: the empty squares adjacent (ADJ-4) to the portal, no token on
    /// them (MOV-15); if there is none, the empty passable square nearest
    /// by `dist`, ties lowest `(y, x)`.
    pub(crate) fn arrival_squares(&self) -> Vec<Square> {
        let board = &self.rules.board;
        let Some(portal) = self
            .rules
            .mission
            .tokens
            .iter()
            .find(|t| t.kind == TokenKind::Portal)
            .map(|t| t.square)
        else {
            return Vec::new();
        };
        let free = |s: Square| {
            board.passable(s) && self.figure_at(s).is_none() && self.token_at(s).is_none()
        };
        let mut next: Vec<Square> = portal
            .ring()
            .into_iter()
            .filter(|s| board.on_board(*s) && self.walls.adjacent(board, portal, *s) && free(*s))
            .collect();
        if next.is_empty() {
            next = board
                .squares()
                .filter(|s| *s != portal && free(*s))
                .min_by_key(|s| (s.dist(portal), s.y, s.x))
                .into_iter()
                .collect();
        }
        next.sort_by_key(|s| (s.y, s.x));
        next
    }

    /// C2M5: at the start of the DL turn of round 5 the Ezoghoul arrives
    /// (before DL step 1, so it acts that turn). Returns true if the DL
    /// must answer first.
    pub(crate) fn ezoghoul_arrives(&mut self) -> bool {
        if self.round != EZOGHOUL_ROUND
            || !self.rules.mission.has_rule(EZOGHOUL_ARRIVES_ROUND_5)
            || self.mission.arrivals.iter().any(|a| a == EZOGHOUL_TAG)
        {
            return false;
        }
        self.mission.arrivals.push(EZOGHOUL_TAG.to_string());
        if self.pool_count(CreatureKind::Ezoghoul) == 0 {
            return false;
        }
        let squares = self.arrival_squares();
        self.ask_dl(Decision::MissionPlacement {
            kind: CreatureKind::Ezoghoul,
            squares,
            tag: Some(EZOGHOUL_TAG.to_string()),
        });
        true
    }

    // ------------------------------------------------------------ MOV-12

    /// MOV-12 "start on tile T": the tile's board index, if the mission
    /// starts the DTs on a tile.
    pub(crate) fn start_tile(&self) -> Option<usize> {
        match self.rules.mission.start {
            StartMode::Tile(id) => self.tile_index(id),
            StartMode::Entrance => None,
        }
    }

    /// MOV-12: at a team's first turn, ask its player to place each DT
    /// still in reserve on the start tile. False if the mission starts at
    /// entrances.
    pub(crate) fn queue_start_on_tile(&mut self, team: u8) -> bool {
        if self.start_tile().is_none() {
            return false;
        }
        let t = &self.teams[usize::from(team)];
        let seat = t.seat;
        for figure in t.figures {
            if self.figures[figure.index()].place == Place::Reserve {
                self.pending.push_back(Pending {
                    seat,
                    decision: Decision::StartSquare { team, figure },
                });
            }
        }
        true
    }

    /// MOV-12: empty passable squares of the start tile, no token (MOV-15),
    /// not adjacent (ADJ-4) to a DL figure, in `(y, x)` order.
    pub(crate) fn start_squares(&self) -> Vec<Square> {
        let board = &self.rules.board;
        let Some(tile) = self.start_tile() else {
            return Vec::new();
        };
        self.rules
            .tile_squares(tile)
            .filter(|s| {
                board.passable(*s)
                    && self.figure_at(*s).is_none()
                    && self.token_at(*s).is_none()
                    && !s.ring().iter().any(|n| {
                        self.figure_at(*n).is_some_and(|f| {
                            self.figures[f.index()].creature().is_some()
                                && self.walls.adjacent(board, *s, *n)
                        })
                    })
            })
            .collect()
    }

    /// Options of the mission decisions, in CONV-8 default order.
    pub(crate) fn mission_decision_options(&self, d: &Decision) -> Vec<Command> {
        match d {
            Decision::StartSquare { figure, .. } => {
                if self.figures[figure.index()].place != Place::Reserve {
                    return Vec::new();
                }
                self.start_squares()
                    .into_iter()
                    .map(|square| Command::PlaceStart {
                        figure: *figure,
                        square,
                    })
                    .collect()
            }
            Decision::MissionPlacement { kind, squares, .. } => {
                if self.pool_count(*kind) == 0 {
                    return Vec::new();
                }
                squares
                    .iter()
                    .filter(|s| self.figure_at(**s).is_none() && self.token_at(**s).is_none())
                    .map(|square| Command::Place {
                        kind: *kind,
                        square: *square,
                    })
                    .collect()
            }
            Decision::DebrisSquare { .. } => self
                .debris_squares()
                .into_iter()
                .map(|square| Command::PlaceDebris { square })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Apply a checked answer to a mission decision.
    pub(crate) fn answer_mission_decision(
        &mut self,
        p: Pending,
        cmd: Command,
        events: &mut Vec<Event>,
    ) {
        match (p.decision, cmd) {
            (Decision::StartSquare { .. }, Command::PlaceStart { figure, square }) => {
                self.set_place(figure, Place::Board { square });
                events.push(Event::Placed { figure, square });
            }
            (Decision::MissionPlacement { tag, .. }, Command::Place { kind, square }) => {
                if let Some(id) = self.place_creature(kind, square, events) {
                    if tag.is_some() {
                        self.figures[id.index()].tag = tag;
                    }
                }
            }
            (Decision::DebrisSquare { left }, Command::PlaceDebris { square }) => {
                self.tokens.push(Token {
                    square,
                    kind: TokenState::Mission {
                        kind: TokenKind::Debris,
                        name: None,
                        hacked: false,
                    },
                });
                events.push(Event::TokenPlaced {
                    square,
                    kind: TokenKind::Debris,
                });
                if left > 1 {
                    self.pending.push_front(Pending {
                        seat: p.seat,
                        decision: Decision::DebrisSquare { left: left - 1 },
                    });
                }
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------- D34

    /// README D34 (C1M2): once every team's DTs have been placed and no DT
    /// is on the board, the mission ends at once.
    pub(crate) fn no_dt_left_ends_mission(&self) -> bool {
        if !self.rules.mission.has_rule(ENDS_WHEN_NO_DT_ON_BOARD) {
            return false;
        }
        let dts = self.figures.iter().filter(|f| f.team().is_some());
        let mut placed = true;
        for f in dts {
            match f.place {
                Place::Board { .. } => return false,
                Place::Reserve => placed = false,
                _ => {}
            }
        }
        placed
    }

    // ------------------------------------------------------------ MSN-4

    /// May this objective token be picked up? Only tokens a mission goal
    /// carries out are objective markers (README D48), and a secondary
    /// card's carried token once dropped (classic card 3's message).
    fn carriable(&self, name: &str) -> bool {
        if self.is_secondary_token(name) {
            return true;
        }
        fn named(g: &Goal, name: &str) -> bool {
            match g {
                Goal::And(v) | Goal::Or(v) => v.iter().any(|g| named(g, name)),
                Goal::CarriedOut { token, .. } => token == name,
                _ => false,
            }
        }
        named(&self.rules.mission.goal, name)
    }

    /// Carriable objective tokens adjacent (ADJ-4) to `at`: name, square.
    fn objectives_next_to(&self, at: Square) -> Vec<(String, Square)> {
        let board = &self.rules.board;
        self.tokens
            .iter()
            .filter_map(|t| match &t.kind {
                TokenState::Mission {
                    kind: TokenKind::Objective,
                    name: Some(name),
                    ..
                } if self.carriable(name) && self.walls.adjacent(board, at, t.square) => {
                    Some((name.clone(), t.square))
                }
                _ => None,
            })
            .collect()
    }

    /// The tokens `figure` carries.
    fn carried_by(&self, figure: FigureId) -> Vec<String> {
        self.mission
            .carried
            .iter()
            .filter(|(_, f)| *f == figure)
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// MSN-4: pick up an adjacent objective token (a Special action).
    pub(crate) fn do_pick_up(
        &mut self,
        figure: FigureId,
        token: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, true, super::actions::Cost::Action)?;
        let f = &self.figures[figure.index()];
        if f.team().is_none() {
            return Err(Rejection::SpecialNotAvailable);
        }
        let at = f.square().ok_or(Rejection::FigureNotOnBoard)?;
        let (name, square) = self
            .objectives_next_to(at)
            .into_iter()
            .find(|(n, _)| n == token)
            .ok_or(Rejection::NoObjectiveHere)?;
        self.begin_action(figure, cost, events);
        self.tokens.retain(|t| t.square != square);
        self.mission.carried.push((name.clone(), figure));
        self.figures[figure.index()].turn.last = Some(LastAction::Other);
        events.push(Event::ObjectivePickedUp {
            figure,
            token: name,
            square,
        });
        self.end_action(figure, events);
        Ok(())
    }

    /// MSN-4: hand the carried token to an adjacent friendly DT (a Special
    /// action). Every DT is friendly to a DT (CONV-3), whatever its team.
    pub(crate) fn do_hand_over(
        &mut self,
        figure: FigureId,
        to: FigureId,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, true, super::actions::Cost::Action)?;
        let f = &self.figures[figure.index()];
        let at = f.square().ok_or(Rejection::FigureNotOnBoard)?;
        let carried = self.carried_by(figure);
        if carried.is_empty() {
            return Err(Rejection::NotCarrying);
        }
        let friend = self
            .figures
            .get(to.index())
            .ok_or(Rejection::NoSuchFigure)?;
        // CONV-3: every DT is friendly to a DT, whatever its team.
        let ok = to != figure
            && friend.team().is_some()
            && friend
                .square()
                .is_some_and(|s| self.walls.adjacent(&self.rules.board, at, s));
        if !ok {
            return Err(Rejection::NotAFriendNextTo);
        }
        self.begin_action(figure, cost, events);
        for (_, carrier) in self.mission.carried.iter_mut() {
            if *carrier == figure {
                *carrier = to;
            }
        }
        self.figures[figure.index()].turn.last = Some(LastAction::Other);
        for token in carried {
            events.push(Event::ObjectiveHandedOver { figure, to, token });
        }
        self.end_action(figure, events);
        Ok(())
    }

    /// MSN-4: a carrier eliminated on `square` drops what it carries there.
    pub(crate) fn drop_carried(
        &mut self,
        figure: FigureId,
        square: Square,
        events: &mut Vec<Event>,
    ) {
        let tokens = self.carried_by(figure);
        if tokens.is_empty() {
            return;
        }
        self.mission.carried.retain(|(_, f)| *f != figure);
        for token in tokens {
            self.tokens.push(Token {
                square,
                kind: TokenState::Mission {
                    kind: TokenKind::Objective,
                    name: Some(token.clone()),
                    hacked: false,
                },
            });
            events.push(Event::ObjectiveDropped { token, square });
        }
    }

    /// MOV-14: a DT left the board by `exit`; what it carries leaves too.
    pub(crate) fn record_exit(&mut self, figure: FigureId, exit: String, events: &mut Vec<Event>) {
        for token in self.carried_by(figure) {
            events.push(Event::ObjectiveCarriedOut {
                figure,
                token: token.clone(),
                exit: exit.clone(),
            });
            self.mission.carried_out.push((token, exit.clone()));
        }
        self.mission.carried.retain(|(_, f)| *f != figure);
        self.mission.exits.push((figure, exit));
    }

    /// The id of the entrance or exit whose boundary the step `a → b`
    /// crosses (MOV-14); exits are checked first.
    pub(crate) fn exit_id(&self, a: Square, b: Square) -> Option<String> {
        self.rules
            .exits
            .iter()
            .chain(&self.rules.white)
            .chain(&self.rules.red)
            .find(|e| e.outside.iter().any(|(i, o)| *i == a && *o == b))
            .map(|e| e.id.clone())
    }

    /// Pick-up and hand-over commands of a DT that may act (for `legal()`).
    pub(crate) fn carry_commands(&self, figure: FigureId, out: &mut Vec<Command>) {
        let f = &self.figures[figure.index()];
        let (Some(_), Some(at)) = (f.team(), f.square()) else {
            return;
        };
        for (token, _) in self.objectives_next_to(at) {
            out.push(Command::PickUp { figure, token });
        }
        if !self.carried_by(figure).is_empty() {
            let board = &self.rules.board;
            for to in self.dts_on_board() {
                let near = to
                    .square()
                    .is_some_and(|s| self.walls.adjacent(board, at, s));
                if to.id != figure && near {
                    out.push(Command::HandOver { figure, to: to.id });
                }
            }
        }
    }

    // ------------------------------------------------------------ loot

    /// C2M2: the looted container (the adjacent one, lowest `(y, x)`)
    /// leaves the board and the looting team gains 1 PP.
    pub(crate) fn loot(&mut self, figure: FigureId, square: Square, events: &mut Vec<Event>) {
        if !self.rules.mission.has_rule(LOOT_REMOVES_CONTAINER) {
            return;
        }
        let Some(team) = self.figures[figure.index()].team() else {
            return;
        };
        self.tokens.retain(|t| t.square != square);
        events.push(Event::TokenRemoved { square });
        self.award(Side::Team(team), 1, "container looted", events);
    }

    // ------------------------------------------------------------ tags

    /// A creature just placed takes a tag waiting for its kind (card 34).
    pub(crate) fn tag_placed(&mut self, id: FigureId) {
        let Some(kind) = self.figures[id.index()].creature() else {
            return;
        };
        if let Some(i) = self.mission.next_tags.iter().position(|(k, _)| *k == kind) {
            let (_, tag) = self.mission.next_tags.remove(i);
            self.figures[id.index()].tag = Some(tag);
        }
    }

    /// A tagged figure was eliminated: its tag is latched (MSN-2).
    pub(crate) fn tag_eliminated(&mut self, id: FigureId) {
        if let Some(tag) = self.figures[id.index()].tag.take() {
            if !self.mission.eliminated_tags.contains(&tag) {
                self.mission.eliminated_tags.push(tag);
            }
        }
    }

    /// MSN-2 `eliminated(tag)`: a figure with the tag came into play and
    /// every figure with it has been eliminated.
    pub(crate) fn tag_goal(&self, tag: &str) -> bool {
        self.mission.eliminated_tags.iter().any(|t| t == tag)
            && !self
                .figures
                .iter()
                .any(|f| f.tag.as_deref() == Some(tag) && f.in_play())
    }

    /// MSN-2 `exited(n, exits)`: DTs that left by one of `exits`.
    pub(crate) fn exited_by(&self, exits: &[String]) -> u32 {
        // Under `then(first, exited(...))` only the exits made after
        // `first` held count (classic M1).
        let from = self.mission.then_mark.map_or(0, |m| m as usize);
        self.mission
            .exits
            .iter()
            .skip(from)
            .filter(|(_, e)| exits.contains(e))
            .count() as u32
    }

    /// `then(first, next)`: the moment `first` holds for the first time
    /// is latched, with the exits made so far, so that `next` counts only
    /// what comes after (classic M1: 20 PP, then an exit). Called after
    /// every command.
    pub(crate) fn latch_then_goal(&mut self) {
        if self.mission.then_mark.is_some() {
            return;
        }
        if let Goal::Then { first, .. } = &self.rules.mission.goal {
            if self.goal_holds(first) {
                self.mission.then_mark = Some(self.mission.exits.len() as u32);
            }
        }
    }

    /// MSN-2 `carried_out(token, exits)`.
    pub(crate) fn carried_out_by(&self, token: &str, exits: &[String]) -> bool {
        self.mission
            .carried_out
            .iter()
            .any(|(t, e)| t == token && exits.contains(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Corporation;
    use crate::dice::SeededDice;
    use crate::game::setup::{DarkLegionSetup, Setup};

    fn game(mission: &str) -> Game {
        let setup = Setup::new(mission, &[Corporation::Bauhaus], DarkLegionSetup::Ai);
        Game::new_unchecked(setup, &mut SeededDice::new(0))
            .expect("sets up")
            .0
    }

    #[test]
    fn mov_12_start_squares_are_not_adjacent_to_dl_figures() {
        let mut g = game("ce-c1m2");
        let all = g.start_squares();
        assert!(all.contains(&Square::new(3, 12)));
        let id = g.pool_figure(CreatureKind::Legionnaire).expect("pool");
        g.set_place(
            id,
            Place::Board {
                square: Square::new(3, 11),
            },
        );
        let now = g.start_squares();
        assert!(!now.contains(&Square::new(3, 11)), "occupied");
        assert!(
            !now.contains(&Square::new(3, 12)),
            "adjacent to the DL figure"
        );
        assert!(
            !now.contains(&Square::new(2, 10)),
            "adjacent to the DL figure"
        );
        assert!(now.contains(&Square::new(3, 13)));
        assert_eq!(now.len(), all.len() - 9);
    }

    /// The embedded content with `add` inserted after C1M5's Throne line,
    /// and two passable squares of C1M5 other than the Throne's.
    fn c1m5_with(
        add: impl Fn(Square, Square) -> String,
    ) -> (crate::content::Content, Square, Square) {
        use crate::content::Content;
        let base = Content::embedded().expect("content");
        let m = base.mission("ce-c1m5").expect("C1M5");
        let board = m.board(base.tiles(m.edition)).expect("board");
        let throne = Square::new(3, 3);
        let mut free = board
            .squares()
            .filter(|&s| board.passable(s) && s != throne && s.x >= 1 && s.y >= 1);
        let (a, b) = (free.next().expect("a"), free.next().expect("b"));
        let line = "TOKEN objective 5:3,3 NAME=throne\n";
        let files: Vec<(&str, String)> = Content::embedded_files()
            .iter()
            .map(|&(n, t)| {
                let t = if n == "missions/ce.missions" {
                    t.replacen(line, &format!("{line}{}", add(a, b)), 1)
                } else {
                    t.to_string()
                };
                (n, t)
            })
            .collect();
        let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let content = Content::from_files(&refs).expect("content with FIGURE lines");
        (content, a, b)
    }

    fn c1m5_game(content: &crate::content::Content) -> (Game, Vec<Event>) {
        let setup = Setup::new("ce-c1m5", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
        Game::with_content_unchecked(setup, content, &mut SeededDice::new(0)).expect("sets up")
    }

    #[test]
    fn figure_lines_place_tagged_figures_from_the_pool_at_setup() {
        let (content, a, b) = c1m5_with(|a, b| {
            format!(
                "FIGURE centurion ({},{}) TAG=boss\nFIGURE nepharite ({},{}) TAG=alakhai ACTIONS=4\n",
                a.x, a.y, b.x, b.y
            )
        });
        let (g, events) = c1m5_game(&content);
        let boss = g.figure_at(a).expect("the boss is placed");
        assert_eq!(
            g.figures[boss.index()].creature(),
            Some(CreatureKind::Centurion)
        );
        assert_eq!(g.figures[boss.index()].tag.as_deref(), Some("boss"));
        let alakhai = g.figure_at(b).expect("Alakhai is placed");
        assert_eq!(
            g.figures[alakhai.index()].creature(),
            Some(CreatureKind::Nepharite)
        );
        assert_eq!(g.figures[alakhai.index()].tag.as_deref(), Some("alakhai"));
        assert!(events.contains(&Event::Placed {
            figure: boss,
            square: a
        }));
        // Taken from the pool (DL-1): the only Nepharite is on the board.
        assert_eq!(g.pool_figure(CreatureKind::Nepharite), None);
        assert!(g.pool_figure(CreatureKind::Centurion).is_some());
        assert!(!g.tag_goal("boss"), "alive: the goal does not hold");
    }

    #[test]
    fn figure_actions_replace_the_table_actions_for_that_figure_only() {
        let (content, a, b) = c1m5_with(|a, b| {
            format!(
                "FIGURE nepharite ({},{}) TAG=alakhai ACTIONS=4\nFIGURE centurion ({},{}) TAG=boss\n",
                a.x, a.y, b.x, b.y
            )
        });
        let (mut g, _) = c1m5_game(&content);
        g.prepare_dl_activation();
        let alakhai = g.figure_at(a).expect("Alakhai");
        let boss = g.figure_at(b).expect("boss");
        assert_eq!(g.figures[alakhai.index()].turn.allowed, 4);
        let table = g
            .rules
            .tables
            .creature(CreatureKind::Centurion)
            .expect("row")
            .actions;
        assert_eq!(g.figures[boss.index()].turn.allowed, table);
    }

    #[test]
    fn pool_lines_set_the_pool_besides_the_figure_figures() {
        let (content, a, _) = c1m5_with(|a, _| {
            format!(
                "FIGURE centurion ({},{}) TAG=boss\nPOOL centurion=0 legionnaire=2\n",
                a.x, a.y
            )
        });
        let (g, _) = c1m5_game(&content);
        let count = |k| g.figures.iter().filter(|f| f.creature() == Some(k)).count();
        assert_eq!(count(CreatureKind::Centurion), 1, "Ghash and no other");
        assert_eq!(count(CreatureKind::Legionnaire), 2);
        assert_eq!(
            count(CreatureKind::Necromutant),
            usize::from(
                g.rules
                    .tables
                    .creature(CreatureKind::Necromutant)
                    .expect("row")
                    .pool
            )
        );
        assert_eq!(g.pool_figure(CreatureKind::Centurion), None);
        assert!(g.figure_at(a).is_some());
    }

    #[test]
    fn msn_t4_arrival_falls_back_to_the_nearest_empty_square() {
        let mut g = game("ce-c2m5");
        let ring = g.arrival_squares();
        assert_eq!(ring.len(), 8);
        for s in ring {
            let id = g.pool_figure(CreatureKind::Legionnaire).expect("pool");
            g.set_place(id, Place::Board { square: s });
        }
        // The nearest empty squares are at dist 2; the lowest (y, x) wins.
        assert_eq!(g.arrival_squares(), vec![Square::new(8, 20)]);
    }
}
