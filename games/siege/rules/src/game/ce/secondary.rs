//! The Collectors Edition's secondary missions (ce.md SEC, SET-10, CMD-3,
//! PPC-4), over the proof-keeping of [`crate::game::secondary`]: how they
//! are dealt (2 cards, keep 1), what each of the 18 cards asks, the three
//! holder-only Special actions and the PP reward.
//!
//! The cards are numbers on the wire and in the stored state (`u32`, the
//! number printed in `data/ce/secondary.toml`); the code names them with
//! [`CeSecondary`], so the conditions read as the cards do.

use crate::content::tables::SecondaryDef;
use crate::content::{AttackType, CreatureKind};
use crate::dice::{shuffle_with, Dice};
use crate::game::event::{Event, Place};
use crate::game::ids::{FigureId, Side};
use crate::game::secondary::{Kill, SecondaryRules};
use crate::game::state::{Decision, Game, Pending};

/// The Special action of card 3.
pub const CELL_SAMPLE: &str = "cell_sample";
/// The Special action of card 4.
pub const CONVEY_MESSAGE: &str = "convey_message";
/// The Special action of card 7.
pub const SCAN: &str = "scan";

/// The 18 CE secondary mission cards, by their printed number (ce.md SEC
/// table, `data/ce/secondary.toml`). Only the code uses the names: the
/// state and the wire carry the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum CeSecondary {
    /// 1: at least 8 PP from eliminations.
    AttackTheCitadel = 1,
    /// 2: at least 5 eliminations.
    DestroyTheLegion = 2,
    /// 3: a cell sample taken, its DT alive or out.
    CellSample = 3,
    /// 4: the message taken and carried out by a white entrance.
    ConveyMessage = 4,
    /// 5: at least 6 PP from eliminations and no Legionnaire eliminated.
    LegionnaireMutiny = 5,
    /// 6: the team's token on every tile.
    MapTheCitadel = 6,
    /// 7: 3 tiles scanned.
    ScanTheCitadel = 7,
    /// 8: no Legionnaire on card 4's tile at the end.
    PrepareForMainAttack = 8,
    /// 9: at least 5 health lost, both DTs alive or out.
    ProveYourWorth = 9,
    /// 10: 4 different kinds eliminated.
    ReplenishCollection = 10,
    /// 11: a large creature eliminated.
    TrophyHunter = 11,
    /// 12: a terminal hacked, or an elimination by a tech attack.
    Hacker = 12,
    /// 13: 3 firearm eliminations from 6 squares or more.
    Sharpshooter = 13,
    /// 14: 3 close combat eliminations.
    BladeMaster = 14,
    /// 15: at most 2 health lost.
    Untouchable = 15,
    /// 16: 2 eliminations in one Attack action.
    Demolition = 16,
    /// 17: the mission's first elimination.
    FirstBlood = 17,
    /// 18: the first team with its token on 3 tiles.
    Vanguard = 18,
}

impl CeSecondary {
    /// Every card, in number order.
    pub const ALL: [CeSecondary; 18] = [
        CeSecondary::AttackTheCitadel,
        CeSecondary::DestroyTheLegion,
        CeSecondary::CellSample,
        CeSecondary::ConveyMessage,
        CeSecondary::LegionnaireMutiny,
        CeSecondary::MapTheCitadel,
        CeSecondary::ScanTheCitadel,
        CeSecondary::PrepareForMainAttack,
        CeSecondary::ProveYourWorth,
        CeSecondary::ReplenishCollection,
        CeSecondary::TrophyHunter,
        CeSecondary::Hacker,
        CeSecondary::Sharpshooter,
        CeSecondary::BladeMaster,
        CeSecondary::Untouchable,
        CeSecondary::Demolition,
        CeSecondary::FirstBlood,
        CeSecondary::Vanguard,
    ];

    /// The card's printed number, as stored and sent.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The card printed with `number`, if there is one.
    pub fn from_number(number: u32) -> Option<CeSecondary> {
        let i = usize::try_from(number.checked_sub(1)?).ok()?;
        CeSecondary::ALL.get(i).copied()
    }
}

/// The Collectors Edition's cards (ce.md SEC, SET-10, PPC-4).
pub(crate) static CE_SECONDARIES: SecondaryRules = SecondaryRules {
    min_teams: 1,
    assigns_primary: false,
    deal: Game::deal_secondaries,
    specials: &[CELL_SAMPLE, CONVEY_MESSAGE, SCAN],
    special_ok: Game::secondary_special_ok,
    record_special: Game::record_ce_special,
    holds: Game::secondary_holds,
    reward: Game::ce_secondary_reward,
    turn_ended: |_, _, _| {},
    turn_begun: |_, _| {},
};

