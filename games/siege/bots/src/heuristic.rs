//! Heuristic bots: simple greedy players for corporation seats
//! ([`HeuristicCorporation`]) and a human-style Dark Legion seat
//! ([`HeuristicDarkLegion`]). Both only ever return one of their seat's
//! legal commands, from what the seat sees ([`Seen`]); they hold no state,
//! so they are deterministic.

use crate::nav;
use crate::{timeout_default, Bot, Seen};
use citadel_rules::content::missions::{Goal, TokenKind};
use citadel_rules::content::CreatureKind;
use citadel_rules::content::Edition;
use citadel_rules::game::reaction::Window;
use citadel_rules::game::ruleset::classic_secondary;
use citadel_rules::game::state::{Rules, TokenState};
use citadel_rules::game::view::{GameView, PhaseView};
use citadel_rules::game::{Command, Decision, FigureId, FigureKind, Viewer};
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

/// Classic CDT: the obvious boons of the 1993 cards, from the legal
/// plays: heal a DT down to 3 health or less (Medic, Medicine Injector),
/// fire Control Defense System at the toughest DL figure, and shield the
/// team for the round when the Dark Legion's turn starts (Combat Aura,
/// Spectral Displacement); on its own turn with an attack at hand, more
/// actions (Combat Frenzy), a re-roll (Heroic Luck) or a weaker target
/// (Weak Spot); and take 5 PP from the richest other player (Combat
/// Report). Other sabotage is left to players.
fn two_use_boon(view: &GameView, legal: &[Command]) -> Option<Command> {
    use citadel_rules::content::classic_tables::ClassicDtUse as U;
    let plays = || {
        legal.iter().filter_map(|c| match c {
            Command::PlayTwoUse {
                card_use, figure, ..
            } => Some((*card_use, *figure, c)),
            _ => None,
        })
    };
    let health = |f: &Option<FigureId>| {
        f.and_then(|f| view.figures.get(f.index()))
            .map_or(u8::MAX, |f| f.health)
    };
    if let Some((_, _, c)) = plays()
        .filter(|(u, f, _)| matches!(u, U::Medic | U::MedicineInjector) && health(f) <= 3)
        .min_by_key(|(_, f, _)| health(f))
    {
        return Some(c.clone());
    }
    if let Some((_, _, c)) = plays()
        .filter(|(u, _, _)| *u == U::ControlDefenseSystem)
        .max_by_key(|(_, f, _)| {
            f.and_then(|f| view.figures.get(f.index()))
                .map_or(0, |f| toughness(&f.kind))
        })
    {
        return Some(c.clone());
    }
    // Combat Report: 5 PP from the richest other player (the taker gains
    // what the victim loses, so only when it has some).
    let pp_of = |c: &Command| match c {
        Command::PlayTwoUse {
            corporation: Some(corp),
            ..
        } => view
            .teams
            .iter()
            .find(|t| t.corporation == *corp)
            .map_or(0, |t| t.pp),
        _ => 0,
    };
    if let Some((_, _, c)) = plays()
        .filter(|(u, _, c)| *u == U::CombatReport && pp_of(c) > 0)
        .max_by_key(|(_, _, c)| pp_of(c))
    {
        return Some(c.clone());
    }
    if matches!(view.phase, PhaseView::DarkLegion) {
        return plays()
            .find(|(u, _, _)| matches!(u, U::CombatAura | U::SpectralDisplacement))
            .map(|(_, _, c)| c.clone());
    }
    // On the team's own turn, with an attack at hand: more actions, a
    // re-roll, or a weaker target.
    let own_turn = view.pending.is_none();
    let attack_on = |target: FigureId| {
        legal
            .iter()
            .any(|c| matches!(c, Command::Attack { target: t, .. } if *t == target))
    };
    let can_attack = legal.iter().any(|c| matches!(c, Command::Attack { .. }));
    if own_turn {
        if let Some((_, _, c)) = plays().find(|(u, _, _)| *u == U::CombatFrenzy) {
            return Some(c.clone());
        }
    }
    if own_turn && can_attack {
        return plays()
            .find(|(u, f, _)| match u {
                U::HeroicLuck => true,
                U::WeakSpot => f.is_some_and(attack_on),
                _ => false,
            })
            .map(|(_, _, c)| c.clone());
    }
    None
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
    greedy_move_by(view, mv, |_, s| key(s))
}

