//! Which missions the engine can play.
//!
//! A mission is playable because its record loads and every rule it uses is
//! implemented — not because it is on a list. [`unsupported`] reads a
//! mission record and names each thing in it the engine does not implement
//! yet (a `RULE` key, an event card, a token kind, another edition's rules).
//! Today all ten CE missions have none. A game of a mission with a gap is
//! refused at setup ([`SetupError::MissionNotPlayable`]) rather than played
//! wrong, and the server offers only missions with none.
//!
//! The lists below are the one place to say "this is implemented now": a
//! change that implements a rule adds it here, together with its tests.
//!
//! [`SetupError::MissionNotPlayable`]: super::SetupError::MissionNotPlayable

use crate::content::missions::{MissionDef, StartMode, TokenKind};
use crate::content::{Content, Edition};
use std::fmt;

/// Mission `RULE` keys the game implements.
const IMPLEMENTED_RULES: &[&str] = &[
    "ends_when_no_dt_on_board",
    "loot_removes_container",
    "special_deal_34",
    "debris_setup_tile_1",
    "ezoghoul_arrives_round_5",
    "nepharite_if_c2m4_failed",
    "hack_relay_transmits",
    "throne_target",
    "portal_reinforcements_from_round_6",
    "nepharite_summoning",
    "stairs_sector_4",
];

/// Event cards (ce.md EVE) whose effect the game implements: 1–20 (what
/// the missions use), 23, 24, 26. 21, 22, 25 and 27–29 only place their
/// reinforcements so far (docs/RULES-COVERAGE.md), and 30 has no effect.
const IMPLEMENTED_EVENTS: &[u32] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24, 26, 30,
];

/// Classic event cards (classic.md CEV, numbered 1–13 in the table's
/// order) whose effect the game implements: all 13.
const IMPLEMENTED_CLASSIC_EVENTS: &[u32] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

/// Token and feature kinds the game implements (blocking, cover, what
/// attacks and special actions do with them).
const IMPLEMENTED_TOKENS: &[TokenKind] = &[
    TokenKind::Desk,
    TokenKind::Debris,
    TokenKind::Container,
    TokenKind::Terminal,
    TokenKind::Turret,
    TokenKind::Portal,
    TokenKind::Objective,
];

/// Something a mission record uses that the engine does not implement yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// A `RULE` key.
    Rule(String),
    /// An event card of the mission's event list.
    Event(u32),
    /// A token or feature kind.
    Token(TokenKind),
    /// A mission of an edition the engine has no ruleset for.
    Edition,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::Rule(key) => write!(f, "mission rule `{key}`"),
            Unsupported::Event(card) => write!(f, "event card {card}"),
            Unsupported::Token(kind) => write!(f, "token `{kind:?}`"),
            Unsupported::Edition => f.write_str("the 1993 rules"),
        }
    }
}

/// Everything `mission` uses that the engine does not implement, in record
/// order; empty when the mission is playable.
pub fn unsupported(mission: &MissionDef) -> Vec<Unsupported> {
    let mut gaps = Vec::new();
    let events = match mission.edition {
        Edition::Ce => IMPLEMENTED_EVENTS,
        Edition::Classic => IMPLEMENTED_CLASSIC_EVENTS,
    };
    for key in &mission.special_rules {
        if !IMPLEMENTED_RULES.contains(&key.as_str()) {
            gaps.push(Unsupported::Rule(key.clone()));
        }
    }
    for &card in &mission.events {
        if !events.contains(&card) {
            gaps.push(Unsupported::Event(card));
        }
    }
    let kinds = mission
        .tokens
        .iter()
        .map(|t| t.kind)
        .chain(mission.special_actions.iter().map(|s| s.adjacent_to));
    for kind in kinds {
        let gap = Unsupported::Token(kind);
        if !IMPLEMENTED_TOKENS.contains(&kind) && !gaps.contains(&gap) {
            gaps.push(gap);
        }
    }
    gaps
}

/// Whether a game of `mission` can be played.
pub fn is_playable(mission: &MissionDef) -> bool {
    unsupported(mission).is_empty()
}

/// The ids of the playable missions of `content`, in record order.
pub fn playable_missions(content: &Content) -> Vec<&str> {
    content
        .missions
        .iter()
        .filter(|m| is_playable(m))
        .map(|m| m.id.as_str())
        .collect()
}