impl Game {
    /// SET-10: shuffle the deck, deal 2 to each team in `order` and ask
    /// each to keep one.
    pub(crate) fn deal_secondaries(
        &mut self,
        order: &[u8],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let mut deck: Vec<u32> = self
            .rules
            .tables
            .secondary
            .iter()
            .map(|s| s.number)
            .collect();
        shuffle_with(dice, &mut deck);
        self.sec.dealt = true;
        for &t in order {
            let n = deck.len().min(2);
            let mut offer = deck.split_off(deck.len() - n);
            offer.reverse(); // The top card first.
            let seat = self.teams[usize::from(t)].seat;
            events.push(Event::SecondaryDealt {
                seat,
                cards: Some(offer.clone()),
            });
            if offer.is_empty() {
                continue;
            }
            self.sec.offers[usize::from(t)] = offer;
            self.pending.push_back(Pending {
                seat,
                decision: Decision::KeepSecondary { team: t },
            });
        }
        self.sec.deck = deck;
    }

    /// Card 4's tile: the stairs tile; else the tile whose centre is
    /// farthest from every white entrance (the largest distance to the
    /// nearest one), ties to the lowest tile id.
    pub(crate) fn message_tile(&self) -> Option<usize> {
        let board = &self.rules.board;
        let tiles = board.tiles.len();
        if let Some(t) =
            (0..tiles).find(|&t| self.rules.tile_squares(t).any(|s| board.level(s).is_some()))
        {
            return Some(t);
        }
        self.farthest_tile()
    }

    /// The tile of `team`'s white entrance (card 7 may not scan it).
    fn entry_tile(&self, team: u8) -> Option<usize> {
        let e = self.teams[usize::from(team)].entrance?;
        let e = self.rules.white.get(usize::from(e))?;
        e.squares.first().and_then(|s| self.rules.board.tile_of(*s))
    }

    /// Is the secondary Special action `action` open to `figure` now
    /// (action costs aside)?
    pub(crate) fn secondary_special_ok(&self, figure: FigureId, action: &str) -> bool {
        let f = &self.figures[figure.index()];
        let (Some(team), Some(at)) = (f.team(), f.square()) else {
            return false;
        };
        let card = self.sec.kept.get(usize::from(team)).copied().flatten();
        let card = card.and_then(CeSecondary::from_number);
        let proof = &self.sec.proof[usize::from(team)];
        let board = &self.rules.board;
        match (action, card) {
            (CELL_SAMPLE, Some(CeSecondary::CellSample)) => {
                proof.cell_sample.is_none()
                    && self.figures.iter().any(|g| {
                        matches!(
                            g.creature(),
                            Some(
                                CreatureKind::Razide
                                    | CreatureKind::PraetorianStalker
                                    | CreatureKind::Nepharite
                                    | CreatureKind::Ezoghoul
                            )
                        ) && g
                            .square()
                            .is_some_and(|s| self.walls.adjacent(board, at, s))
                    })
            }
            (CONVEY_MESSAGE, Some(CeSecondary::ConveyMessage)) => {
                proof.message.is_none() && board.tile_of(at) == self.message_tile()
            }
            (SCAN, Some(CeSecondary::ScanTheCitadel)) => board.tile_of(at).is_some_and(|t| {
                proof.scans.len() < 3
                    && !proof.scans.contains(&t)
                    && Some(t) != self.entry_tile(team)
            }),
            _ => false,
        }
    }

    /// Record a checked CE secondary Special action.
    fn record_ce_special(&mut self, figure: FigureId, action: &str) {
        let f = &self.figures[figure.index()];
        let (Some(team), tile) = (
            f.team(),
            f.square().and_then(|s| self.rules.board.tile_of(s)),
        ) else {
            return;
        };
        let p = &mut self.sec.proof[usize::from(team)];
        match action {
            CELL_SAMPLE => p.cell_sample = Some(figure),
            CONVEY_MESSAGE => p.message = Some(figure),
            SCAN => p.scans.extend(tile),
            _ => {}
        }
    }

