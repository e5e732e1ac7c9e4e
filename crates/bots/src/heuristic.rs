//! Heuristic bots: simple greedy players for corporation seats
//! ([`HeuristicCorporation`]) and a human-style Dark Legion seat
//! ([`HeuristicDarkLegion`]). Both only ever return one of their seat's
//! legal commands, from what the seat sees ([`Seen`]); they hold no state,
//! so they are deterministic.

use crate::nav;
use crate::{timeout_default, Bot, Seen};
use citadel_rules::content::missions::TokenKind;
use citadel_rules::content::CreatureKind;
use citadel_rules::game::reaction::Window;
use citadel_rules::game::state::Rules;
use citadel_rules::game::view::GameView;
use citadel_rules::game::{Command, Decision, FigureId, FigureKind};
use citadel_rules::geometry::{Board, Square, Walls};

/// How hard a creature is to eliminate (lower: easier target).
fn toughness(kind: &FigureKind) -> u8 {
    match kind {
        FigureKind::Creature { creature } => match creature {
            CreatureKind::Legionnaire => 0,
            CreatureKind::Necromutant => 1,
            CreatureKind::Centurion => 2,
            CreatureKind::PraetorianStalker => 3,
            CreatureKind::Razide => 3,
            CreatureKind::Nepharite => 4,
            CreatureKind::Ezoghoul => 5,
        },
        FigureKind::Doomtrooper { .. } => 2,
    }
}