/// A greedy corporation player: pass the draft, enter nearest the goal,
/// do a mission Special action when possible (photograph, transmit), hack
/// or attack a goal token (relays, ritual terminals, the Throne, portals),
/// attack the easiest target, else walk toward the nearest goal square
/// keeping clear of crowds; reactions when damage lands.
#[derive(Debug, Clone, Default)]
pub struct HeuristicCorporation;

impl HeuristicCorporation {
    /// A new bot.
    pub fn new() -> Self {
        HeuristicCorporation
    }
}

/// The mission goal's token names: (to destroy, to hack) (MSN-2).
fn goal_names(goal: &Goal, destroy: &mut Vec<String>, hack: &mut Vec<String>) {
    match goal {
        Goal::And(v) | Goal::Or(v) => v.iter().for_each(|g| goal_names(g, destroy, hack)),
        Goal::Destroyed(n) => destroy.extend(n.iter().cloned()),
        Goal::Hacked(n) => hack.extend(n.iter().cloned()),
        _ => {}
    }
}

/// Goal tokens still to deal with: (square, may be destroyed, may be
/// hacked). A token is done once it is gone, or hacked when hacking it
/// counts.
fn goal_tokens(rules: &Rules, view: &GameView) -> Vec<(Square, bool, bool)> {
    let (mut destroy, mut hack) = (Vec::new(), Vec::new());
    goal_names(&rules.mission.goal, &mut destroy, &mut hack);
    view.tokens
        .iter()
        .filter_map(|t| match &t.kind {
            TokenState::Mission {
                name: Some(n),
                hacked,
                ..
            } => {
                let d = destroy.contains(n);
                let h = hack.contains(n);
                ((d || h) && !(h && *hacked)).then_some((t.square, d, h && !*hacked))
            }
            _ => None,
        })
        .collect()
}

/// Features a Special action can still count at: desks (photograph), and
/// for `ONCE=yes` actions the features not yet counted that are still on
/// the board (relays).
fn special_features(rules: &Rules, view: &GameView) -> Vec<Square> {
    let mut out = Vec::new();
    for s in &rules.mission.special_actions {
        for t in rules
            .mission
            .tokens
            .iter()
            .filter(|t| t.kind == s.adjacent_to)
        {
            let on_board =
                t.kind == TokenKind::Desk || view.tokens.iter().any(|v| v.square == t.square);
            let counted = s.once_per_feature
                && view
                    .special_features
                    .iter()
                    .any(|(a, q)| *a == s.id && *q == t.square);
            if on_board && !counted {
                out.push(t.square);
            }
        }
    }
    out
}

