//! The deterministic AI Dark Legion (core AI-1..AI-13, ce.md EVE "AI
//! policy" column, SET-12, SET-13, CONV-8).
//!
//! [`AiDarkLegion`] plays the DL seat of a game. Like every bot it only
//! ever returns a command from [`Game::legal`]; the rules below only decide
//! *which* legal command. All its chance comes from its own AI deck,
//! shuffled by a [`SeededDice`] from its seed, so the same game and the same
//! seed give the same choices. [`AiDarkLegion::for_game`] seeds it from the
//! game's setup seed XOR [`AI_DECK_SALT`] (the game's own dice are not
//! visible to a bot).
//!
//! # What is exact
//!
//! - **AI-1** the 54-card deck by formula ([`AiCard::new`]); one shuffle at
//!   mission start; "reveal" takes the top card; an empty deck reshuffles
//!   the discards; all cards go back and are reshuffled after each DL turn.
//! - **AI-2** compass selection ([`compass`]): max primary score, then max
//!   secondary, then lowest id; figure, waiting figure (lowest entry square
//!   shifted 1 square outward), tile centre and entrance-mean positions.
//! - **AI-3** corporation target (cyclic order of AI-1 over the legal
//!   answers, which are exactly the corporations in the marker pool).
//! - **AI-4** matrix square with up to 3 extra cards, then the closest legal
//!   square of the tile (`dist` to the first matrix square, ties lowest
//!   `(y,x)`).
//! - **AI-5** red entrance by compass on a new card.
//! - **AI-6** reveal tile (smallest `dist` from an on-board DT, else from
//!   the white entry squares; ties by compass on a new card).
//! - **AI-7** choice cards: the option with more figures the pool can supply,
//!   ties the first listed.
//! - **AI-8** a tie-breaker card per DL turn; figures taken in compass order;
//!   a new card per action, its template decides the action.
//! - **AI-10** templates T1, T2, T4, T5, T6 as written.
//! - **AI-12** events 2, 3, 8, 10, 11, 12 per the ce.md policy column; 9
//!   (Dark Influence) gives the extra single actions to the DL figure
//!   nearest a DT after all activations.
//!
//! # Approximations (the public view and the legal list do not allow more)
//!
//! - **AI-9/AI-11 `pdist`**: path distance is a breadth-first search over
//!   passable squares with the current closed doors as walls and the
//!   level rule, but *ignoring figures* (blocking depends on who moves; the
//!   engine's own path search is not public). The move itself is one of
//!   `legal`'s end squares, so it is always a real path.
//! - **AI-10 T3 Flank**: "allows an FA attack next action" is judged as a
//!   clear line of sight ([`line_of_sight`], figures block, cover tokens
//!   ignored) from the end square to the nearest DT at `dist` ≥ 2, for a
//!   creature whose band has FA dice. Weapon range is not checked.
//! - **AI-8 order**: the engine activates whichever figure acts, so the AI
//!   picks the first figure in compass order that still has a legal command
//!   and finishes it. A figure for which no template line applies before it
//!   has acted (e.g. T5 holding) is skipped for the rest of the DL turn.
//! - **AI-1 deck across restores**: the deck lives in the bot; the server
//!   rebuilds it on restore by asking the AI for each stored DL command
//!   while replaying (`crates/server/src/session.rs`), so its state only
//!   depends on the seed and the commands so far.
//! - **AI-9 with no DT on the board**: there is nothing to move toward, so
//!   "move toward" does not apply (the line is skipped).
//! - **AI-6 ties**: a new card is revealed only when tiles actually tie.
//! - **Event 9** (Dark Influence): the nearest-DT figure is by `dist` from
//!   its square (waiting: entry squares), remaining ties by lowest id.
//! - **AI-4 fallback** measures `dist` to the first card's matrix square.
//! - **AI-13** re-rolls and forced re-rolls are resolved by the engine, not
//!   asked of the DL seat, so there is nothing to choose here.
//! - Decisions not addressed to the DL (reactions, item discards, white
//!   entrances) and any other seat fall back to [`timeout_default`]
//!   (CONV-8): the DL never holds reaction cards.

use crate::nav::{self, pos};
use crate::{timeout_default, Bot};
use citadel_rules::content::missions::Entrance;
use citadel_rules::content::{AttackType, Content, Corporation, CreatureKind};
use citadel_rules::dice::{shuffle_with, SeededDice};
use citadel_rules::game::view::{GameView, PhaseView};
use citadel_rules::game::{Command, Decision, FigureId, FigureKind, Game, Place, Seat, Viewer};
use citadel_rules::geometry::los::{line_of_sight, SightBlockers};
use citadel_rules::geometry::{Board, Square, StepMap, Walls};
use std::collections::BTreeSet;

