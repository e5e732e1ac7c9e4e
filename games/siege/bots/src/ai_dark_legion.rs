//! The deterministic AI Dark Legion (core AI-1..AI-13, ce.md EVE "AI
//! policy" column, SET-12, SET-13, CONV-8).
//!
//! [`AiDarkLegion`] plays the DL seat of a game. Like every bot it sees
//! only its seat's [`Seen`] and only ever returns one of its legal
//! commands; the rules below only decide *which* legal command. All its chance comes from the game's AI deck
//! (`citadel_rules::game::ai_deck`, AI-1): when its policy says "reveal a
//! card" and the decision has no unused revealed card left, it answers
//! [`Command::RevealAiCard`] and the game turns the top card face up; it
//! then decides again with that card. It keeps no state of its own, so the
//! same game gives the same choices, also after a restore.
//!
//! # What is exact
//!
//! - **AI-1** the deck, its shuffles and reveals are the game's (see
//!   `citadel_rules::game::ai_deck`); the cards of one decision are taken
//!   in reveal order.
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
//! - **AI-8** the game's tie-breaker card of the DL turn; figures taken in compass order;
//!   a new card per action, its template decides the action.
//! - **AI-10** templates T1, T2, T4, T5, T6 as written.
//! - **AI-12** events 2, 3, 8, 10, 11, 12, 16, 17, 26 per the ce.md policy
//!   column (16 and 17 name a corporation by AI-3, like 11); 9
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
//!   has acted (e.g. T5 holding) is passed over for the rest of that
//!   decision; as the AI keeps no memory, it is tried again (with a new
//!   card) at the DL's next decision of the turn.
//! - **AI-9 with no DT on the board**: there is nothing to move toward, so
//!   "move toward" does not apply (the line is skipped).
//! - **AI-6 ties**: a new card is revealed only when tiles actually tie.
//! - **Event 9** (Dark Influence): the nearest-DT figure is by `dist` from
//!   its square (waiting: entry squares), remaining ties by lowest id.
//! - **AI-4 fallback** measures `dist` to the first card's matrix square.
//! - **AI-13** re-rolls and forced re-rolls are resolved by the engine, not
//!   asked of the DL seat, so there is nothing to choose here.
//! - **Mission placements** (not in the AI rules): C2M3's
//!   `portal_reinforcements_from_round_6` lets a reinforcement go next to a
//!   portal instead of a red entrance. The AI takes the portal square
//!   nearest (`dist`) an on-board DT, ties lowest `(y,x)`, when it is
//!   nearer a DT than every red entry square; otherwise AI-5 as usual.
//!   C2M4's summoned Nepharite goes on the square next to the portal
//!   nearest a DT, ties lowest `(y,x)`. Neither reveals a card.
//! - Decisions not addressed to the DL (reactions, item discards, white
//!   entrances, secondary missions) and any other seat fall back to [`timeout_default`]
//!   (CONV-8): the DL never holds reaction cards.

use crate::nav::{self, pos};
use crate::{timeout_default, Bot, Seen};
use citadel_rules::content::missions::Entrance;
use citadel_rules::content::tables::EventEffect;
use citadel_rules::content::{AttackType, Corporation, CreatureKind, Edition};
use citadel_rules::game::ai_deck::{compass, AiCard, Template, AI_CORPORATIONS};
use citadel_rules::game::state::{Activation, Rules};
use citadel_rules::game::view::{GameView, PhaseView};
use citadel_rules::game::{Command, Decision, FigureId, FigureKind, Place, SectorChange};
use citadel_rules::geometry::los::{line_of_sight, SightBlockers};
use citadel_rules::geometry::{Board, Square, StepMap, Walls};
use std::collections::BTreeSet;

/// The AI Dark Legion bot. It holds no state: the cards it reveals, the
/// AI-8 tie-breaker and the reshuffles are the game's (`Game::ai_deck`), so
/// a restored game's AI goes on exactly as the original would have.
#[derive(Debug, Clone, Default)]
pub struct AiDarkLegion;

impl AiDarkLegion {
    /// A new AI.
    pub fn new() -> Self {
        AiDarkLegion
    }
}