/// Squares from which the goal advances: adjacent to a feature a Special
/// action still counts at (a desk square itself too: desks are walkable),
/// or to a goal token still to hack or destroy.
fn goal_targets(rules: &Rules, view: &GameView, walls: &Walls) -> Vec<Square> {
    let board = &rules.board;
    let mut features = special_features(rules, view);
    features.extend(goal_tokens(rules, view).into_iter().map(|(s, _, _)| s));
    let mut t: Vec<Square> = features
        .into_iter()
        .flat_map(|d| {
            let mut v = nav::adjacent(board, walls, d);
            if board.passable(d) && !view.tokens.iter().any(|t| t.square == d) {
                v.push(d);
            }
            v
        })
        .collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// Draft (EQP-5): on a mission with tokens to hack or destroy, take the
/// first affordable card that adds a die (the Throne needs 4 hits) or
/// helps hacking; otherwise pass (C1M1 plays with the base weapons).
fn draft_pick(rules: &Rules, view: &GameView, legal: &[Command]) -> Option<Command> {
    const WANTED: [&str; 5] = [
        "explosive_ammunition",
        "cybernetic_power_arm",
        "neural_jack",
        "glyph_decrypter",
        "security_download",
    ];
    if goal_tokens(rules, view).is_empty() {
        return None;
    }
    WANTED.iter().find_map(|w| {
        legal
            .iter()
            .find(|c| matches!(c, Command::PickEquipment { item, .. } if item == w))
            .cloned()
    })
}

/// A hack or an attack on a goal token, the active figure's first.
fn goal_token_action(rules: &Rules, view: &GameView, legal: &[Command]) -> Option<Command> {
    let goals = goal_tokens(rules, view);
    let wanted = |c: &Command| match c {
        Command::Hack { token, .. } => goals.iter().any(|(s, _, h)| s == token && *h),
        Command::AttackToken { token, .. } => goals.iter().any(|(s, d, _)| s == token && *d),
        _ => false,
    };
    let figure = |c: &Command| match c {
        Command::Hack { figure, .. } | Command::AttackToken { figure, .. } => Some(*figure),
        _ => None,
    };
    legal
        .iter()
        .filter(|c| wanted(c))
        .min_by_key(|c| {
            (
                view.active.is_some() && figure(c) != view.active,
                !matches!(c, Command::Hack { .. }),
            )
        })
        .cloned()
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
                let aims = Aims::of(&seen.rules.mission.goal, &seen.view);
                let targets = aims.targets(&seen.rules, view, &walls, None);
                let map = nav::step_map_tokens(board, &walls, &targets, view);
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
            Some(Decision::StartSquare { .. }) => {
                // MOV-12: the start square nearest the goal.
                let aims = Aims::of(&seen.rules.mission.goal, &seen.view);
                let targets = aims.targets(&seen.rules, view, &walls, None);
                let map = nav::step_map_tokens(board, &walls, &targets, view);
                legal
                    .iter()
                    .filter_map(|c| match c {
                        Command::PlaceStart { square, .. } => {
                            Some((nav::distance(&map, &targets, *square), *square, c))
                        }
                        _ => None,
                    })
                    .min_by_key(|(d, s, _)| (*d, *s))
                    .map(|(_, _, c)| c.clone())
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
            Some(Decision::CardWindow { .. }) => {
                two_use_boon(view, legal).or(Some(Command::PassCard))
            }
            Some(_) => timeout_default(legal),
            None => {
                two_use_boon(view, legal).or_else(|| self.act(&seen.rules, view, &walls, legal))
            }
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
            return Some(draft_pick(rules, view, legal).unwrap_or(Command::PassEquipment));
        }
        // Never attack the team's own captive (classic CSM card 2).
        let mine = |t: &FigureId| {
            let me = view
                .teams
                .iter()
                .find(|x| Viewer::Seat(x.seat) == view.viewer);
            view.figures
                .get(t.index())
                .and_then(|f| f.captured_by)
                .is_some_and(|c| me.is_some_and(|m| m.team == c))
        };
        let kept: Vec<Command> = legal
            .iter()
            .filter(|c| !matches!(c, Command::Attack { target, .. } if mine(target)))
            .cloned()
            .collect();
        let legal = &kept[..];
        let aims = Aims::of(&rules.mission.goal, view);
        // Goal progress first: a mission Special action (photograph, loot,
        // ...), picking up the objective, leaving by a goal exit, a hack or
        // an attack on a goal token.
        if let Some(c) = legal
            .iter()
            .find(|c| matches!(c, Command::Special { .. } | Command::PickUp { .. }))
        {
            return Some(c.clone());
        }
        if let Some(c) = aims.exit_move(rules, view, legal) {
            return Some(c);
        }
        if let Some(c) = captive_move(rules, view, legal) {
            return Some(c);
        }
        if let Some(c) = goal_token_action(rules, view, legal) {
            return Some(c);
        }
        if let Some(c) = aims.tagged_attack(view, legal) {
            return Some(c);
        }
        if let Some(c) = best_attack(view, legal, view.active) {
            return Some(c);
        }
        let board = &rules.board;
        let dl = nav::creature_squares(view);
        let mapping = sectors_to_map(rules, view);
        // The team's own DTs (a captive only goes for the way out).
        let own: Vec<(FigureId, Square, Command)> = moves(board, legal)
            .into_iter()
            .filter(|(f, _, _)| {
                view.figures
                    .get(f.index())
                    .is_none_or(|v| v.captured_by.is_none())
            })
            .collect();
        let mut maps = Vec::new();
        for f in own.iter().map(|(f, _, _)| *f) {
            if !maps.iter().any(|(g, _, _)| *g == f) {
                let targets = if mapping.is_empty() {
                    aims.targets(rules, view, walls, Some(f))
                } else {
                    mapping.clone()
                };
                let map = nav::step_map_tokens(board, walls, &targets, view);
                maps.push((f, targets, map));
            }
        }
        let key = |f: FigureId, s: Square| {
            let Some((_, targets, map)) = maps.iter().find(|(g, _, _)| *g == f) else {
                return (u32::MAX, u32::MAX);
            };
            let d = nav::distance(map, targets, s);
            let crowd = dl.iter().filter(|q| q.dist(s) <= 1).count() as u32;
            (d.saturating_add(2 * crowd.saturating_sub(1)), d)
        };
        if let Some(c) = greedy_move_by(view, &own, key) {
            return Some(c);
        }
        finish(legal)
    }
}