/// A copy of `content` in which each mission drops what other parts of
/// the engine may not implement yet but a game can do without: event cards
/// the engine does not implement leave the mission's event list, secondary
/// missions are off, and a `START tile` mission starts at the first open
/// side (S, N, W, E) of its start tile. Rules, goals and tokens stay as
/// they are. For tests that look at a mission's own rules without those
/// extra decisions; never for real games.
pub fn relaxed(content: &Content) -> Content {
    use crate::content::missions::{EntranceRef, MissionDef};
    use citadel_grid::Side;
    let mut out = content.clone();
    for m in &mut out.missions {
        let events = match m.edition {
            Edition::Ce => IMPLEMENTED_EVENTS,
            Edition::Classic => IMPLEMENTED_CLASSIC_EVENTS,
        };
        m.events.retain(|c| events.contains(c));
        m.secondary = false;
        if let StartMode::Tile(tile) = m.start {
            let Ok(board) = m.board(content.tiles(m.edition)) else {
                continue;
            };
            let side = [Side::S, Side::N, Side::W, Side::E]
                .into_iter()
                .find(|&side| {
                    let e = EntranceRef::TileSide { tile, side };
                    MissionDef::resolve_entrance(&board, m.citadel, "start", &e).is_ok()
                });
            if let Some(side) = side {
                let id = format!("{tile}{}", side_letter(side));
                m.white = vec![(id, EntranceRef::TileSide { tile, side })];
                m.start = StartMode::Entrance;
            }
        }
    }
    out
}

/// For tests that check an engine shortcut against the full rule on many
/// positions: random games of every playable mission (3 corporations, AI
/// Dark Legion, seeds `0..seeds`, the random bot's dice salted with
/// `salt`), `visit` shown each position with its command count before the
/// command, for up to `commands` commands a game.
#[cfg(test)]
pub(crate) fn visit_random_games(
    seeds: u64,
    commands: usize,
    salt: u64,
    mut visit: impl FnMut(&super::Game, usize),
) {
    use crate::content::Corporation;
    use crate::dice::{Dice, SeededDice};
    use crate::game::{DarkLegionSetup, Game, Setup};
    let content = Content::embedded().expect("content");
    let corps = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
    ];
    for mission in playable_missions(content) {
        for seed in 0..seeds {
            let setup = Setup::new(mission, &corps, DarkLegionSetup::Ai).with_seed(seed);
            let mut dice = SeededDice::new(seed);
            let mut bot = SeededDice::new(seed ^ salt);
            let (mut g, _) = Game::new(setup, &mut dice).expect("setup");
            for n in 0..commands {
                visit(&g, n);
                let Some(seat) = g.seat_to_act().filter(|_| !g.is_finished()) else {
                    break;
                };
                let legal = g.legal(seat);
                let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
                g.apply(seat, cmd, &mut dice).expect("legal");
            }
        }
    }
}

fn side_letter(side: citadel_grid::Side) -> char {
    match side {
        citadel_grid::Side::N => 'N',
        citadel_grid::Side::E => 'E',
        citadel_grid::Side::S => 'S',
        citadel_grid::Side::W => 'W',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> &'static Content {
        Content::embedded().expect("the embedded content loads")
    }

    #[test]
    fn c1m1_is_playable_and_first() {
        let c = content();
        let c1m1 = c.mission("ce-c1m1").expect("C1M1 record");
        assert_eq!(unsupported(c1m1), Vec::<Unsupported>::new());
        assert_eq!(playable_missions(c).first(), Some(&"ce-c1m1"));
    }

    #[test]
    fn a_record_names_each_gap_once() {
        let mut m = content().mission("ce-c1m1").expect("C1M1 record").clone();
        m.special_rules.push("not_a_rule".into());
        m.special_rules.push("not_a_rule".into());
        m.events.push(999);
        let gaps = unsupported(&m);
        assert_eq!(
            gaps,
            vec![
                Unsupported::Rule("not_a_rule".into()),
                Unsupported::Rule("not_a_rule".into()),
                Unsupported::Event(999)
            ]
        );
        assert!(!is_playable(&m));
    }

    /// Issue #14: every Collectors Edition mission plays, because every
    /// rule, event, token and goal its record uses is implemented.
    #[test]
    fn all_ten_ce_missions_are_playable() {
        let c = content();
        let ce: Vec<&str> = c
            .missions
            .iter()
            .filter(|m| m.edition == Edition::Ce)
            .map(|m| m.id.as_str())
            .collect();
        assert_eq!(ce.len(), 10);
        for m in &c.missions {
            if m.edition == Edition::Ce {
                assert_eq!(unsupported(m), Vec::<Unsupported>::new(), "{}", m.id);
            }
        }
        assert!(playable_missions(c).starts_with(&ce));
    }

    /// Issue #15: the 1993 training mission and all ten numbered missions
    /// play: every classic event is built, and mission 5's
    /// `stairs_sector_4` (its stairs sector for the secondary missions,
    /// classic CSM) came with the 1993 secondary missions.
    #[test]
    fn the_classic_missions_are_all_playable() {
        let c = content();
        let training = c.mission("classic-training").expect("training record");
        assert_eq!(unsupported(training), Vec::<Unsupported>::new());
        for n in 1..=10 {
            let id = format!("classic-m{n}");
            let m = c.mission(&id).expect("classic record");
            assert_eq!(unsupported(m), Vec::<Unsupported>::new(), "{id}");
        }
        let m5 = c.mission("classic-m5").expect("m5");
        assert!(m5.has_rule("stairs_sector_4"), "m5 still names its rule");
        assert!(playable_missions(c).contains(&"classic-m5"));
    }
}