/// The policy needs one more card than the decision has revealed so far:
/// the bot answers [`Command::RevealAiCard`] and decides again.
#[derive(Debug)]
struct NeedCard;

/// The cards revealed for the decision in hand, taken in reveal order.
struct Cards {
    revealed: Vec<AiCard>,
    next: usize,
}

impl Cards {
    /// The next card of the decision ("reveal a card", AI-1).
    fn reveal(&mut self) -> Result<AiCard, NeedCard> {
        let c = self.revealed.get(self.next).copied().ok_or(NeedCard)?;
        self.next += 1;
        Ok(c)
    }
}

type Choice = Result<Option<Command>, NeedCard>;

/// Everything derived from the game once per call.
struct Ctx<'a> {
    view: &'a GameView,
    legal: &'a [Command],
    rules: &'a Rules,
    walls: Walls,
    white: &'a [Entrance],
    red: &'a [Entrance],
}

impl<'a> Ctx<'a> {
    fn new(seen: &'a Seen) -> Ctx<'a> {
        let view = &seen.view;
        let rules = &*seen.rules;
        let walls = nav::walls(&rules.board, view);
        Ctx {
            legal: &seen.legal,
            view,
            rules,
            walls,
            white: &rules.white,
            // Waiting DL figures index this list (red, then white).
            red: &rules.dl_entrances,
        }
    }

    fn board(&self) -> &'a Board {
        &self.rules.board
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
        nav::adjacent(self.board(), &self.walls, s)
    }