/// Choose a greedy move as [`greedy_move`], with a key per figure.
fn greedy_move_by(
    view: &GameView,
    mv: &[(FigureId, Square, Command)],
    key: impl Fn(FigureId, Square) -> (u32, u32),
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
            let now = nav::square_of(view, *f).map_or((u32::MAX, u32::MAX), |s| key(*f, s));
            let k = key(*f, *end);
            (k < now && k.0 != u32::MAX).then_some((k, *end, c))
        })
        .min_by_key(|(k, end, _)| (*k, *end))
        .map(|(_, _, c)| c.clone())
}

/// What the mission goal (MSN-2) asks the corporations to do.
#[derive(Debug, Default)]
struct Aims {
    /// Exits that count (`exited`).
    exits: Vec<String>,
    /// The token to carry out and its exits (`carried_out`).
    carry: Option<(String, Vec<String>)>,
    /// Tags to eliminate (`eliminated`).
    tags: Vec<String>,
    /// Special action ids of the goal.
    specials: Vec<String>,
    /// The goal is to kill (`all_dl_eliminated`, `pp_earned`): go for the
    /// Dark Legion, and turn over the cards it hides behind.
    hunt: bool,
}

impl Aims {
    fn of(goal: &Goal, view: &GameView) -> Aims {
        let mut a = Aims::default();
        a.add(goal, view);
        a
    }

    fn add(&mut self, goal: &Goal, view: &GameView) {
        match goal {
            Goal::And(v) | Goal::Or(v) => v.iter().for_each(|g| self.add(g, view)),
            Goal::Exited { exits, .. } => self.exits.extend(exits.iter().cloned()),
            Goal::CarriedOut { token, exits } => self.carry = Some((token.clone(), exits.clone())),
            Goal::Eliminated(tag) => self.tags.push(tag.clone()),
            Goal::SpecialDone { action, .. } => self.specials.push(action.clone()),
            // `alive`: the DTs must be on the board at the end, so they go in
            // and fight what comes.
            Goal::AllDlEliminated | Goal::PpEarned(_) | Goal::Alive(_) => self.hunt = true,
            // `next` counts only once `first` has held: until then, leaving
            // by a goal exit would waste the DT.
            Goal::Then { first, next } if view.goal_first_done => self.add(next, view),
            Goal::Then { first, .. } => self.add(first, view),
            _ => {}
        }
    }