/// Mixed into the game's setup seed by [`AiDarkLegion::for_game`], so the
/// AI deck does not replay the game's dice stream.
pub const AI_DECK_SALT: u64 = 0xA1DE_C0DE_D1A6_0001;

/// A compass direction of the AI deck (AI-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// North: score −y.
    N,
    /// East: score x.
    E,
    /// South: score y.
    S,
    /// West: score −x.
    W,
}

impl Dir {
    /// AI-2 score of a position.
    pub fn score(self, (x, y): (f64, f64)) -> f64 {
        match self {
            Dir::N => -y,
            Dir::E => x,
            Dir::S => y,
            Dir::W => -x,
        }
    }
}

/// An action template (AI-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// T1 Close in.
    T1,
    /// T2 Gun line.
    T2,
    /// T3 Flank.
    T3,
    /// T4 Swarm.
    T4,
    /// T5 Hold.
    T5,
    /// T6 Berserk.
    T6,
}

/// One AI card (AI-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiCard {
    /// `k`, 0..54.
    pub k: u8,
    /// Primary direction.
    pub primary: Dir,
    /// Secondary direction.
    pub secondary: Dir,
    /// Corporation.
    pub corp: Corporation,
    /// Matrix offset `(mx, my)`.
    pub matrix: (i32, i32),
    /// Template.
    pub template: Template,
}

const CORPS: [Corporation; 5] = [
    Corporation::Bauhaus,
    Corporation::Capitol,
    Corporation::Cybertronic,
    Corporation::Imperial,
    Corporation::Mishima,
];

impl AiCard {
    /// Card `k` of the deck by the AI-1 formula.
    pub fn new(k: u8) -> AiCard {
        let k32 = i32::from(k);
        let primary = [Dir::N, Dir::E, Dir::S, Dir::W][usize::from(k % 4)];
        let secondary = [
            [Dir::E, Dir::W],
            [Dir::S, Dir::N],
            [Dir::W, Dir::E],
            [Dir::N, Dir::S],
        ][usize::from(k % 4)][usize::from((k / 4) % 2)];
        let template = [
            Template::T1,
            Template::T2,
            Template::T3,
            Template::T4,
            Template::T5,
            Template::T6,
        ][usize::from(k % 6)];
        AiCard {
            k,
            primary,
            secondary,
            corp: CORPS[usize::from(k % 5)],
            matrix: ((3 * k32) % 8, (5 * k32 + k32 / 8) % 8),
            template,
        }
    }
}