    /// Does `team`'s card `card` hold at mission end (ce.md SEC table)?
    pub(crate) fn secondary_holds(&self, team: u8, card: u32) -> bool {
        let t = usize::from(team);
        let p = &self.sec.proof[t];
        let alive_or_out = |f: FigureId| self.figures[f.index()].place != Place::Eliminated;
        let kills = |pred: &dyn Fn(&Kill) -> bool| p.kills.iter().filter(|k| pred(k)).count();
        let big = |k: CreatureKind| {
            matches!(
                k,
                CreatureKind::Razide
                    | CreatureKind::PraetorianStalker
                    | CreatureKind::Nepharite
                    | CreatureKind::Ezoghoul
            )
        };
        let kill_pp = self.teams[t].kill_pp;
        let Some(card) = CeSecondary::from_number(card) else {
            return false;
        };
        match card {
            CeSecondary::AttackTheCitadel => kill_pp >= 8,
            CeSecondary::DestroyTheLegion => p.kills.len() >= 5,
            CeSecondary::CellSample => p.cell_sample.is_some_and(alive_or_out),
            CeSecondary::ConveyMessage => p.message.is_some_and(|f| p.exited_white.contains(&f)),
            CeSecondary::LegionnaireMutiny => {
                kill_pp >= 6 && kills(&|k| k.kind == CreatureKind::Legionnaire) == 0
            }
            CeSecondary::MapTheCitadel => self.tiles.iter().all(|x| x.marked.contains(&team)),
            CeSecondary::ScanTheCitadel => p.scans.len() >= 3,
            CeSecondary::PrepareForMainAttack => {
                let tile = self.message_tile();
                !self.figures.iter().any(|f| {
                    f.creature() == Some(CreatureKind::Legionnaire)
                        && f.square().and_then(|s| self.rules.board.tile_of(s)) == tile
                        && tile.is_some()
                })
            }
            CeSecondary::ProveYourWorth => {
                p.health_lost >= 5 && self.teams[t].figures.iter().all(|f| alive_or_out(*f))
            }
            CeSecondary::ReplenishCollection => {
                let mut kinds: Vec<CreatureKind> = p.kills.iter().map(|k| k.kind).collect();
                kinds.sort();
                kinds.dedup();
                kinds.len() >= 4
            }
            CeSecondary::TrophyHunter => kills(&|k| big(k.kind)) >= 1,
            CeSecondary::Hacker => {
                p.hacks >= 1 || kills(&|k| k.attack == Some(AttackType::Tech)) >= 1
            }
            CeSecondary::Sharpshooter => {
                kills(&|k| k.attack == Some(AttackType::Firearm) && k.dist.is_some_and(|d| d >= 6))
                    >= 3
            }
            CeSecondary::BladeMaster => kills(&|k| k.attack == Some(AttackType::CloseCombat)) >= 3,
            CeSecondary::Untouchable => p.health_lost <= 2,
            CeSecondary::Demolition => p.kills.iter().any(|k| {
                k.action.is_some() && p.kills.iter().filter(|j| j.action == k.action).count() >= 2
            }),
            CeSecondary::FirstBlood => self.sec.first_blood == Some(Some(team)),
            CeSecondary::Vanguard => self.sec.vanguard == Some(team),
        }
    }

    /// CE PPC-4: a card's PP; a failing commander loses the card's extra
    /// penalty (CMD-3).
    fn ce_secondary_reward(
        &mut self,
        t: u8,
        def: &SecondaryDef,
        success: bool,
        events: &mut Vec<Event>,
    ) {
        if success {
            self.award(
                Side::Team(t),
                def.success,
                "secondary mission success",
                events,
            );
        } else {
            self.award(
                Side::Team(t),
                def.failure,
                "secondary mission failure",
                events,
            );
            if self.teams[usize::from(t)].commander {
                self.award(
                    Side::Team(t),
                    def.commander_penalty,
                    "commander penalty (secondary mission)",
                    events,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CeSecondary;
    use crate::content::Content;

    #[test]
    fn sec_the_named_cards_are_the_numbers_of_the_ce_table() {
        let content = Content::embedded().expect("content");
        let numbers: Vec<u32> = content.ce.secondary.iter().map(|s| s.number).collect();
        let named: Vec<u32> = CeSecondary::ALL.iter().map(|c| c.number()).collect();
        assert_eq!(numbers, named);
        for n in numbers {
            assert_eq!(
                CeSecondary::from_number(n).map(CeSecondary::number),
                Some(n)
            );
        }
        assert_eq!(CeSecondary::from_number(0), None);
        assert_eq!(CeSecondary::from_number(19), None);
    }
}