    /// Entry squares of these exits.
    fn exit_squares(rules: &Rules, exits: &[String]) -> Vec<Square> {
        rules
            .exits
            .iter()
            .chain(&rules.white)
            .chain(&rules.red)
            .filter(|e| exits.contains(&e.id))
            .flat_map(|e| e.squares.iter().copied())
            .collect()
    }

    /// A Move that leaves the board by a goal exit: any DT for `exited`,
    /// the carrier for `carried_out`.
    fn exit_move(&self, rules: &Rules, view: &GameView, legal: &[Command]) -> Option<Command> {
        let board = &rules.board;
        legal
            .iter()
            .find(|c| {
                let Command::Move { figure, path } = c else {
                    return false;
                };
                let Some(last) = path.last() else {
                    return false;
                };
                if board.on_board(*last) {
                    return false;
                }
                let by = |ids: &[String]| {
                    rules
                        .exits
                        .iter()
                        .chain(&rules.white)
                        .chain(&rules.red)
                        .filter(|e| ids.contains(&e.id))
                        .any(|e| e.outside.iter().any(|(_, o)| o == last))
                };
                let carrying = view
                    .figures
                    .get(figure.index())
                    .is_some_and(|f| !f.carrying.is_empty());
                by(&self.exits)
                    || self
                        .carry
                        .as_ref()
                        .is_some_and(|(_, exits)| carrying && by(exits))
            })
            .cloned()
    }

    /// An attack on a figure with a goal tag.
    fn tagged_attack(&self, view: &GameView, legal: &[Command]) -> Option<Command> {
        legal
            .iter()
            .find(|c| match c {
                Command::Attack { target, .. } => view
                    .figures
                    .get(target.index())
                    .and_then(|t| t.tag.as_ref())
                    .is_some_and(|t| self.tags.contains(t)),
                _ => false,
            })
            .cloned()
    }