/// AI-2: the id of the winning candidate `(id, position)`, or `None` if
/// there are none.
pub fn compass<T: Ord + Copy>(card: &AiCard, candidates: &[(T, (f64, f64))]) -> Option<T> {
    let best_p = candidates
        .iter()
        .map(|(_, p)| card.primary.score(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    let first: Vec<_> = candidates
        .iter()
        .filter(|(_, p)| card.primary.score(*p) == best_p)
        .collect();
    let best_s = first
        .iter()
        .map(|(_, p)| card.secondary.score(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    first
        .into_iter()
        .filter(|(_, p)| card.secondary.score(*p) == best_s)
        .map(|(id, _)| *id)
        .min()
}

/// The AI deck (AI-1).
#[derive(Debug, Clone)]
pub struct AiDeck {
    draw: Vec<u8>,
    discard: Vec<u8>,
    rng: SeededDice,
}

impl AiDeck {
    /// All 54 cards, shuffled from `seed`.
    pub fn new(seed: u64) -> AiDeck {
        let mut d = AiDeck {
            draw: (0..54).collect(),
            discard: Vec::new(),
            rng: SeededDice::new(seed),
        };
        shuffle_with(&mut d.rng, &mut d.draw);
        d
    }

    /// Cards still to draw, top last.
    pub fn remaining(&self) -> &[u8] {
        &self.draw
    }

    /// Reveal the top card; it goes to the discards.
    pub fn reveal(&mut self) -> AiCard {
        if self.draw.is_empty() {
            self.draw.append(&mut self.discard);
            shuffle_with(&mut self.rng, &mut self.draw);
        }
        let k = self.draw.pop().unwrap_or(0);
        self.discard.push(k);
        AiCard::new(k)
    }

    /// Shuffle every card back (end of a DL turn).
    pub fn reshuffle_all(&mut self) {
        self.draw.append(&mut self.discard);
        self.draw.sort_unstable();
        shuffle_with(&mut self.rng, &mut self.draw);
    }
}

/// The AI Dark Legion bot.
#[derive(Debug, Clone)]
pub struct AiDarkLegion {
    deck: AiDeck,
    /// AI-8 tie-breaker card of the current DL turn.
    tiebreak: Option<AiCard>,
    /// The round whose DL turn the AI is in, if it has acted in one.
    dl_round: Option<u32>,
    /// Figures the AI let pass this DL turn (no applicable template line).
    skipped: BTreeSet<FigureId>,
}

impl AiDarkLegion {
    /// An AI whose deck is shuffled from `seed`.
    pub fn new(seed: u64) -> Self {
        AiDarkLegion {
            deck: AiDeck::new(seed),
            tiebreak: None,
            dl_round: None,
            skipped: BTreeSet::new(),
        }
    }

    /// An AI seeded from `game.setup().seed ^ AI_DECK_SALT`.
    pub fn for_game(game: &Game) -> Self {
        Self::new(game.setup().seed ^ AI_DECK_SALT)
    }

    /// The deck (for tests).
    pub fn deck(&self) -> &AiDeck {
        &self.deck
    }

    /// Track DL turns: reshuffle after each one (AI-1, CE step 5).
    fn track_turn(&mut self, view: &GameView) {
        let in_dl = matches!(view.phase, PhaseView::DarkLegion);
        if let Some(r) = self.dl_round {
            if !in_dl || r != view.round {
                self.deck.reshuffle_all();
                self.tiebreak = None;
                self.skipped.clear();
                self.dl_round = None;
            }
        }
        if in_dl {
            self.dl_round = Some(view.round);
        }
    }
}

/// Everything derived from the game once per call.
struct Ctx<'a> {
    view: GameView,
    legal: Vec<Command>,
    board: &'a Board,
    walls: Walls,
    white: Vec<Entrance>,
    red: Vec<Entrance>,
}

impl<'a> Ctx<'a> {
    fn new(game: &'a Game, seat: Seat) -> Ctx<'a> {
        let view = game.view(Viewer::Spectator);
        let board = game.board();
        let walls = nav::walls(board, &view);
        let (white, red) = nav::entrances(game);
        Ctx {
            legal: game.legal(seat),
            view,
            board,
            walls,
            white,
            red,
        }
    }

    fn figure_square(&self, f: FigureId) -> Option<Square> {
        match self.view.figures.get(f.index())?.place {
            Place::Board { square } => Some(square),
            _ => None,
        }
    }

    /// AI-2 position of a figure (waiting: lowest entry square shifted out).
    fn figure_pos(&self, f: FigureId) -> Option<(f64, f64)> {
        let fig = self.view.figures.get(f.index())?;
        match fig.place {
            Place::Board { square } => Some(pos(square)),
            Place::Waiting { entrance } => {
                let e = self.red.get(usize::from(entrance))?;
                let s = *e.squares.first()?;
                let out = e
                    .outside
                    .iter()
                    .find(|(q, _)| *q == s)
                    .map_or(s, |(_, o)| *o);
                Some(pos(out))
            }
            _ => None,
        }
    }

    /// Squares a figure starts a path from (its square or entry squares).
    fn figure_starts(&self, f: FigureId) -> Vec<Square> {
        let Some(fig) = self.view.figures.get(f.index()) else {
            return Vec::new();
        };
        match fig.place {
            Place::Board { square } => vec![square],
            Place::Waiting { entrance } => self
                .red
                .get(usize::from(entrance))
                .map(|e| e.squares.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    fn dts(&self) -> Vec<(FigureId, Square)> {
        self.view
            .figures
            .iter()
            .filter(|f| matches!(f.kind, FigureKind::Doomtrooper { .. }))
            .filter_map(|f| match f.place {
                Place::Board { square } => Some((f.id, square)),
                _ => None,
            })
            .collect()
    }

    /// Squares adjacent (ADJ-4) to `s`.
    fn adjacent(&self, s: Square) -> Vec<Square> {
        nav::adjacent(self.board, &self.walls, s)
    }

    fn bfs(&self, starts: &[Square]) -> StepMap {
        nav::step_map(self.board, &self.walls, starts)
    }

    fn at(&self, map: &StepMap, s: Square) -> u32 {
        nav::at(map, s)
    }

    /// AI-9: the nearest DT of `f` (pdist to an adjacent square, else
    /// `dist`, ties compass on `card`).
    fn nearest_dt(&self, f: FigureId, card: &AiCard) -> Option<(FigureId, Square)> {
        let dts = self.dts();
        if dts.is_empty() {
            return None;
        }
        let starts = self.figure_starts(f);
        let map = self.bfs(&starts);
        let pd: Vec<u32> = dts
            .iter()
            .map(|(_, s)| {
                self.adjacent(*s)
                    .into_iter()
                    .map(|a| self.at(&map, a))
                    .min()
                    .unwrap_or(u32::MAX)
            })
            .collect();
        let best = pd.iter().copied().min().unwrap_or(u32::MAX);
        let keys: Vec<i64> = if best != u32::MAX {
            pd.iter().map(|&d| i64::from(d)).collect()
        } else {
            dts.iter()
                .map(|(_, s)| {
                    starts
                        .iter()
                        .map(|a| i64::from(a.dist(*s)))
                        .min()
                        .unwrap_or(i64::MAX)
                })
                .collect()
        };
        let min = keys.iter().copied().min()?;
        let cands: Vec<(FigureId, (f64, f64))> = dts
            .iter()
            .zip(&keys)
            .filter(|(_, k)| **k == min)
            .map(|((id, s), _)| (*id, pos(*s)))
            .collect();
        let id = compass(card, &cands)?;
        dts.into_iter().find(|(d, _)| *d == id)
    }

    fn attacks(&self, f: FigureId, ty: AttackType) -> Vec<FigureId> {
        self.legal
            .iter()
            .filter_map(|c| match c {
                Command::Attack {
                    figure,
                    target,
                    attack,
                } if *figure == f && *attack == ty => Some(*target),
                _ => None,
            })
            .collect()
    }

    /// AI-9 attack target: smallest `dist`, ties tie-breaker compass.
    fn attack(&self, f: FigureId, ty: AttackType, tb: &AiCard) -> Option<Command> {
        let from = self.figure_square(f)?;
        let targets = self.attacks(f, ty);
        let min = targets
            .iter()
            .filter_map(|t| self.figure_square(*t))
            .map(|s| s.dist(from))
            .min()?;
        let cands: Vec<_> = targets
            .iter()
            .filter_map(|t| Some((*t, self.figure_square(*t)?)))
            .filter(|(_, s)| s.dist(from) == min)
            .map(|(t, s)| (t, pos(s)))
            .collect();
        let target = compass(tb, &cands)?;
        Some(Command::Attack {
            figure: f,
            target,
            attack: ty,
        })
    }

    /// Legal moves of `f`: (end square, command).
    fn moves(&self, f: FigureId) -> Vec<(Square, Command)> {
        self.legal
            .iter()
            .filter_map(|c| match c {
                Command::Move { figure, path } if *figure == f => {
                    let end = *path.last()?;
                    self.board.on_board(end).then(|| (end, c.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// AI-11 move toward the nearest DT.
    fn move_toward(&self, f: FigureId, card: &AiCard, tb: &AiCard) -> Option<Command> {
        let moves = self.moves(f);
        if moves.is_empty() {
            return None;
        }
        let Some((_, dt)) = self.nearest_dt(f, tb) else {
            // No DT on the board: nothing to move toward.
            return None;
        };
        let map = self.bfs(&self.adjacent(dt));
        let key = |s: Square| (self.at(&map, s), u8::from(s.dist(dt) != 1));
        let best = moves.iter().map(|(s, _)| key(*s)).min()?;
        let cands: Vec<(Square, (f64, f64))> = moves
            .iter()
            .filter(|(s, _)| key(*s) == best)
            .map(|(s, _)| (*s, pos(*s)))
            .collect();
        // compass, then lowest (y,x): `compass` breaks ties by lowest id,
        // and squares order by (y,x).
        let end = compass(card, &cands)?;
        moves.into_iter().find(|(s, _)| *s == end).map(|(_, c)| c)
    }

    fn has_fa_dice(&self, f: FigureId) -> bool {
        let Some(FigureKind::Creature { creature }) =
            self.view.figures.get(f.index()).map(|x| x.kind.clone())
        else {
            return false;
        };
        let band = usize::from(self.view.dark_legion.band.max(1)) - 1;
        Content::embedded().is_ok_and(|c| {
            c.ce.creatures
                .iter()
                .find(|d| d.kind == creature)
                .and_then(|d| d.bands.get(band).or(d.bands.last()))
                .is_some_and(|b| !b.fa.is_empty())
        })
    }

    /// AI-10 T3 first line (approximated, see the module docs).
    fn flank(&self, f: FigureId, card: &AiCard, tb: &AiCard) -> Option<Command> {
        if !self.has_fa_dice(f) {
            return None;
        }
        let (_, dt) = self.nearest_dt(f, tb)?;
        let moves = self.moves(f);
        let blockers = Blockers {
            squares: self
                .view
                .figures
                .iter()
                .filter(|x| x.id != f)
                .filter_map(|x| match x.place {
                    Place::Board { square } => Some(square),
                    _ => None,
                })
                .collect(),
        };
        let dts = self.dts();
        let ok: Vec<(Square, Command)> = moves
            .into_iter()
            .filter(|(s, _)| {
                s.dist(dt) >= 2
                    && line_of_sight(self.board, &self.walls, &blockers, *s, dt).is_clear()
            })
            .collect();
        let far = |s: Square| dts.iter().map(|(_, d)| s.dist(*d)).min().unwrap_or(0);
        let best = ok.iter().map(|(s, _)| far(*s)).max()?;
        let cands: Vec<_> = ok
            .iter()
            .filter(|(s, _)| far(*s) == best)
            .map(|(s, _)| (*s, pos(*s)))
            .collect();
        let end = compass(card, &cands)?;
        ok.into_iter().find(|(s, _)| *s == end).map(|(_, c)| c)
    }

    /// AI-10 T4 second line: move to a square adjacent to the nearest DT.
    fn swarm(&self, f: FigureId, card: &AiCard, tb: &AiCard) -> Option<Command> {
        let (_, dt) = self.nearest_dt(f, tb)?;
        let adj = self.adjacent(dt);
        let moves: Vec<_> = self
            .moves(f)
            .into_iter()
            .filter(|(s, _)| adj.contains(s))
            .collect();
        let cands: Vec<_> = moves.iter().map(|(s, _)| (*s, pos(*s))).collect();
        let end = compass(card, &cands)?;
        moves.into_iter().find(|(s, _)| *s == end).map(|(_, c)| c)
    }

    /// One action of `f` by the template of `card` (AI-10).
    fn action(&self, f: FigureId, card: &AiCard, tb: &AiCard) -> Option<Command> {
        let cc = || self.attack(f, AttackType::CloseCombat, tb);
        let fa = || self.attack(f, AttackType::Firearm, tb);
        let mv = || self.move_toward(f, card, tb);
        match card.template {
            Template::T1 => cc().or_else(mv).or_else(fa),
            Template::T2 => fa().or_else(cc).or_else(mv),
            Template::T3 => self.flank(f, card, tb).or_else(fa).or_else(cc).or_else(mv),
            Template::T4 => cc()
                .or_else(|| self.swarm(f, card, tb))
                .or_else(fa)
                .or_else(mv),
            Template::T5 => cc().or_else(fa).or_else(|| {
                let from = self.figure_starts(f);
                let near = self
                    .dts()
                    .iter()
                    .any(|(_, d)| from.iter().any(|s| s.dist(*d) <= 6));
                if near {
                    self.legal
                        .contains(&Command::EndActivation)
                        .then_some(Command::EndActivation)
                } else {
                    mv()
                }
            }),
            Template::T6 => cc().or_else(mv),
        }
    }

    fn tile_centre(&self, t: usize) -> (f64, f64) {
        self.view.tiles.get(t).map_or((0.0, 0.0), |t| {
            (f64::from(t.origin.x) + 3.5, f64::from(t.origin.y) + 3.5)
        })
    }

    fn tile_origin(&self, t: usize) -> Square {
        self.view
            .tiles
            .get(t)
            .map_or(Square::new(0, 0), |t| t.origin)
    }

    fn reserve(&self, k: CreatureKind) -> usize {
        self.view
            .figures
            .iter()
            .filter(|f| f.kind == FigureKind::Creature { creature: k } && f.place == Place::Reserve)
            .count()
    }
}

struct Blockers {
    squares: Vec<Square>,
}

impl SightBlockers for Blockers {
    fn figure_at(&self, s: Square) -> bool {
        self.squares.contains(&s)
    }
    fn cover_at(&self, _s: Square) -> bool {
        false
    }
}

fn entrance_pos(e: &Entrance) -> (f64, f64) {
    let n = e.squares.len().max(1) as f64;
    let (sx, sy) = e.squares.iter().fold((0.0, 0.0), |(x, y), s| {
        (x + f64::from(s.x), y + f64::from(s.y))
    });
    (sx / n, sy / n)
}

impl AiDarkLegion {
    /// AI-4: place one figure on `tile`.
    fn place(&mut self, cx: &Ctx, tile: usize, kinds: &[CreatureKind]) -> Option<Command> {
        let kind = kinds.iter().copied().find(|k| {
            cx.legal
                .iter()
                .any(|c| matches!(c, Command::Place { kind, .. } if kind == k))
        })?;
        self.place_kind(cx, tile, kind)
    }

    fn place_kind(&mut self, cx: &Ctx, tile: usize, kind: CreatureKind) -> Option<Command> {
        let o = cx.tile_origin(tile);
        let mut first = None;
        for _ in 0..4 {
            let c = self.deck.reveal();
            let sq = o.offset(c.matrix.0, c.matrix.1);
            first.get_or_insert(sq);
            let cmd = Command::Place { kind, square: sq };
            if cx.legal.contains(&cmd) {
                return Some(cmd);
            }
        }
        let m = first?;
        cx.legal
            .iter()
            .filter_map(|c| match c {
                Command::Place { kind: k, square } if *k == kind => Some(*square),
                _ => None,
            })
            .min_by_key(|s| (s.dist(m), *s))
            .map(|square| Command::Place { kind, square })
    }

    fn decide(&mut self, cx: &Ctx, d: &Decision) -> Option<Command> {
        match d {
            Decision::RedEntrance { .. } => {
                // AI-5.
                let card = self.deck.reveal();
                let cands: Vec<(usize, (f64, f64))> = cx
                    .red
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| {
                        cx.legal.contains(&Command::ChooseEntrance {
                            entrance: e.id.clone(),
                        })
                    })
                    .map(|(i, e)| (i, entrance_pos(e)))
                    .collect();
                let i = compass(&card, &cands)?;
                Some(Command::ChooseEntrance {
                    entrance: cx.red[i].id.clone(),
                })
            }
            Decision::ForceOption { card, .. } => {
                // AI-7: more figures the pool can supply; ties first listed.
                let def = Content::embedded()
                    .ok()?
                    .ce
                    .force_cards
                    .iter()
                    .find(|c| c.number == *card)?;
                let supply = |opt: &Vec<CreatureKind>| -> usize {
                    CreatureKind::ALL
                        .iter()
                        .map(|k| {
                            let want = opt.iter().filter(|x| *x == k).count();
                            want.min(cx.reserve(*k))
                        })
                        .sum()
                };
                let mut best: Option<(usize, usize)> = None;
                for (i, opt) in def.options.iter().enumerate() {
                    if !cx.legal.contains(&Command::ChooseOption { option: i }) {
                        continue;
                    }
                    let n = supply(opt);
                    if best.is_none_or(|(_, b)| n > b) {
                        best = Some((i, n));
                    }
                }
                best.map(|(option, _)| Command::ChooseOption { option })
            }
            Decision::PlaceFigures { tile, kinds } => self.place(cx, *tile, kinds),
            Decision::RevealTile => self.reveal_tile(cx),
            Decision::EventFigure { card } => self.event_figure(cx, *card),
            Decision::EventTile { card, .. } => self.event_tile(cx, *card),
            Decision::EventSquare { tile, .. } => {
                // Event 2 square: compass over squares adjacent to a DT, else matrix.
                let squares: Vec<(CreatureKind, Square)> = cx
                    .legal
                    .iter()
                    .filter_map(|c| match c {
                        Command::Place { kind, square } => Some((*kind, *square)),
                        _ => None,
                    })
                    .collect();
                let kind = squares.first()?.0;
                let dts = cx.dts();
                let near: Vec<(Square, (f64, f64))> = squares
                    .iter()
                    .filter(|(_, s)| dts.iter().any(|(_, d)| cx.adjacent(*d).contains(s)))
                    .map(|(_, s)| (*s, pos(*s)))
                    .collect();
                if near.is_empty() {
                    self.place_kind(cx, *tile, kind)
                } else {
                    let card = self.deck.reveal();
                    let square = compass(&card, &near)?;
                    Some(Command::Place { kind, square })
                }
            }
            Decision::EventCorporation { .. } => {
                // AI-3.
                let card = self.deck.reveal();
                let start = CORPS.iter().position(|c| *c == card.corp).unwrap_or(0);
                (0..5)
                    .map(|i| CORPS[(start + i) % 5])
                    .map(|corporation| Command::ChooseCorporation { corporation })
                    .find(|c| cx.legal.contains(c))
            }
            Decision::WhiteEntrance { .. }
            | Decision::DiscardItem { .. }
            | Decision::Reaction { .. } => None,
        }
    }

    /// AI-6.
    fn reveal_tile(&mut self, cx: &Ctx) -> Option<Command> {
        let tiles: Vec<usize> = cx
            .legal
            .iter()
            .filter_map(|c| match c {
                Command::ChooseTile { tile } => Some(*tile),
                _ => None,
            })
            .collect();
        let mut from: Vec<Square> = cx.dts().into_iter().map(|(_, s)| s).collect();
        if from.is_empty() {
            from = cx.white.iter().flat_map(|e| e.squares.clone()).collect();
        }
        let score = |t: usize| -> i32 {
            cx.board
                .tile_squares(t)
                .flat_map(|s| from.iter().map(move |d| s.dist(*d)))
                .min()
                .unwrap_or(i32::MAX)
        };
        let best = tiles.iter().map(|t| score(*t)).min()?;
        let cands: Vec<_> = tiles
            .iter()
            .filter(|t| score(**t) == best)
            .map(|t| (*t, cx.tile_centre(*t)))
            .collect();
        let tile = if cands.len() == 1 {
            cands[0].0
        } else {
            let card = self.deck.reveal();
            compass(&card, &cands)?
        };
        Some(Command::ChooseTile { tile })
    }

    /// AI-12 figure targets (ce.md EVE policy column).
    fn event_figure(&mut self, cx: &Ctx, card: u32) -> Option<Command> {
        let figs: Vec<FigureId> = cx
            .legal
            .iter()
            .filter_map(|c| match c {
                Command::ChooseFigure { figure } => Some(*figure),
                _ => None,
            })
            .collect();
        let dts = cx.dts();
        let keep: Vec<FigureId> = match card {
            2 => {
                let free: Vec<_> = figs
                    .iter()
                    .copied()
                    .filter(|f| {
                        cx.figure_square(*f)
                            .is_some_and(|s| !dts.iter().any(|(_, d)| cx.adjacent(*d).contains(&s)))
                    })
                    .collect();
                if free.is_empty() {
                    figs
                } else {
                    free
                }
            }
            3 => {
                let h = |f: &FigureId| cx.view.figures.get(f.index()).map_or(u8::MAX, |x| x.health);
                let min = figs.iter().map(h).min()?;
                figs.iter().copied().filter(|f| h(f) == min).collect()
            }
            12 => {
                let n = |f: &FigureId| cx.view.figures.get(f.index()).map_or(0, |x| x.items.len());
                let max = figs.iter().map(n).max()?;
                figs.iter().copied().filter(|f| n(f) == max).collect()
            }
            _ => figs,
        };
        let cands: Vec<_> = keep
            .iter()
            .filter_map(|f| Some((*f, cx.figure_pos(*f)?)))
            .collect();
        let c = self.deck.reveal();
        let figure = compass(&c, &cands)?;
        Some(Command::ChooseFigure { figure })
    }

    /// AI-12 tile targets: #10 the tile with most DTs; #2 tiles holding a DT.
    fn event_tile(&mut self, cx: &Ctx, card: u32) -> Option<Command> {
        let tiles: Vec<usize> = cx
            .legal
            .iter()
            .filter_map(|c| match c {
                Command::ChooseTile { tile } => Some(*tile),
                _ => None,
            })
            .collect();
        let dts = cx.dts();
        let count = |t: usize| {
            dts.iter()
                .filter(|(_, s)| cx.board.tile_of(*s) == Some(t))
                .count()
        };
        let keep: Vec<usize> = if card == 10 {
            let max = tiles.iter().map(|t| count(*t)).max()?;
            tiles.iter().copied().filter(|t| count(*t) == max).collect()
        } else {
            let with: Vec<_> = tiles.iter().copied().filter(|t| count(*t) > 0).collect();
            if with.is_empty() {
                tiles
            } else {
                with
            }
        };
        let cands: Vec<_> = keep.iter().map(|t| (*t, cx.tile_centre(*t))).collect();
        let c = self.deck.reveal();
        let tile = compass(&c, &cands)?;
        Some(Command::ChooseTile { tile })
    }

    /// DL step 4 (AI-8, AI-10, AI-11; event 9).
    fn step4(&mut self, cx: &Ctx) -> Option<Command> {
        let tb = match self.tiebreak {
            Some(c) => c,
            None => {
                let c = self.deck.reveal();
                self.tiebreak = Some(c);
                c
            }
        };
        let actors: BTreeSet<FigureId> = cx
            .legal
            .iter()
            .filter_map(|c| match c {
                Command::Move { figure, .. } | Command::Attack { figure, .. } => Some(*figure),
                _ => None,
            })
            .collect();
        if let Some(f) = cx.view.active {
            if actors.contains(&f) {
                let card = self.deck.reveal();
                if let Some(cmd) = cx.action(f, &card, &tb) {
                    return Some(cmd);
                }
            }
            if cx.legal.contains(&Command::EndActivation) {
                self.skipped.insert(f);
                return Some(Command::EndActivation);
            }
        }
        loop {
            let ready: Vec<(FigureId, (f64, f64))> = actors
                .iter()
                .copied()
                .filter(|f| !self.skipped.contains(f))
                .filter(|f| {
                    cx.view.figures.get(f.index()).is_some_and(|x| {
                        x.activation != citadel_rules::game::state::Activation::Done
                    })
                })
                .filter_map(|f| Some((f, cx.figure_pos(f)?)))
                .collect();
            let f = if ready.is_empty() {
                // Event 9: extra single actions to the figure nearest a DT.
                let dts = cx.dts();
                actors
                    .iter()
                    .copied()
                    .filter(|f| !self.skipped.contains(f))
                    .min_by_key(|f| {
                        let st = cx.figure_starts(*f);
                        let d = dts
                            .iter()
                            .flat_map(|(_, d)| st.iter().map(move |s| s.dist(*d)))
                            .min()
                            .unwrap_or(i32::MAX);
                        (d, *f)
                    })
            } else {
                compass(&tb, &ready)
            };
            let Some(f) = f else {
                return cx
                    .legal
                    .contains(&Command::EndTurn)
                    .then_some(Command::EndTurn);
            };
            let card = self.deck.reveal();
            if let Some(cmd) = cx.action(f, &card, &tb) {
                if cmd != Command::EndActivation {
                    return Some(cmd);
                }
            }
            self.skipped.insert(f);
        }
    }
}

impl Bot for AiDarkLegion {
    fn choose(&mut self, game: &Game, seat: Seat) -> Option<Command> {
        if seat != game.dark_legion_seat() {
            return timeout_default(game, seat);
        }
        let cx = Ctx::new(game, seat);
        if cx.legal.is_empty() {
            return None;
        }
        self.track_turn(&cx.view);
        let choice = match cx.view.pending.clone() {
            Some(d) => self.decide(&cx, &d),
            None if matches!(cx.view.phase, PhaseView::DarkLegion) => self.step4(&cx),
            None => None,
        };
        match choice {
            Some(c) if cx.legal.contains(&c) => Some(c),
            _ => timeout_default(game, seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ai_1_cards_follow_the_formula() {
        let c = AiCard::new(0);
        assert_eq!((c.primary, c.secondary), (Dir::N, Dir::E));
        assert_eq!(c.corp, Corporation::Bauhaus);
        assert_eq!(c.matrix, (0, 0));
        assert_eq!(c.template, Template::T1);
        let c = AiCard::new(5);
        assert_eq!((c.primary, c.secondary), (Dir::E, Dir::N));
        assert_eq!(c.corp, Corporation::Bauhaus);
        assert_eq!(c.matrix, (7, 1));
        assert_eq!(c.template, Template::T6);
        let c = AiCard::new(53);
        // 53 mod 4 = 1 (E); 53 div 4 = 13, odd → N; 53 mod 5 = 3; 53 mod 6 = 5.
        assert_eq!((c.primary, c.secondary), (Dir::E, Dir::N));
        assert_eq!(c.corp, Corporation::Imperial);
        // (159 mod 8, (265 + 6) mod 8) = (7, 7)
        assert_eq!(c.matrix, (7, 7));
        assert_eq!(c.template, Template::T6);
    }

    #[test]
    fn ai_1_deck_has_54_distinct_cards_and_reshuffles() {
        let mut d = AiDeck::new(7);
        let mut all: Vec<u8> = d.remaining().to_vec();
        all.sort_unstable();
        assert_eq!(all, (0..54).collect::<Vec<u8>>());
        let drawn: BTreeSet<u8> = (0..54).map(|_| d.reveal().k).collect();
        assert_eq!(drawn.len(), 54);
        // Empty: the discards are shuffled back in.
        let _ = d.reveal();
        assert_eq!(d.remaining().len(), 53);
        d.reshuffle_all();
        assert_eq!(d.remaining().len(), 54);
    }

    #[test]
    fn ai_2_compass_primary_then_secondary_then_lowest_id() {
        let north_east = AiCard::new(0); // N, then E
        let cands = [
            (3u32, (1.0, 2.0)),
            (1u32, (5.0, 2.0)),
            (2u32, (5.0, 2.0)),
            (0u32, (9.0, 4.0)),
        ];
        // Max −y: ids 3, 1, 2 (y = 2); max x: 1 and 2; lowest id: 1.
        assert_eq!(compass(&north_east, &cands), Some(1));
        let south = AiCard::new(2); // S, then W
        assert_eq!(compass(&south, &cands), Some(0));
        let west = AiCard::new(3); // W, then N
        assert_eq!(compass(&west, &cands), Some(3));
        assert_eq!(compass::<u32>(&west, &[]), None);
    }
}