    fn bfs(&self, starts: &[Square]) -> StepMap {
        nav::step_map(self.board(), &self.walls, starts)
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
                    ..
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
            barb_die: None,
        })
    }

    /// Legal moves of `f`: (end square, command).
    fn moves(&self, f: FigureId) -> Vec<(Square, Command)> {
        self.legal
            .iter()
            .filter_map(|c| match c {
                Command::Move { figure, path } if *figure == f => {
                    let end = *path.last()?;
                    self.board().on_board(end).then(|| (end, c.clone()))
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
        self.rules
            .tables
            .creatures
            .iter()
            .find(|d| d.kind == creature)
            .and_then(|d| d.bands.get(band).or(d.bands.last()))
            .is_some_and(|b| !b.fa.is_empty())
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
                    && line_of_sight(self.board(), &self.walls, &blockers, *s, dt).is_clear()
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

/// AI-4: place one figure on `tile`.
fn place(cx: &Ctx, cards: &mut Cards, tile: usize, kinds: &[CreatureKind]) -> Choice {
    let Some(kind) = kinds.iter().copied().find(|k| {
        cx.legal
            .iter()
            .any(|c| matches!(c, Command::Place { kind, .. } if kind == k))
    }) else {
        return Ok(None);
    };
    place_kind(cx, cards, tile, kind)
}

fn place_kind(cx: &Ctx, cards: &mut Cards, tile: usize, kind: CreatureKind) -> Choice {
    matrix_placement(cx, cards, tile, |square| Command::Place { kind, square })
}

/// AI-4 on `tile` for the placement command `at(square)`: the matrix
/// square of a new card per try, up to 3 extra cards, then the legal
/// placement nearest the first matrix square (ties lowest `(y, x)`).
fn matrix_placement(
    cx: &Ctx,
    cards: &mut Cards,
    tile: usize,
    at: impl Fn(Square) -> Command,
) -> Choice {
    let o = cx.tile_origin(tile);
    let mut first = None;
    for _ in 0..4 {
        let c = cards.reveal()?;
        let square = o.offset(c.matrix.0, c.matrix.1);
        first.get_or_insert(square);
        let cmd = at(square);
        if cx.legal.contains(&cmd) {
            return Ok(Some(cmd));
        }
    }
    let Some(m) = first else {
        return Ok(None);
    };
    Ok(cx
        .legal
        .iter()
        .filter_map(|c| match c {
            Command::Place { square, .. } | Command::PlaceDebris { square }
                if *c == at(*square) =>
            {
                Some(*square)
            }
            _ => None,
        })
        .min_by_key(|s| (s.dist(m), *s))
        .map(at))
}

fn decide(cx: &Ctx, cards: &mut Cards, d: &Decision) -> Choice {
    match d {
        Decision::RedEntrance { .. } => {
            // C2M3 portal reinforcements (see the module notes).
            if let Some((d, cmd)) = place_nearest_dt(cx) {
                let entrance = cx
                    .red
                    .iter()
                    .flat_map(|e| e.squares.iter())
                    .map(|s| nearest_dt(cx, *s))
                    .min()
                    .unwrap_or(i32::MAX);
                if d < entrance {
                    return Ok(Some(cmd));
                }
            }
            // AI-5.
            let card = cards.reveal()?;
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
            Ok(compass(&card, &cands).map(|i| Command::ChooseEntrance {
                entrance: cx.red[i].id.clone(),
            }))
        }
        Decision::ForceOption { card, .. } => {
            // AI-7: more figures the pool can supply; ties first listed.
            let Some(def) = cx
                .rules
                .tables
                .force_cards
                .iter()
                .find(|c| c.number == *card)
            else {
                return Ok(None);
            };
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
            Ok(best.map(|(option, _)| Command::ChooseOption { option }))
        }
        Decision::PlaceFigures { tile, kinds } => place(cx, cards, *tile, kinds),
        Decision::RevealTile => reveal_tile(cx, cards),
        Decision::EventFigure { card } => event_figure(cx, cards, *card),
        Decision::EventTile { card, figure } => event_tile(cx, cards, *card, *figure),
        Decision::AlterSectors { .. } => Ok(Some(alter_sectors(cx))),
        Decision::EventSquare { tile, figure, .. } => {
            // CE event 2 square: compass over squares adjacent to a DT, else
            // matrix. Classic event 6: adjacent to the DT nearest the figure.
            let squares: Vec<(CreatureKind, Square)> = cx
                .legal
                .iter()
                .filter_map(|c| match c {
                    Command::Place { kind, square } => Some((*kind, *square)),
                    _ => None,
                })
                .collect();
            let Some(kind) = squares.first().map(|(k, _)| *k) else {
                return Ok(None);
            };
            let mut dts = cx.dts();
            if cx.rules.mission.edition == Edition::Classic {
                if let Some(at) = cx.figure_square(*figure) {
                    let nearest = dts.iter().map(|(_, d)| at.dist(*d)).min();
                    dts.retain(|(_, d)| Some(at.dist(*d)) == nearest);
                }
            }
            let near: Vec<(Square, (f64, f64))> = squares
                .iter()
                .filter(|(_, s)| dts.iter().any(|(_, d)| cx.adjacent(*d).contains(s)))
                .map(|(_, s)| (*s, pos(*s)))
                .collect();
            if near.is_empty() {
                place_kind(cx, cards, *tile, kind)
            } else {
                let card = cards.reveal()?;
                Ok(compass(&card, &near).map(|square| Command::Place { kind, square }))
            }
        }
        Decision::EventCorporation { card: event } => {
            // Classic event 9's AI policy: the team with the most PP, ties
            // by the compass of AI-3; otherwise AI-3 alone.
            let most_pp = cx
                .rules
                .tables
                .event(*event)
                .is_some_and(|e| e.effect == EventEffect::MisinterpretedOrders);
            let best = cx.view.teams.iter().map(|t| t.pp).max().unwrap_or(0);
            let wanted = |c: Corporation| {
                !most_pp
                    || cx
                        .view
                        .teams
                        .iter()
                        .any(|t| t.corporation == c && t.pp == best)
            };
            let card = cards.reveal()?;
            let start = AI_CORPORATIONS
                .iter()
                .position(|c| *c == card.corp)
                .unwrap_or(0);
            Ok((0..5)
                .map(|i| AI_CORPORATIONS[(start + i) % 5])
                .filter(|c| wanted(*c))
                .map(|corporation| Command::ChooseCorporation { corporation })
                .find(|c| cx.legal.contains(c)))
        }
        Decision::DebrisSquare { .. } => debris(cx, cards),
        Decision::CallReinforcements { .. } => {
            // Classic CEV-2's AI policy: call while there are at most twice
            // as many DL figures as DTs on the board.
            let dl = cx
                .view
                .figures
                .iter()
                .filter(|f| matches!(f.kind, FigureKind::Creature { .. }))
                .filter(|f| matches!(f.place, Place::Board { .. }))
                .count();
            let call = dl <= 2 * cx.dts().len();
            Ok(Some(Command::CallReinforcements { call }))
        }
        Decision::PlaceNear { .. } => Ok(place_nearest_dt(cx).map(|(_, c)| c)),
        // Mission arrivals (C2M5) have no AI rule: the CONV-8 default, the
        // lowest (y, x) square.
        Decision::MissionPlacement { .. }
        | Decision::StartSquare { .. }
        | Decision::WhiteEntrance { .. }
        | Decision::DiscardItem { .. }
        | Decision::Reaction { .. }
        | Decision::CardWindow { .. }
        | Decision::CardSquare { .. }
        | Decision::CardMove { .. }
        | Decision::CardControl { .. }
        | Decision::KeepSecondary { .. } => Ok(None),
    }
}

/// C2M1 debris (missions.md: "AI: matrix"): AI-4 on tile 1, a new card
/// per try, then the legal square nearest the first matrix square.
fn debris(cx: &Ctx, cards: &mut Cards) -> Choice {
    let Some(tile) = cx.view.tiles.iter().position(|t| t.id == 1) else {
        return Ok(None);
    };
    matrix_placement(cx, cards, tile, |square| Command::PlaceDebris { square })
}

/// `dist` from `s` to the nearest on-board DT (`i32::MAX` if none).
fn nearest_dt(cx: &Ctx, s: Square) -> i32 {
    cx.dts()
        .iter()
        .map(|(_, d)| d.dist(s))
        .min()
        .unwrap_or(i32::MAX)
}

/// The legal `Place` answer nearest a DT (ties lowest `(y, x)`), with its
/// distance.
fn place_nearest_dt(cx: &Ctx) -> Option<(i32, Command)> {
    cx.legal
        .iter()
        .filter_map(|c| match c {
            Command::Place { square, .. } => Some((nearest_dt(cx, *square), *square, c)),
            _ => None,
        })
        .min_by_key(|(d, s, _)| (*d, *s))
        .map(|(d, _, c)| (d, c.clone()))
}

/// AI-6.
fn reveal_tile(cx: &Ctx, cards: &mut Cards) -> Choice {
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
        cx.board()
            .tile_squares(t)
            .flat_map(|s| from.iter().map(move |d| s.dist(*d)))
            .min()
            .unwrap_or(i32::MAX)
    };
    let Some(best) = tiles.iter().map(|t| score(*t)).min() else {
        return Ok(None);
    };
    let cands: Vec<_> = tiles
        .iter()
        .filter(|t| score(**t) == best)
        .map(|t| (*t, cx.tile_centre(*t)))
        .collect();
    let tile = if cands.len() == 1 {
        Some(cands[0].0)
    } else {
        let card = cards.reveal()?;
        compass(&card, &cands)
    };
    Ok(tile.map(|tile| Command::ChooseTile { tile }))
}

/// AI-12 figure targets (ce.md EVE policy column).
fn event_figure(cx: &Ctx, cards: &mut Cards, card: u32) -> Choice {
    let figs: Vec<FigureId> = cx
        .legal
        .iter()
        .filter_map(|c| match c {
            Command::ChooseFigure { figure } => Some(*figure),
            _ => None,
        })
        .collect();
    let dts = cx.dts();
    // By what the card does, not by its number: the 1993 deck numbers its
    // cards otherwise (its Temporary Defense System is 12, CE's
    // Corrupted Equipment).
    let effect = cx.rules.tables.event(card).map(|e| e.effect);
    let keep: Vec<FigureId> = match effect {
        // CE #2 and classic #6: a DL figure not yet next to a DT (classic:
        // of those, the one nearest a DT, `dist`).
        Some(EventEffect::DarkTeleportation) => {
            let free: Vec<_> = figs
                .iter()
                .copied()
                .filter(|f| {
                    cx.figure_square(*f)
                        .is_some_and(|s| !dts.iter().any(|(_, d)| cx.adjacent(*d).contains(&s)))
                })
                .collect();
            let pool = if free.is_empty() { figs } else { free };
            if cx.rules.mission.edition == Edition::Classic {
                match lowest_by(&pool, |f| figure_to_nearest_dt(cx, *f)) {
                    Some(v) => v,
                    None => return Ok(None),
                }
            } else {
                pool
            }
        }
        // CE #3 and classic #12: the DT with the most wounds taken (every
        // DT starts with the same health, so the lowest health).
        Some(EventEffect::TemporaryDefensiveSystem) => {
            let h = |f: &FigureId| cx.view.figures.get(f.index()).map_or(u8::MAX, |x| x.health);
            match lowest_by(&figs, h) {
                Some(v) => v,
                None => return Ok(None),
            }
        }
        Some(EventEffect::Berserk) => {
            // The eligible figure nearest a DT (`dist`); ties by compass.
            match lowest_by(&figs, |f| figure_to_nearest_dt(cx, *f)) {
                Some(v) => v,
                None => return Ok(None),
            }
        }
        Some(EventEffect::CorruptedEquipment) => {
            let n = |f: &FigureId| cx.view.figures.get(f.index()).map_or(0, |x| x.items.len());
            match lowest_by(&figs, |f| std::cmp::Reverse(n(f))) {
                Some(v) => v,
                None => return Ok(None),
            }
        }
        _ => figs,
    };
    let cands: Vec<_> = keep
        .iter()
        .filter_map(|f| Some((*f, cx.figure_pos(*f)?)))
        .collect();
    let c = cards.reveal()?;
    Ok(compass(&c, &cands).map(|figure| Command::ChooseFigure { figure }))
}

/// How far `figure` stands from the nearest DT (`dist`; off the board:
/// farthest).
fn figure_to_nearest_dt(cx: &Ctx, figure: FigureId) -> i32 {
    cx.figure_square(figure)
        .map_or(i32::MAX, |s| nearest_dt(cx, s))
}

/// The figures of `figs` with the lowest `key` (all tied ones, for the
/// compass to break), or `None` if there are none.
fn lowest_by<K: Ord>(figs: &[FigureId], key: impl Fn(&FigureId) -> K) -> Option<Vec<FigureId>> {
    let min = figs.iter().map(&key).min()?;
    Some(figs.iter().copied().filter(|f| key(f) == min).collect())
}

/// AI-12 tile targets: CE #10 the tile with most DTs; CE #2 tiles holding
/// a DT; classic #6 the tile of the DT nearest the teleported `figure`
/// (its policy puts the figure next to the nearest DT).
fn event_tile(cx: &Ctx, cards: &mut Cards, card: u32, figure: Option<FigureId>) -> Choice {
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
            .filter(|(_, s)| cx.board().tile_of(*s) == Some(t))
            .count()
    };
    let effect = cx.rules.tables.event(card).map(|e| e.effect);
    let from = figure.and_then(|f| cx.figure_square(f));
    let nearest = from.and_then(|at| dts.iter().map(|(_, d)| *d).min_by_key(|d| at.dist(*d)));
    let nearest_tile = nearest.and_then(|d| cx.board().tile_of(d));
    let keep: Vec<usize> = if effect == Some(EventEffect::MagneticRestraints) {
        let Some(max) = tiles.iter().map(|t| count(*t)).max() else {
            return Ok(None);
        };
        tiles.iter().copied().filter(|t| count(*t) == max).collect()
    } else if let Some(t) =
        nearest_tile.filter(|t| cx.rules.mission.edition == Edition::Classic && tiles.contains(t))
    {
        vec![t]
    } else {
        let with: Vec<_> = tiles.iter().copied().filter(|t| count(*t) > 0).collect();
        if with.is_empty() {
            tiles
        } else {
            with
        }
    };
    let cands: Vec<_> = keep.iter().map(|t| (*t, cx.tile_centre(*t))).collect();
    let c = cards.reveal()?;
    Ok(compass(&c, &cands).map(|tile| Command::ChooseTile { tile }))
}

/// Classic event 11's AI policy (classic.md CEV): turn the sector holding
/// the most DTs a quarter turn clockwise if that is legal, otherwise leave
/// the board. *Decision: a tie goes to the sector first in layout order.*
fn alter_sectors(cx: &Ctx) -> Command {
    let dts = cx.dts();
    let tiles = cx.board().tiles.len();
    let count = |t: usize| {
        dts.iter()
            .filter(|(_, s)| cx.board().tile_of(*s) == Some(t))
            .count()
    };
    let most = (0..tiles).rev().max_by_key(|t| count(*t));
    let turn = most.map(|tile| Command::AlterSectors {
        change: Some(SectorChange::Rotate {
            tile,
            clockwise: true,
        }),
    });
    turn.filter(|c| cx.legal.contains(c))
        .unwrap_or(Command::AlterSectors { change: None })
}

/// DL step 4 (AI-8, AI-10, AI-11; event 9). `tb` is the game's tie-breaker
/// card. Figures for which no template line applies are passed over for
/// the rest of this decision (the cards say so); the active figure ends its
/// activation instead.
fn step4(cx: &Ctx, cards: &mut Cards, tb: &AiCard) -> Choice {
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
            let card = cards.reveal()?;
            if let Some(cmd) = cx.action(f, &card, tb) {
                return Ok(Some(cmd));
            }
        }
        if cx.legal.contains(&Command::EndActivation) {
            return Ok(Some(Command::EndActivation));
        }
    }
    let mut skipped: BTreeSet<FigureId> = BTreeSet::new();
    loop {
        let ready: Vec<(FigureId, (f64, f64))> = actors
            .iter()
            .copied()
            .filter(|f| !skipped.contains(f))
            .filter(|f| {
                cx.view
                    .figures
                    .get(f.index())
                    .is_some_and(|x| x.activation != Activation::Done)
            })
            .filter_map(|f| Some((f, cx.figure_pos(f)?)))
            .collect();
        let f = if ready.is_empty() {
            // Event 9: extra single actions to the figure nearest a DT.
            let dts = cx.dts();
            actors
                .iter()
                .copied()
                .filter(|f| !skipped.contains(f))
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
            compass(tb, &ready)
        };
        let Some(f) = f else {
            return Ok(cx
                .legal
                .contains(&Command::EndTurn)
                .then_some(Command::EndTurn));
        };
        let card = cards.reveal()?;
        if let Some(cmd) = cx.action(f, &card, tb) {
            if cmd != Command::EndActivation {
                return Ok(Some(cmd));
            }
        }
        skipped.insert(f);
    }
}