    /// Where `figure` (or any DT) should head for the goal.
    fn targets(
        &self,
        rules: &Rules,
        view: &GameView,
        walls: &Walls,
        _figure: Option<FigureId>,
    ) -> Vec<Square> {
        let board = &rules.board;
        let around = |squares: &[Square]| -> Vec<Square> {
            let mut v: Vec<Square> = squares
                .iter()
                .flat_map(|s| nav::adjacent(board, walls, *s))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        if let Some((token, exits)) = &self.carry {
            let lying: Vec<Square> = view
                .tokens
                .iter()
                .filter(
                    |t| matches!(&t.kind, TokenState::Mission { name: Some(n), .. } if n == token),
                )
                .map(|t| t.square)
                .collect();
            if lying.is_empty() {
                return Aims::exit_squares(rules, exits);
            }
            return around(&lying);
        }
        if !self.specials.is_empty() {
            let kinds: Vec<TokenKind> = rules
                .mission
                .special_actions
                .iter()
                .filter(|s| self.specials.contains(&s.id))
                .map(|s| s.adjacent_to)
                .collect();
            let mut at: Vec<Square> = rules
                .mission
                .tokens
                .iter()
                .filter(|t| t.kind == TokenKind::Desk && kinds.contains(&t.kind))
                .map(|t| t.square)
                .collect();
            at.extend(view.tokens.iter().filter_map(|t| match &t.kind {
                TokenState::Mission { kind, .. } if kinds.contains(kind) => Some(t.square),
                _ => None,
            }));
            if !at.is_empty() {
                let mut v = around(&at);
                // Desks are walkable features: standing on one is close too.
                v.extend(at.iter().filter(|s| board.passable(**s)));
                return v;
            }
        }
        if !self.exits.is_empty() {
            return Aims::exit_squares(rules, &self.exits);
        }
        if !self.tags.is_empty() {
            let tagged: Vec<Square> = view
                .figures
                .iter()
                .filter(|f| f.tag.as_ref().is_some_and(|t| self.tags.contains(t)))
                .filter_map(|f| match f.place {
                    citadel_rules::game::Place::Board { square } => Some(square),
                    _ => None,
                })
                .collect();
            if !tagged.is_empty() {
                return around(&tagged);
            }
            // Not in play yet: turn over face-down cards (C1M4's card 34),
            // else wait near the mission's portal (C2M5's arrival).
            let unrevealed = unrevealed_squares(board, view);
            if !unrevealed.is_empty() {
                return unrevealed;
            }
            let portals: Vec<Square> = rules
                .mission
                .tokens
                .iter()
                .filter(|t| t.kind == TokenKind::Portal)
                .map(|t| t.square)
                .collect();
            if !portals.is_empty() {
                return around(&portals);
            }
        }
        if self.hunt {
            let dl: Vec<Square> = nav::creature_squares(view);
            if !dl.is_empty() {
                return around(&dl);
            }
            let unrevealed = unrevealed_squares(board, view);
            if !unrevealed.is_empty() {
                return unrevealed;
            }
        }
        // Otherwise next to the goal's features and tokens (desks, relays,
        // the Throne, portals, terminals).
        goal_targets(rules, view, walls)
    }
}

/// A captive's Move (classic CSM Capture Alien Specimen: a Dark Legion
/// figure the team moves): out by a white entrance if it can, else the
/// Move ending nearest one (by `dist`), if that is nearer than now.
fn captive_move(rules: &Rules, view: &GameView, legal: &[Command]) -> Option<Command> {
    let white: Vec<Square> = rules
        .white
        .iter()
        .flat_map(|e| e.squares.iter().copied())
        .collect();
    let near = |s: Square| white.iter().map(|w| w.dist(s)).min().unwrap_or(i32::MAX);
    let captive = |f: &FigureId| {
        view.figures
            .get(f.index())
            .is_some_and(|v| v.captured_by.is_some())
    };
    let mut best: Option<(i32, &Command)> = None;
    for c in legal {
        let Command::Move { figure, path } = c else {
            continue;
        };
        let Some(end) = path.last() else {
            continue;
        };
        if !captive(figure) {
            continue;
        }
        if !rules.board.on_board(*end) {
            return Some(c.clone());
        }
        let now = nav::square_of(view, *figure).map_or(i32::MAX, near);
        let d = near(*end);
        if d < now && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.clone())
}

/// The 1993 secondary mission Map the Citadel (classic CSM), when this
/// seat's team holds it and pursues no primary mission: the open squares
/// of the sectors none of its DTs has ended a Move on yet (empty
/// otherwise). A team on the primary mission never holds a card.
fn sectors_to_map(rules: &Rules, view: &GameView) -> Vec<Square> {
    let Viewer::Seat(seat) = view.viewer else {
        return Vec::new();
    };
    let Some(team) = view.teams.iter().find(|t| t.seat == seat) else {
        return Vec::new();
    };
    if rules.mission.edition != Edition::Classic
        || team.secondary != Some(classic_secondary::MAP_THE_CITADEL)
    {
        return Vec::new();
    }
    let board = &rules.board;
    view.tiles
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.marked.contains(&team.team))
        .flat_map(|(i, _)| board.tile_squares(i).filter(|s| board.passable(*s)))
        .collect()
}

/// The open squares of the tiles that still hide face-down force cards.
fn unrevealed_squares(board: &Board, view: &GameView) -> Vec<Square> {
    view.tiles
        .iter()
        .enumerate()
        .filter(|(_, t)| t.face_down > 0)
        .flat_map(|(i, _)| board.tile_squares(i).filter(|s| board.passable(*s)))
        .collect()
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
            Some(Decision::PlaceFigures { .. })
            | Some(Decision::EventSquare { .. })
            | Some(Decision::PlaceNear { .. }) => legal
                .iter()
                .filter_map(|c| match c {
                    Command::Place { square, .. } => Some((near(*square), *square, c)),
                    _ => None,
                })
                .min_by_key(|(d, s, _)| (*d, *s))
                .map(|(_, _, c)| c.clone()),
            Some(Decision::RedEntrance { .. }) => {
                let red = &seen.rules.dl_entrances;
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