/// Legal moves as (figure, on-board end square, command).
fn moves(board: &Board, legal: &[Command]) -> Vec<(FigureId, Square, Command)> {
    legal
        .iter()
        .filter_map(|c| match c {
            Command::Move { figure, path } => {
                let end = *path.last()?;
                board.on_board(end).then(|| (*figure, end, c.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The attack whose target is easiest to eliminate: lowest health, then
/// lowest toughness, then the command order.
fn best_attack(view: &GameView, legal: &[Command], only: Option<FigureId>) -> Option<Command> {
    legal
        .iter()
        .filter_map(|c| match c {
            Command::Attack { figure, target, .. } if only.is_none_or(|f| f == *figure) => {
                let t = view.figures.get(target.index())?;
                Some(((t.health, toughness(&t.kind)), c))
            }
            _ => None,
        })
        .min_by_key(|(k, _)| *k)
        .map(|(_, c)| c.clone())
}

/// End the activation if possible, else the turn, else the CONV-8 default.
fn finish(legal: &[Command]) -> Option<Command> {
    if legal.contains(&Command::EndActivation) {
        return Some(Command::EndActivation);
    }
    timeout_default(legal)
}

/// Choose a greedy move: the move (of the active figure if it has one)
/// with the lowest `key` of its end square, if it beats the figure's
/// current key.
fn greedy_move(
    view: &GameView,
    mv: &[(FigureId, Square, Command)],
    key: impl Fn(Square) -> (u32, u32),
) -> Option<Command> {
    let active: Vec<_> = match view.active {
        Some(a) if mv.iter().any(|(f, _, _)| *f == a) => {
            mv.iter().filter(|(f, _, _)| *f == a).collect()
        }
        _ => mv.iter().collect(),
    };
    active
        .into_iter()
        .filter_map(|(f, end, c)| {
            let now = nav::square_of(view, *f).map_or((u32::MAX, u32::MAX), &key);
            let k = key(*end);
            (k < now && k.0 != u32::MAX).then_some((k, *end, c))
        })
        .min_by_key(|(k, end, _)| (*k, *end))
        .map(|(_, _, c)| c.clone())
}

/// A greedy corporation player: pass the draft, enter nearest the desks,
/// photograph when possible, attack the easiest target, else walk to the
/// nearest desk keeping clear of crowds; reactions when damage lands.
#[derive(Debug, Clone, Default)]
pub struct HeuristicCorporation;

impl HeuristicCorporation {
    /// A new bot.
    pub fn new() -> Self {
        HeuristicCorporation
    }
}

/// Squares from which a desk can be photographed (adjacent to a desk).
fn desk_targets(rules: &Rules, walls: &Walls) -> Vec<Square> {
    let board = &rules.board;
    let mut t: Vec<Square> = rules
        .mission
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Desk)
        .map(|t| t.square)
        .flat_map(|d| {
            let mut v = nav::adjacent(board, walls, d);
            if board.passable(d) {
                v.push(d);
            }
            v
        })
        .collect();
    t.sort_unstable();
    t.dedup();
    t
}

impl Bot for HeuristicCorporation {
    fn choose(&mut self, seen: &Seen) -> Option<Command> {
        let legal = &seen.legal;
        if legal.is_empty() {
            return None;
        }
        let view = &seen.view;
        let board = &seen.rules.board;
        let walls = nav::walls(board, view);
        let choice = match &view.pending {
            Some(Decision::WhiteEntrance { .. }) => {
                let map = nav::step_map(board, &walls, &desk_targets(&seen.rules, &walls));
                seen.rules
                    .white
                    .iter()
                    .map(|e| Command::ChooseEntrance {
                        entrance: e.id.clone(),
                    })
                    .filter(|c| legal.contains(c))
                    .zip(seen.rules.white.iter())
                    .min_by_key(|(_, e)| {
                        e.squares
                            .iter()
                            .map(|s| nav::at(&map, *s))
                            .min()
                            .unwrap_or(u32::MAX)
                    })
                    .map(|(c, _)| c)
            }
            Some(Decision::Reaction { window, .. }) => {
                if *window == Window::OwnAttackRolled {
                    Some(Command::React { card: None })
                } else {
                    legal
                        .iter()
                        .find(|c| matches!(c, Command::React { card: Some(_) }))
                        .cloned()
                        .or(Some(Command::React { card: None }))
                }
            }
            Some(_) => timeout_default(legal),
            None => self.act(&seen.rules, view, &walls, legal),
        };
        match choice {
            Some(c) if legal.contains(&c) => Some(c),
            _ => timeout_default(legal),
        }
    }
}

impl HeuristicCorporation {
    fn act(
        &self,
        rules: &Rules,
        view: &GameView,
        walls: &Walls,
        legal: &[Command],
    ) -> Option<Command> {
        if legal.contains(&Command::PassEquipment) {
            return Some(Command::PassEquipment);
        }
        if let Some(c) = legal
            .iter()
            .find(|c| matches!(c, Command::Special { action, .. } if action == "photograph"))
        {
            return Some(c.clone());
        }
        if let Some(c) = best_attack(view, legal, view.active) {
            return Some(c);
        }
        let board = &rules.board;
        let targets = desk_targets(rules, walls);
        let map = nav::step_map(board, walls, &targets);
        let dl = nav::creature_squares(view);
        let key = |s: Square| {
            let d = nav::distance(&map, &targets, s);
            let crowd = dl.iter().filter(|q| q.dist(s) <= 1).count() as u32;
            (d.saturating_add(2 * crowd.saturating_sub(1)), d)
        };
        if let Some(c) = greedy_move(view, &moves(board, legal), key) {
            return Some(c);
        }
        finish(legal)
    }
}

/// A greedy human-style Dark Legion: attack the weakest DT in reach, move
/// toward the nearest DT, place figures next to DTs, aim events at the
/// weakest DT.
#[derive(Debug, Clone, Default)]
pub struct HeuristicDarkLegion;

impl HeuristicDarkLegion {
    /// A new bot.
    pub fn new() -> Self {
        HeuristicDarkLegion
    }
}

impl Bot for HeuristicDarkLegion {
    fn choose(&mut self, seen: &Seen) -> Option<Command> {
        let legal = &seen.legal;
        if legal.is_empty() {
            return None;
        }
        let view = &seen.view;
        let board = &seen.rules.board;
        let walls = nav::walls(board, view);
        let dts = nav::doomtroopers(view);
        let dt_sq: Vec<Square> = dts.iter().map(|(_, s, _)| *s).collect();
        let near = |s: Square| dt_sq.iter().map(|d| d.dist(s)).min().unwrap_or(i32::MAX);
        let choice = match &view.pending {
            Some(Decision::PlaceFigures { .. }) | Some(Decision::EventSquare { .. }) => legal
                .iter()
                .filter_map(|c| match c {
                    Command::Place { square, .. } => Some((near(*square), *square, c)),
                    _ => None,
                })
                .min_by_key(|(d, s, _)| (*d, *s))
                .map(|(_, _, c)| c.clone()),
            Some(Decision::RedEntrance { .. }) => {
                let red = &seen.rules.red;
                red.iter()
                    .map(|e| {
                        let d = e.squares.iter().map(|s| near(*s)).min().unwrap_or(i32::MAX);
                        (
                            d,
                            Command::ChooseEntrance {
                                entrance: e.id.clone(),
                            },
                        )
                    })
                    .filter(|(_, c)| legal.contains(c))
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, c)| c)
            }
            Some(Decision::RevealTile) | Some(Decision::EventTile { .. }) => legal
                .iter()
                .filter_map(|c| match c {
                    Command::ChooseTile { tile } => {
                        let d = board
                            .tile_squares(*tile)
                            .map(near)
                            .min()
                            .unwrap_or(i32::MAX);
                        Some((d, c))
                    }
                    _ => None,
                })
                .min_by_key(|(d, _)| *d)
                .map(|(_, c)| c.clone()),
            Some(Decision::EventFigure { .. }) => {
                // The weakest DT among the options; otherwise the option
                // nearest a DT (e.g. a DL figure to boost).
                legal
                    .iter()
                    .filter_map(|c| match c {
                        Command::ChooseFigure { figure } => {
                            let f = view.figures.get(figure.index())?;
                            let is_dt = matches!(f.kind, FigureKind::Doomtrooper { .. });
                            let d = nav::square_of(view, *figure).map_or(i32::MAX, near);
                            Some(((u8::from(!is_dt), f.health, d), c))
                        }
                        _ => None,
                    })
                    .min_by_key(|(k, _)| *k)
                    .map(|(_, c)| c.clone())
            }
            Some(Decision::EventCorporation { .. }) => {
                // The corporation whose DT is the weakest.
                let weakest = dts
                    .iter()
                    .min_by_key(|(_, _, h)| *h)
                    .and_then(|(f, _, _)| view.figures.get(f.index()))
                    .and_then(|f| match f.kind {
                        FigureKind::Doomtrooper { team, .. } => view
                            .teams
                            .get(usize::from(team))
                            .map(|t| Command::ChooseCorporation {
                                corporation: t.corporation,
                            }),
                        FigureKind::Creature { .. } => None,
                    });
                weakest.filter(|c| legal.contains(c))
            }
            Some(_) => None,
            None => {
                if let Some(c) = best_attack(view, legal, view.active) {
                    Some(c)
                } else {
                    let starts: Vec<Square> = dt_sq
                        .iter()
                        .flat_map(|d| nav::adjacent(board, &walls, *d))
                        .collect();
                    let map = nav::step_map(board, &walls, &starts);
                    let key = |s: Square| (nav::distance(&map, &starts, s), 0);
                    greedy_move(view, &moves(board, legal), key)
                        .or_else(|| best_attack(view, legal, None))
                        .or_else(|| finish(legal))
                }
            }
        };
        match choice {
            Some(c) if legal.contains(&c) => Some(c),
            _ => timeout_default(legal),
        }
    }
}