impl Bot for AiDarkLegion {
    fn choose(&mut self, seen: &Seen) -> Option<Command> {
        let dl = &seen.view.dark_legion;
        if Some(seen.seat) != dl.ai_seat.or(dl.seat) {
            return timeout_default(&seen.legal);
        }
        let cx = Ctx::new(seen);
        if cx.legal.is_empty() {
            return None;
        }
        let Some(deck) = cx.view.ai_deck.clone() else {
            // Not an AI Dark Legion game: nothing to draw from.
            return timeout_default(cx.legal);
        };
        let mut cards = Cards {
            revealed: deck.revealed.iter().map(|k| AiCard::new(*k)).collect(),
            next: 0,
        };
        let choice = match cx.view.pending.clone() {
            Some(d) => decide(&cx, &mut cards, &d),
            None if matches!(cx.view.phase, PhaseView::DarkLegion) => match deck.tie_breaker {
                Some(tb) => step4(&cx, &mut cards, &AiCard::new(tb)),
                None => Ok(None),
            },
            None => Ok(None),
        };
        match choice {
            Ok(Some(c)) if cx.legal.contains(&c) => Some(c),
            Err(NeedCard) if cx.legal.contains(&Command::RevealAiCard) => {
                Some(Command::RevealAiCard)
            }
            _ => timeout_default(cx.legal),
        }
    }
}
